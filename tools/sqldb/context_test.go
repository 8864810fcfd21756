package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/llm/tokens"
)

// newWideDB writes a SQLite database of 300 tables: the shop's four, a few
// near-miss distractors, and filler from many business areas, linked by
// foreign keys and holding a few rows each.
func newWideDB(t testing.TB) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "warehouse.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) error {
		_, err := tx.Exec(q, args...)
		return err
	}
	fillShop(t, exec, func(int) string { return "?" })
	must := func(q string) {
		t.Helper()
		if err := exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	must("CREATE TABLE customer_feedback (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), rating INTEGER, remark TEXT)")
	must("CREATE TABLE product_reviews (id INTEGER PRIMARY KEY, product_id INTEGER REFERENCES products(id), stars INTEGER, body TEXT)")
	must("CREATE TABLE purchase_orders (id INTEGER PRIMARY KEY, supplier TEXT, placed_on TEXT, total REAL)")
	areas := []string{"hr", "payroll", "fleet", "it", "legal", "facility", "audit", "tax", "treasury", "marketing", "crm", "logistics", "quality", "research", "training", "security"}
	nouns := []string{"employee", "contract", "vehicle", "asset", "ticket", "invoice_line", "ledger", "budget", "campaign", "shipment", "inspection", "project", "course", "badge", "policy", "vendor", "route", "license", "incident"}
	cols := []string{"code TEXT", "label TEXT", "amount REAL", "created_at TEXT", "owner TEXT", "state TEXT", "note TEXT", "valid_from TEXT", "weight REAL", "priority INTEGER"}
	made := 7
	var prev string
	for i := 0; made < 300; i++ {
		name := fmt.Sprintf("%s_%s", areas[i%len(areas)], nouns[(i/len(areas))%len(nouns)])
		if i >= len(areas)*len(nouns) {
			name = fmt.Sprintf("%s_%d", name, i)
		}
		def := []string{"id INTEGER PRIMARY KEY"}
		for k := 0; k < 3+i%5; k++ {
			def = append(def, cols[(i+k*3)%len(cols)])
		}
		if prev != "" && i%3 == 0 {
			def = append(def, fmt.Sprintf("%s_id INTEGER REFERENCES %s(id)", strings.SplitN(prev, "_", 2)[1], prev))
		}
		must(fmt.Sprintf("CREATE TABLE %s (%s)", name, strings.Join(def, ", ")))
		for r := 1; r <= 3; r++ {
			must(fmt.Sprintf("INSERT INTO %s (id) VALUES (%d)", name, r))
		}
		prev = name
		made++
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestContextSelectsTablesForTheRequest(t *testing.T) {
	path := newWideDB(t)
	s, err := Open(context.Background(), "sqlite:"+path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sc, err := s.Schema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Tables) != 300 {
		t.Fatalf("generated %d tables, want 300", len(sc.Tables))
	}
	cases := []struct {
		request string
		want    []string
	}{
		{"Which product categories had the most orders from customers in Germany?", []string{"customers", "orders", "order_items", "products"}},
		{"Revenue per customer country for paid orders", []string{"customers", "orders", "order_items", "products"}},
		{"How many vehicles does the fleet have per state?", []string{"fleet_vehicle"}},
	}
	for _, c := range cases {
		t.Run(c.request, func(t *testing.T) {
			text, err := s.Context(context.Background(), c.request, 4000)
			if err != nil {
				t.Fatal(err)
			}
			// Counted as a provider bills them (o200k), not as the
			// characters / 4 the budget is estimated with.
			if n := tokens.Text("", text); n > 4000 {
				t.Errorf("context is %d tokens (o200k), want at most 4000; estimated %d", n, EstimateTokens(text))
			}
			for _, w := range c.want {
				if !strings.Contains(text, "table "+w+" (") {
					t.Errorf("context lacks a description of %s:\n%s", w, text)
				}
			}
			if !strings.Contains(text, "300 tables") || !strings.Contains(text, "describe_table") {
				t.Errorf("context does not say how many tables there are and how to see the rest:\n%s", text)
			}
		})
	}
	// The request's value (Germany) is listed where it lives.
	text, _ := s.Context(context.Background(), cases[0].request, 4000)
	if !strings.Contains(text, "'Germany'") {
		t.Errorf("context lacks the country values:\n%s", text)
	}
}

func TestContextSmallSchemaShowsEverything(t *testing.T) {
	s, _, _ := openShop(t, Options{})
	text, err := s.Context(context.Background(), "anything at all", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"table customers (40 rows)", "table orders (1,000 rows)", "customer_id INTEGER → customers.id", "status TEXT; values: 'paid', 'open', 'refunded'"} {
		if !strings.Contains(text, want) {
			t.Errorf("context lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "more tables") {
		t.Errorf("a small schema was cut:\n%s", text)
	}
	// A tiny budget still names what it cannot describe.
	tiny, err := s.Context(context.Background(), "orders by status", 60)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tiny, "table orders") || !strings.Contains(tiny, "more tables") {
		t.Errorf("tiny-budget context:\n%s", tiny)
	}
}

func TestSplitWordsAndForms(t *testing.T) {
	got := strings.Join(splitWords("OrderItems_by-Category2024"), ",")
	if got != "order,items,by,category2024" {
		t.Errorf("splitWords = %s", got)
	}
	for w, want := range map[string]string{"categories": "category", "orders": "order", "boxes": "box", "status": "statu", "class": ""} {
		forms := wordForms(w)
		if want == "" && len(forms) != 1 || want != "" && (len(forms) != 2 || forms[1] != want) {
			t.Errorf("wordForms(%q) = %v, want singular %q", w, forms, want)
		}
	}
}

func BenchmarkContext300Tables(b *testing.B) {
	path := newWideDB(b)
	s, err := Open(context.Background(), "sqlite:"+path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	if _, err := s.Schema(ctx); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Context(ctx, "Which product categories had the most orders from customers in Germany?", 4000); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSchemaLoad300Tables(b *testing.B) {
	path := newWideDB(b)
	ctx := context.Background()
	for b.Loop() {
		s, err := Open(ctx, "sqlite:"+path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := s.Schema(ctx); err != nil {
			b.Fatal(err)
		}
		s.Close()
	}
}

// A prompt gets each dialect's notes once, however many of its databases
// are attached.
func TestSourcesDialectNotes(t *testing.T) {
	a, _, _ := openShop(t, Options{Name: "a"})
	b, _, _ := openShop(t, Options{Name: "b"})
	want := "- " + DialectNotes(SQLite)
	if DialectNotes(SQLite) == "" {
		t.Fatal("SQLite has no notes to show")
	}
	if got := NewSources(a, b).DialectNotes(); got != want {
		t.Errorf("notes of two SQLite sources = %q, want %q once", got, want)
	}
	if got := NewSources().DialectNotes(); got != "" {
		t.Errorf("notes without sources = %q, want none", got)
	}
}
