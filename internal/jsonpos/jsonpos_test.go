package jsonpos

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
)

type config struct {
	Model string `json:"model"`
}

func TestOfAndDescribe(t *testing.T) {
	decode := func(data string) error { var c config; return json.Unmarshal([]byte(data), &c) }
	tests := []struct {
		name      string
		data      string
		err       error
		line, col int
		ok        bool
	}{
		{name: "syntax error on line 3", data: "{\n  \"model\": \"x\",\n}", line: 3, col: 1, ok: true},
		{name: "type error", data: `{"model": 5}`, line: 1, col: 11, ok: true},
		{name: "type error on line 2, wrapped", data: "{\n\t\"model\": true}", line: 2, col: 14, ok: true},
		{name: "end of input after a newline", data: "{\n", line: 1, col: 2, ok: true},
		{name: "empty input", data: "", line: 1, col: 1, ok: true},
		{name: "no position", data: `{}`, err: errors.New("not a decoding error")},
		{name: "offset past the data", data: `{}`, err: &json.SyntaxError{Offset: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err
			if err == nil {
				err = decode(tt.data)
				if tt.name == "type error on line 2, wrapped" {
					err = fmt.Errorf("decode: %w", err)
				}
			}
			line, col, ok := Of([]byte(tt.data), err)
			if line != tt.line || col != tt.col || ok != tt.ok {
				t.Fatalf("Of(%q, %v) = %d, %d, %v; want %d, %d, %v", tt.data, err, line, col, ok, tt.line, tt.col, tt.ok)
			}
			want := err.Error()
			if tt.ok {
				want = fmt.Sprintf("line %d, column %d: %v", tt.line, tt.col, err)
			}
			if got := Describe([]byte(tt.data), err); got != want {
				t.Errorf("Describe = %q, want %q", got, want)
			}
		})
	}
}
