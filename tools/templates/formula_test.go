package templates

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Hostile: a data file's names are spreadsheet formulas. The table a
// built-in analysis writes under out/ holds them with a leading ', keeps
// negative numbers numeric, and the report notes it.
func TestTemplateTablesNeutraliseFormulas(t *testing.T) {
	data := "customer,amount\n" +
		"\"=HYPERLINK(\"\"http://evil.example/\"\",\"\"open\"\")\",100\n" +
		"\"+cmd|' /C calc'!A0\",80\n" +
		"@SUM(1+1),60\n" +
		"North,-5\n" +
		"South,10\n"
	op := workspace(t, map[string][]byte{"sales.csv": []byte(data)})
	res := runMatched(t, op, "input/sales.csv", "top 5 customers by amount")
	var table string
	for _, f := range res.Files {
		if strings.HasSuffix(f, ".csv") {
			b, err := os.ReadFile(filepath.Join(op.Root(), f))
			if err != nil {
				t.Fatal(err)
			}
			table += string(b)
		}
	}
	for _, want := range []string{`"'=HYPERLINK(""http://evil.example/"",""open"")"`, `'+cmd|' /C calc'!A0`, `'@SUM(1+1)`, "North,-5"} {
		if !strings.Contains(table, want) {
			t.Errorf("the exported table lacks %s:\n%s", want, table)
		}
	}
	for _, bad := range []string{"\n=HYPERLINK", "\"=HYPERLINK", "\n+cmd", "\n@SUM", "'-5"} {
		if strings.Contains(table, bad) {
			t.Errorf("the exported table holds %q:\n%s", bad, table)
		}
	}
	noted := false
	for _, n := range res.Notes {
		noted = noted || strings.Contains(n, "leading '")
	}
	if !noted {
		t.Errorf("the report must note the neutralised cells; notes: %q", res.Notes)
	}
}
