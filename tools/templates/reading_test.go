package templates

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sift-agent/sift/preview"
)

// previewFile writes data to name in a temporary directory and previews
// it as a session would, statistics included.
func previewFile(t testing.TB, name string, data []byte) *preview.FilePreview {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "input", name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	fp, err := preview.File(context.Background(), p, preview.Options{BaseDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	return fp
}

// weatherCSV is a small Seattle-weather-like table, 2012–2015.
func weatherCSV() []byte {
	var b strings.Builder
	b.WriteString("date,precipitation,temp_max,temp_min,wind,weather\n")
	kinds := []string{"drizzle", "rain", "sun", "snow", "fog"}
	for y := 2012; y <= 2015; y++ {
		for m := 1; m <= 12; m++ {
			for d := 1; d <= 28; d += 9 {
				k := (y + m + d) % 5
				fmt.Fprintf(&b, "%d-%02d-%02d,%.1f,%.1f,%.1f,%.1f,%s\n", y, m, d, float64((m*d+y)%7), 10+float64(m%7)+0.1*float64(d), float64(m%5), 2+0.3*float64(d%4), kinds[k])
			}
		}
	}
	return []byte(b.String())
}

func ohlcCSV() []byte {
	var b strings.Builder
	b.WriteString("date,symbol,open,high,low,close\n")
	for _, s := range []string{"AAPL", "MSFT", "GOOG", "AMZN", "IBM"} {
		for m := 1; m <= 12; m++ {
			fmt.Fprintf(&b, "2015-%02d-01,%s,%d,%d,%d,%d\n", m, s, 100+m, 110+m, 90+m, 105+m)
		}
	}
	return []byte(b.String())
}

func speciesCSV() []byte {
	var b strings.Builder
	b.WriteString("Species,Cost Repair,Cost Other,Cost Total $,Height\n")
	for i, s := range []string{"Gull", "Goose", "Hawk", "Owl"} {
		for k := 0; k < 5; k++ {
			fmt.Fprintf(&b, "%s,%d,%d,%d,%d\n", s, 10*i+k, 3*k, 10*i+4*k, 100+k)
		}
	}
	return []byte(b.String())
}

// BenchmarkUnderstand measures a parse once gse's dictionary is loaded.
func BenchmarkUnderstand(b *testing.B) {
	files := []*preview.FilePreview{previewFile(b, "seattle-weather.csv", weatherCSV())}
	Understand("每年的平均湿度", files) // loads the dictionary
	requests := []string{"annual average maximum temperature", "按天气类型统计平均风速", "which calendar month is wettest on average", "average humidity by month"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Understand(requests[i%len(requests)], files)
	}
}
