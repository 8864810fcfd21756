package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"sort"
	"testing"

	"github.com/sift-agent/sift/operator"
)

// shopTotals are the figures the generated shop database must produce.
type shopTotals struct {
	Customers, Products, Orders, Items int
	PaidRevenue                        float64            // sum(quantity*price) over paid orders
	RevenueByCountry                   map[string]float64 // paid orders only
	OrdersByStatus                     map[string]int
}

var (
	shopCountries = []string{"Germany", "France", "Spain", "Italy"}
	shopStatuses  = []string{"paid", "paid", "paid", "refunded", "open"}
	shopCategory  = []string{"books", "games", "garden"}
)

// shopDDL creates the shop tables; the same text works on SQLite and
// Postgres.
var shopDDL = []string{
	`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT NOT NULL)`,
	`CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, price REAL NOT NULL)`,
	`CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), order_date TEXT NOT NULL, status TEXT NOT NULL)`,
	`CREATE TABLE order_items (order_id INTEGER NOT NULL REFERENCES orders(id), product_id INTEGER NOT NULL REFERENCES products(id), quantity INTEGER NOT NULL, PRIMARY KEY (order_id, product_id))`,
}

// fillShop creates and fills the shop tables through exec (a writable
// connection, not a Source) and returns the totals it put in. Prices are
// multiples of 0.25, so every sum is exact in floating point.
func fillShop(t testing.TB, exec func(q string, args ...any) error, placeholder func(i int) string) shopTotals {
	t.Helper()
	for _, q := range shopDDL {
		if err := exec(q); err != nil {
			t.Fatalf("create shop: %v", err)
		}
	}
	p := placeholder
	tot := shopTotals{Customers: 40, Products: 12, Orders: 1000, RevenueByCountry: map[string]float64{}, OrdersByStatus: map[string]int{}}
	country := map[int]string{}
	for i := 1; i <= tot.Customers; i++ {
		country[i] = shopCountries[i%len(shopCountries)]
		if err := exec(fmt.Sprintf("INSERT INTO customers VALUES (%s, %s, %s)", p(1), p(2), p(3)), i, fmt.Sprintf("Customer %d", i), country[i]); err != nil {
			t.Fatal(err)
		}
	}
	price := map[int]float64{}
	for i := 1; i <= tot.Products; i++ {
		price[i] = 2.5 + float64(i)*1.25
		if err := exec(fmt.Sprintf("INSERT INTO products VALUES (%s, %s, %s, %s)", p(1), p(2), p(3), p(4)), i, fmt.Sprintf("Product %d", i), shopCategory[i%len(shopCategory)], price[i]); err != nil {
			t.Fatal(err)
		}
	}
	for o := 1; o <= tot.Orders; o++ {
		cust := 1 + (o*7)%tot.Customers
		status := shopStatuses[o%len(shopStatuses)]
		date := fmt.Sprintf("2023-%02d-%02d", 1+o%12, 1+o%28)
		if err := exec(fmt.Sprintf("INSERT INTO orders VALUES (%s, %s, %s, %s)", p(1), p(2), p(3), p(4)), o, cust, date, status); err != nil {
			t.Fatal(err)
		}
		tot.OrdersByStatus[status]++
		for k := 0; k < 1+o%3; k++ {
			prod := 1 + (o+k*5)%tot.Products
			qty := 1 + (o+k)%4
			if err := exec(fmt.Sprintf("INSERT INTO order_items VALUES (%s, %s, %s)", p(1), p(2), p(3)), o, prod, qty); err != nil {
				t.Fatal(err)
			}
			tot.Items++
			if status == "paid" {
				tot.PaidRevenue += float64(qty) * price[prod]
				tot.RevenueByCountry[country[cust]] += float64(qty) * price[prod]
			}
		}
	}
	return tot
}

// newShopDB writes the shop database to a SQLite file and returns its path
// and totals.
func newShopDB(t testing.TB) (string, shopTotals) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "shop.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	tot := fillShop(t, func(q string, args ...any) error {
		_, err := tx.Exec(q, args...)
		return err
	}, func(int) string { return "?" })
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	return path, tot
}

// openShop opens the shop database as a Source.
func openShop(t testing.TB, opts Options) (*Source, shopTotals, string) {
	t.Helper()
	path, tot := newShopDB(t)
	s, err := Open(context.Background(), "sqlite:"+path, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, tot, path
}

// newOperator returns a local operator over a fresh workspace.
func newOperator(t testing.TB) operator.Operator {
	t.Helper()
	op, err := operator.NewLocal(operator.LocalConfig{Root: t.TempDir()})
	if err != nil {
		t.Fatalf("operator: %v", err)
	}
	t.Cleanup(func() { op.Close() })
	return op
}

// money renders a sum the way result text shows it.
func money(f float64) string {
	return formatValue(math.Round(f*100) / 100)
}

// sortedKeys returns m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
