package agents

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/xuri/excelize/v2"

	"github.com/sift-agent/sift/agents/internal/prompt"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/llm/tokens"
	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/preview"
)

// describedFile is a data set the description goldens cover, written
// under input/ of a workspace by its make function.
type describedFile struct {
	name string
	make func(t testing.TB, path string)
}

// describedFiles are the golden data sets: a numeric file (dates and
// decimals, 1,461 × 6), a wide one (45 columns), the sales demo and a
// workbook with two sheets.
var describedFiles = []describedFile{
	{"weather.csv", copyFile(filepath.Join("testdata", "data", "weather.csv"))},
	{"wide.csv", writeWideCSV},
	{"sales.csv", copyFile(filepath.Join("..", "examples", "data", "sales.csv"))},
	{"shop.xlsx", writeShopWorkbook},
}

func copyFile(src string) func(testing.TB, string) {
	return func(t testing.TB, dst string) {
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// writeWideCSV writes 120 rows × 45 columns: an id, a date, a store, a
// region, 36 numbered measures, a computed share, coordinates and notes
// that are often missing.
func writeWideCSV(t testing.TB, path string) {
	var b strings.Builder
	b.WriteString("id,date,store,region")
	for c := 1; c <= 36; c++ {
		fmt.Fprintf(&b, ",m%02d", c)
	}
	b.WriteString(",share,latitude,longitude,channel,notes\n")
	stores := []string{"Lyon", "Paris", "Nice", "Lille", "Metz", "Caen"}
	regions := []string{"North", "South", "East", "West"}
	for r := range 120 {
		fmt.Fprintf(&b, "%d,2024-%02d-%02d,%s,%s", 1000+r, r%12+1, r%28+1, stores[r%len(stores)], regions[(r*7)%len(regions)])
		for c := 1; c <= 36; c++ {
			fmt.Fprintf(&b, ",%d.%02d", (r*31+c*17)%500, (r*c)%100)
		}
		note := ""
		if r%5 == 0 {
			note = fmt.Sprintf("check batch %d", r/5)
		}
		fmt.Fprintf(&b, ",%.6f,%.6f,%.6f,%s,%s\n", float64((r*37)%1000)/997, 45.0+float64(r%50)/37, 4.0+float64(r%40)/41, []string{"web", "store"}[r%3/2], note)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeShopWorkbook writes a workbook with an Orders sheet (ids, dates,
// amounts, a computed ratio with long decimals, coordinates) and a
// Customers sheet.
func writeShopWorkbook(t testing.TB, path string) {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetName("Sheet1", "Orders"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.NewSheet("Customers"); err != nil {
		t.Fatal(err)
	}
	customers := []string{"C01", "C02", "C03", "C04", "C05", "C06", "C07", "C08"}
	rows := [][]any{{"order_id", "order_date", "customer", "amount", "discount_ratio", "lat"}}
	for r := range 30 {
		rows = append(rows, []any{fmt.Sprintf("A-%04d", 101+r), fmt.Sprintf("2024-03-%02d", r+1), customers[(r*3)%len(customers)],
			fmt.Sprintf("%d.%02d", 20+(r*13)%90, (r*7)%100), fmt.Sprintf("%.6f", float64((r*11)%17)/23), fmt.Sprintf("%.6f", 48.8+float64(r)/97)})
	}
	rows = append(rows, []any{"A-0131", "2024-03-31", "C01", "", "", ""})
	segments := []string{"retail", "retail", "wholesale", "retail", "online", "wholesale", "retail", "online"}
	cust := [][]any{{"customer", "segment", "city", "joined"}}
	for i, c := range customers {
		cust = append(cust, []any{c, segments[i], []string{"Lyon", "Paris", "Nice", "Lille"}[i%4], fmt.Sprintf("20%02d-0%d-15", 18+i%5, 1+i%9)})
	}
	for sheet, rr := range map[string][][]any{"Orders": rows, "Customers": cust} {
		for i, r := range rr {
			cell, _ := excelize.CoordinatesToCellName(1, i+1)
			if err := f.SetSheetRow(sheet, cell, &r); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := f.SaveAs(path); err != nil {
		t.Fatal(err)
	}
}

// describedInput writes file under input/ of a new workspace and returns
// its preview, named as the agents name it (input/<name>).
func describedInput(t testing.TB, file describedFile) (preview.Previewed, preview.Options) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "input"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "input", file.name)
	file.make(t, path)
	opts := preview.Options{BaseDir: root}
	files := preview.Files(context.Background(), []string{path}, opts)
	if files[0].Err != nil {
		t.Fatal(files[0].Err)
	}
	return files[0], opts
}

// TestDataDescriptionGolden pins the data context the prompts carry for
// each golden data set: per column its type, missing share and range or
// top values, then a few sample rows (none for the wide file), long
// decimals rounded except in coordinates (regenerate with
// UPDATE_GOLDEN=1).
func TestDataDescriptionGolden(t *testing.T) {
	for _, file := range describedFiles {
		t.Run(file.name, func(t *testing.T) {
			f, opts := describedInput(t, file)
			got := demoteHeadings(preview.DescribeAll([]preview.Previewed{f}, opts))
			name := strings.TrimSuffix(file.name, filepath.Ext(file.name))
			checkGolden(t, filepath.Join("testdata", "describe", name+".golden"), got+"\n", file.name+" description")
		})
	}
}

// TestDataDescriptionPaysForItself checks that the description is much
// shorter, in o200k tokens, than the compact preview it replaces in the
// prompts on the numeric file, and no longer on the others.
func TestDataDescriptionPaysForItself(t *testing.T) {
	for _, file := range describedFiles {
		f, opts := describedInput(t, file)
		before := tokens.Text("gpt-4.1", demoteHeadings(preview.CompactAll([]preview.Previewed{f}, opts)))
		after := tokens.Text("gpt-4.1", demoteHeadings(preview.DescribeAll([]preview.Previewed{f}, opts)))
		t.Logf("%s: compact preview %d tokens, description %d tokens (o200k)", file.name, before, after)
		if after > before {
			t.Errorf("%s: the description takes %d tokens, more than the compact preview's %d", file.name, after, before)
		}
		if file.name == "weather.csv" && after*2 > before {
			t.Errorf("%s: the description takes %d tokens, want at most half the compact preview's %d", file.name, after, before)
		}
	}
}

// TestCodeAgentIsToldWhatTheKernelHolds checks that the code agent's
// system message carries the files' description until a cell has loaded
// data, and from then on what the kernel holds (with the files by name and
// the SQL part kept), in a message of its own after the unchanging system
// message; in process mode always the description.
func TestCodeAgentIsToldWhatTheKernelHolds(t *testing.T) {
	f, opts := describedInput(t, describedFiles[0])
	dc := demoteHeadings(preview.DescribeAll([]preview.Previewed{f}, opts)) + prompt.SQLContextHead + "Query with sql_query."
	state := &fakeKernelState{}
	data := func() prompt.CodeData {
		return prompt.CodeData{Context: dc, Inputs: []string{"input/weather.csv"}, Kernel: state.KernelState()}
	}
	request := []*schema.Message{schema.UserMessage("Monthly mean of temp_max")}

	first := prompt.CodeAgent(operator.PythonKernel, "", data(), request)
	if !strings.Contains(first[1].Content, "- temp_max (float)") || strings.Contains(first[1].Content, "Python kernel holds") {
		t.Fatalf("before any cell the data message must describe the files:\n%s", first[1].Content)
	}
	state.text = "df: DataFrame 1461 rows × 6 columns: date datetime64[ns], precipitation float64, temp_max float64, temp_min float64, wind float64, weather object"
	later := prompt.CodeAgent(operator.PythonKernel, "", data(), request)
	checkGolden(t, filepath.Join("testdata", "prompts", "code_kernel.golden"), render(later), "code agent prompt once data is loaded")
	if later[0].Content != first[0].Content {
		t.Errorf("the system message must not change as the kernel fills:\n%s", later[0].Content)
	}
	if strings.Contains(later[1].Content, "- temp_max (float)") || !strings.Contains(later[1].Content, "Query with sql_query.") {
		t.Errorf("once data is loaded the description must give way to the kernel's state, the SQL part kept:\n%s", later[1].Content)
	}
	if process := prompt.CodeAgent(operator.PythonProcess, "", data(), request); !strings.Contains(process[1].Content, "- temp_max (float)") {
		t.Errorf("in process mode nothing carries over: the files must be described:\n%s", process[1].Content)
	}

}

// TestDataDescribedOnceThenTheKernel runs a scripted 3-step analysis and
// checks where the files' description goes: to the planner, and to the
// code agent's first call only; every later code agent call (the one that
// reads the cell's output, and those of later steps) is told what the
// kernel holds instead, in the data message after its unchanging system
// message, and within a step that message stays as its first call had it.
func TestDataDescribedOnceThenTheKernel(t *testing.T) {
	py := pythonOrSkip(t)
	script := scripted.New(threeStepScript(false)...)
	s, err := New(Config{Models: Models{Default: script.Model()}, SessionsRoot: t.TempDir(), Python: py})
	if err != nil {
		t.Fatal(err)
	}
	collect(t, s, Request{Mode: ModePlan, Question: "Which region sells most?", Files: []string{salesCSV(t)}})
	const described = "- region (text, 3 distinct values): North=2, East=1, South=1"
	const held = "df: DataFrame 4 rows × 3 columns: date datetime64[ns], region object, revenue int64"
	var code []string
	for i, req := range script.Requests() {
		sys := req.Messages[0].Content
		switch {
		case i == 0:
			if !strings.Contains(sys, described) {
				t.Errorf("the planner must get the description %q:\n%s", described, sys)
			}
		case strings.HasPrefix(sys, "You are Sift's code agent"):
			if strings.Contains(sys, "## Data") {
				t.Errorf("the code agent's system message must stay its prompt alone (the data follows it):\n%s", sys)
			}
			code = append(code, req.Messages[1].Content)
		default:
			for _, m := range req.Messages {
				if strings.Contains(m.Content, described) {
					t.Errorf("request %d (not the planner's nor the code agent's) carries the description:\n%s", i+1, m.Content)
				}
			}
		}
	}
	if len(code) != 6 {
		t.Fatalf("want 6 code agent calls (2 per step), got %d", len(code))
	}
	for i, data := range code {
		if i == 0 {
			if !strings.Contains(data, described) || strings.Contains(data, "kernel holds") {
				t.Errorf("the first code agent call must get the description, not a kernel state:\n%s", data)
			}
			continue
		}
		if strings.Contains(data, described) || !strings.Contains(data, held) {
			t.Errorf("code agent call %d must be told what the kernel holds (%q) instead of the description:\n%s", i+1, held, data)
		}
		// Steps 2 and 3 make s and m: the call that reads the cell's output
		// has them in the cell's code, and keeps the data message of the
		// step's first call, so the request's prefix stays the same.
		if i%2 == 1 && i > 1 && data != code[i-1] {
			t.Errorf("code agent call %d changed the data message its step's first call had:\n%s\nwas:\n%s", i+1, data, code[i-1])
		}
	}
}

// fakeKernelState is a kernel that holds text.
type fakeKernelState struct{ text string }

func (f *fakeKernelState) KernelState() string { return f.text }
