package templates

import (
	"encoding/json"
	"os/exec"
	"sort"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode/utf32"
)

// TestSingleByteCodecsDecodeAsPython: every name the engine transcodes
// is one Python's codecs know, and every byte of a single-byte codec
// decodes to what Python decodes it to, or fails where Python fails
// (x/text leaves ISO 8859's C1 controls undefined, and its KOI8-U and
// cp1255 differ from Python's in a few bytes).
func TestSingleByteCodecsDecodeAsPython(t *testing.T) {
	py := pythonOrSkip(t)
	var names []string
	for n := range duckCodecs {
		names = append(names, n)
	}
	sort.Strings(names)
	js, _ := json.Marshal(names)
	out, err := exec.Command(py, "-c", `
import codecs, json, sys
res = {}
for n in json.loads(sys.argv[1]):
    try:
        codecs.lookup(n)
    except LookupError:
        res[n] = None
        continue
    t = []
    for b in range(256):
        try:
            t.append(ord(bytes([b]).decode(n)))
        except UnicodeDecodeError:
            t.append(-1)
        except TypeError:
            t.append(-2)  # a multi-byte codec
    res[n] = t
print(json.dumps(res))`, string(js)).Output()
	if err != nil {
		t.Fatal(err)
	}
	var want map[string][]int
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	singles := 0
	for _, n := range names {
		if want[n] == nil {
			t.Errorf("%s: Python has no such codec", n)
			continue
		}
		bt, ok := duckCodecs[n].(*byteTable)
		if !ok {
			continue
		}
		singles++
		dec := bt.NewDecoder()
		for b := 0; b < 256; b++ {
			got, err := dec.Bytes([]byte{byte(b)})
			r := -1
			if err == nil {
				if rs := []rune(string(got)); len(rs) == 1 && rs[0] != 0xFFFD {
					r = int(rs[0])
				}
			}
			if r != want[n][b] {
				t.Errorf("%s: byte %#x decodes to %U, Python's to %U", n, b, r, want[n][b])
			}
		}
	}
	if singles < 40 {
		t.Errorf("only %d names of single-byte codecs", singles)
	}
}

// TestPyCodecKey: names are looked up as Python normalises them.
func TestPyCodecKey(t *testing.T) {
	for in, want := range map[string]string{"Mac-Roman": "mac_roman", " mac roman ": "mac_roman", "ISO-8859-1": "iso_8859_1", "UTF-16LE": "utf_16le", "latin--1": "latin_1"} {
		if got := pyCodecKey(in); got != want {
			t.Errorf("pyCodecKey(%q) = %q, want %q", in, got, want)
		}
	}
	if e, ok := duckCodec("MacRoman"); !ok || e.(*byteTable).enc != charmap.Macintosh {
		t.Errorf("MacRoman: %v, %v", e, ok)
	}
}

// TestLegacyCodecsRunOnDuckDB: a file in mac-roman (or another legacy
// single-byte codec, or UTF-32), named as pandas is given it, ran on
// pandas; it is transcoded in Go now, and DuckDB gives pandas' numbers.
func TestLegacyCodecsRunOnDuckDB(t *testing.T) {
	pythonOrSkip(t)
	text := "région,ville,montant\n"
	for i := 0; i < 40; i++ {
		text += []string{"Île-de-France", "Rhône-Alpes", "Bretagne", "Midi-Pyrénées"}[[]int{0, 0, 0, 0, 1, 1, 1, 2, 2, 3}[i%10]] + "," + []string{"Orléans", "Besançon", "Nîmes", "Orléans"}[i%4] + "," + ftoa(float64(i*37%101)+0.25) + "\n"
	}
	cases := []struct {
		codec string
		cm    encoding.Encoding
	}{{"mac_roman", charmap.Macintosh}, {"cp850", charmap.CodePage850}, {"iso-8859-15", charmap.ISO8859_15},
		{"utf-32", utf32.UTF32(utf32.LittleEndian, utf32.ExpectBOM)}, {"UTF-32BE", utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM)}}
	files := map[string][]byte{}
	for _, c := range cases {
		b, err := c.cm.NewEncoder().Bytes([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		files[c.codec+".csv"] = b
	}
	op := workspace(t, files)
	for _, c := range cases {
		for _, m := range []Match{
			{Template: TopN, Params: Params{Encoding: c.codec, Category: "région", Measure: "montant"}},
			{Template: Profile, Params: Params{Encoding: c.codec}},
		} {
			t.Run(c.codec+"/"+m.Template, func(t *testing.T) {
				sameAsPandas(t, op, "input/"+c.codec+".csv", m)
				r, err := Run(t.Context(), op, "input/"+c.codec+".csv", m)
				if err != nil {
					t.Fatal(err)
				}
				if r.Engine != EngineDuckDB {
					t.Errorf("engine = %s, want duckdb", r.Engine)
				}
			})
		}
	}
}
