// Package native generates Sift's native eval suite: data files and a
// SQLite database with known contents, and questions over them whose
// expected answers are computed here, in Go, independently of the Python
// that answers them. Each question comes with a scripted-model script
// whose Python really runs on the data, so an offline run scores the
// pipeline (inputs, kernel, tools, answer extraction), not the script.
package native

import (
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // the SQLite driver
)

// The generated data, kept in memory to compute the expected answers.
type data struct {
	customers []customer
	sales     []sale
	targets   map[string]float64
	readings  []reading
	orders    []order
}

type customer struct {
	ID, Name, Segment, Region, City string
}

type sale struct {
	OrderID    int
	Date       time.Time
	Customer   customer
	Product    string
	Units      int
	UnitPrice  float64
	Revenue    float64
	Region     string
	CustomerID string
}

type reading struct {
	Time    time.Time
	Sensor  string
	Temp    float64
	Missing bool
}

type order struct {
	ID         int
	CustomerID string
	Date       time.Time
	Amount     float64
	Status     string
}

var (
	regions  = []string{"North", "South", "East", "West"}
	products = []string{"Widget", "Gadget", "Doohickey", "Gizmo", "Sprocket"}
	prices   = map[string]float64{"Widget": 12.5, "Gadget": 30, "Doohickey": 7.25, "Gizmo": 45, "Sprocket": 18}
	segments = []string{"Retail", "Wholesale", "Online"}
	cities   = []string{"Lyon", "Porto", "Graz", "Turku", "Cork"}
	names    = []string{"Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Stark", "Wayne", "Wonka", "Tyrell"}
)

// generate makes the data, the same every time.
func generate() *data {
	r := rand.New(rand.NewPCG(2024, 11))
	d := &data{targets: map[string]float64{"North": 50000, "South": 45000, "East": 30000, "West": 52000}}
	for i := range 40 {
		d.customers = append(d.customers, customer{
			ID:      fmt.Sprintf("C%03d", i+1),
			Name:    fmt.Sprintf("%s %d", names[i%len(names)], i/len(names)+1),
			Segment: segments[r.IntN(len(segments))],
			Region:  regions[r.IntN(len(regions))],
			City:    cities[r.IntN(len(cities))],
		})
	}
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	id := 1000
	for day := start; day.Year() == 2024; day = day.AddDate(0, 0, 1) {
		for range 2 {
			c := d.customers[r.IntN(len(d.customers))]
			p := products[r.IntN(len(products))]
			units := 1 + r.IntN(20)
			s := sale{OrderID: id, Date: day, Customer: c, CustomerID: c.ID, Region: c.Region, Product: p, Units: units, UnitPrice: prices[p], Revenue: float64(units) * prices[p]}
			d.sales = append(d.sales, s)
			status := "paid"
			if r.IntN(10) == 0 {
				status = "refunded"
			}
			d.orders = append(d.orders, order{ID: id, CustomerID: c.ID, Date: day, Amount: s.Revenue, Status: status})
			id++
		}
	}
	for h := range 14 * 24 {
		t := start.Add(time.Duration(h) * time.Hour)
		for si, sensor := range []string{"s1", "s2"} {
			base := 20 + 3*float64(si) + 5*math.Sin(2*math.Pi*float64(h%24)/24) + float64(h/24)*0.2
			temp := math.Round((base+r.NormFloat64())*10) / 10
			d.readings = append(d.readings, reading{Time: t, Sensor: sensor, Temp: temp, Missing: sensor == "s1" && h%37 == 5})
		}
	}
	return d
}

// write writes the data files into dir: sales.csv, customers.csv,
// targets.csv, sensors.csv and shop.db.
func (d *data) write(dir string) error {
	var b strings.Builder
	b.WriteString("order_id,date,customer_id,region,product,units,unit_price,revenue\n")
	for _, s := range d.sales {
		fmt.Fprintf(&b, "%d,%s,%s,%s,%s,%d,%.2f,%.2f\n", s.OrderID, s.Date.Format("2006-01-02"), s.CustomerID, s.Region, s.Product, s.Units, s.UnitPrice, s.Revenue)
	}
	files := map[string]string{"sales.csv": b.String()}
	b.Reset()
	b.WriteString("customer_id,name,segment,region,city\n")
	for _, c := range d.customers {
		fmt.Fprintf(&b, "%s,%s,%s,%s,%s\n", c.ID, c.Name, c.Segment, c.Region, c.City)
	}
	files["customers.csv"] = b.String()
	b.Reset()
	b.WriteString("region,target_2024\n")
	for _, r := range regions {
		fmt.Fprintf(&b, "%s,%.0f\n", r, d.targets[r])
	}
	files["targets.csv"] = b.String()
	b.Reset()
	b.WriteString("timestamp,sensor,temperature\n")
	for _, rd := range d.readings {
		temp := fmt.Sprintf("%.1f", rd.Temp)
		if rd.Missing {
			temp = ""
		}
		fmt.Fprintf(&b, "%s,%s,%s\n", rd.Time.Format("2006-01-02 15:04"), rd.Sensor, temp)
	}
	files["sensors.csv"] = b.String()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			return err
		}
	}
	return d.writeDB(filepath.Join(dir, "shop.db"))
}

func (d *data) writeDB(path string) error {
	_ = os.Remove(path)
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, stmt := range []string{
		"CREATE TABLE customers (customer_id TEXT PRIMARY KEY, name TEXT, segment TEXT, city TEXT)",
		"CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id TEXT REFERENCES customers, order_date TEXT, amount REAL, status TEXT)",
	} {
		if _, err := tx.Exec(stmt); err != nil {
			return err
		}
	}
	for _, c := range d.customers {
		if _, err := tx.Exec("INSERT INTO customers VALUES (?, ?, ?, ?)", c.ID, c.Name, c.Segment, c.City); err != nil {
			return err
		}
	}
	for _, o := range d.orders {
		if _, err := tx.Exec("INSERT INTO orders VALUES (?, ?, ?, ?, ?)", o.ID, o.CustomerID, o.Date.Format("2006-01-02"), o.Amount, o.Status); err != nil {
			return err
		}
	}
	return tx.Commit()
}
