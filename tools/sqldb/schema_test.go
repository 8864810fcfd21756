package sqldb

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSchemaSQLite(t *testing.T) {
	s, tot, _ := openShop(t, Options{})
	sc, err := s.Schema(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tb := range sc.Tables {
		names = append(names, tb.Name)
	}
	if diff := cmp.Diff([]string{"customers", "order_items", "orders", "products"}, names); diff != "" {
		t.Fatalf("tables (-want +got):\n%s", diff)
	}
	orders := sc.Table("ORDERS")
	if orders == nil {
		t.Fatal("Table is not case-insensitive")
	}
	if orders.Rows != int64(tot.Orders) || orders.RowsEstimated {
		t.Errorf("orders rows = %d (estimated %v), want exactly %d", orders.Rows, orders.RowsEstimated, tot.Orders)
	}
	if diff := cmp.Diff([]string{"id"}, orders.PrimaryKey); diff != "" {
		t.Errorf("orders PK (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]ForeignKey{{Columns: []string{"customer_id"}, Table: "customers", RefColumns: []string{"id"}}}, orders.ForeignKeys); diff != "" {
		t.Errorf("orders FKs (-want +got):\n%s", diff)
	}
	items := sc.Table("order_items")
	if diff := cmp.Diff([]string{"order_id", "product_id"}, items.PrimaryKey); diff != "" {
		t.Errorf("order_items PK (-want +got):\n%s", diff)
	}
	if len(items.ForeignKeys) != 2 {
		t.Errorf("order_items FKs = %v, want 2", items.ForeignKeys)
	}
	status := orders.Column("status")
	if diff := cmp.Diff([]string{"paid", "open", "refunded"}, status.Values); diff != "" {
		t.Errorf("status values, most frequent first (-want +got):\n%s", diff)
	}
	name := sc.Table("customers").Column("name")
	if len(name.Samples) != DefaultSampleValues || name.Values != nil {
		t.Errorf("customers.name samples=%v values=%v, want %d samples and no value list (all distinct)", name.Samples, name.Values, DefaultSampleValues)
	}
	country := sc.Table("customers").Column("country")
	if len(country.Values) != len(shopCountries) {
		t.Errorf("country values = %v, want all %d countries", country.Values, len(shopCountries))
	}
	if price := sc.Table("products").Column("price"); price.Values != nil || len(price.Samples) == 0 {
		t.Errorf("price: values=%v samples=%v, want samples only (not text)", price.Values, price.Samples)
	}
}

// TestSchemaRefreshesWhenItChanges changes the file through another
// connection: the cached schema must be replaced, and kept otherwise.
func TestSchemaRefreshesWhenItChanges(t *testing.T) {
	s, _, path := openShop(t, Options{})
	ctx := context.Background()
	first, err := s.Schema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.Schema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if again != first {
		t.Error("an unchanged schema was loaded again")
	}
	w, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.Exec("ALTER TABLE customers ADD COLUMN segment TEXT"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Exec("CREATE TABLE returns (order_id INTEGER REFERENCES orders(id), reason TEXT)"); err != nil {
		t.Fatal(err)
	}
	changed, err := s.Schema(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if changed == first || changed.Table("returns") == nil || changed.Table("customers").Column("segment") == nil {
		t.Errorf("schema not refreshed after a change: %v", tableNames(changed))
	}
}

func tableNames(sc *Schema) []string {
	var out []string
	for _, t := range sc.Tables {
		out = append(out, t.Name)
	}
	return out
}

func TestRenderTable(t *testing.T) {
	tb := &Table{
		Name: "orders", Rows: 1234, Comment: "one row per order",
		PrimaryKey:  []string{"id"},
		ForeignKeys: []ForeignKey{{Columns: []string{"customer_id"}, Table: "customers", RefColumns: []string{"id"}}},
		Columns: []Column{
			{Name: "id", Type: "INTEGER", Samples: []string{"1", "2"}},
			{Name: "customer_id", Type: "INTEGER", Samples: []string{"7"}},
			{Name: "status", Type: "TEXT", Values: []string{"paid", "open"}, Samples: []string{"paid"}},
		},
	}
	want := strings.Join([]string{
		"table orders (1,234 rows) — one row per order",
		"  id INTEGER PK",
		"  customer_id INTEGER → customers.id",
		"  status TEXT; values: 'paid', 'open'",
		"",
	}, "\n")
	if diff := cmp.Diff(want, renderTable(tb, false)); diff != "" {
		t.Errorf("renderTable (-want +got):\n%s", diff)
	}
	brief := "table orders (1,234 rows) — one row per order\n  id INTEGER PK\n  customer_id INTEGER → customers.id\n  status TEXT\n"
	if diff := cmp.Diff(brief, renderTable(tb, true)); diff != "" {
		t.Errorf("renderTable brief (-want +got):\n%s", diff)
	}
}
