package tools

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestRepairArguments(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{name: "valid unchanged", in: `{"path": "input/a.csv"}`, want: `{"path": "input/a.csv"}`},
		{name: "empty", in: "  ", want: "{}"},
		{name: "single quotes", in: `{'path': 'input/a.csv'}`, want: `{"path": "input/a.csv"}`},
		{name: "unquoted keys and trailing comma", in: `{path: "a", count: 2,}`, want: `{"path": "a", "count": 2}`},
		{name: "markdown fence", in: "```json\n{\"path\": \"a\"}\n```", want: `{"path": "a"}`},
		{name: "truncated", in: `{"code": "print(1)`, want: `{"code": "print(1)"}`},
		{name: "python constants", in: `{"recursive": True, "dir": None}`, want: `{"recursive": true, "dir": null}`},
		{name: "not an object stays", in: `hello world`, want: `hello world`},
		{name: "unrepairable stays", in: `{"code": "print("hi")"}`, want: `{"code": "print("hi")"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := RepairArguments(context.Background(), "read_file", tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("RepairArguments(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestUnknownTool(t *testing.T) {
	handler := UnknownTool([]string{"read_file", "write_file", "python", "list_files", "edit_file", "preview"})
	const list = " Available tools: edit_file, list_files, preview, python, read_file, write_file."
	tests := []struct {
		name, want string
	}{
		{name: "read_fle", want: `Error: there is no tool "read_fle"; did you mean "read_file"?` + list},
		{name: "Read-File", want: `Error: there is no tool "Read-File"; did you mean "read_file"?` + list},
		{name: "python3", want: `Error: there is no tool "python3"; did you mean "python"?` + list},
		{name: "list", want: `Error: there is no tool "list"; did you mean "list_files"?` + list},
		{name: "run_python_code", want: `Error: there is no tool "run_python_code"; did you mean "python"?` + list},
		{name: "web_search", want: `Error: there is no tool "web_search".` + list},
		{name: "", want: `Error: there is no tool "".` + list},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := handler(context.Background(), tt.name, "{}")
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("reply (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"abc", "", 3}, {"kitten", "sitting", 3}, {"read_file", "read_fle", 1}, {"数据", "数值", 1},
	}
	for _, tt := range tests {
		if got := EditDistance([]rune(tt.a), []rune(tt.b)); got != tt.want {
			t.Errorf("EditDistance(%q, %q) = %d; want %d", tt.a, tt.b, got, tt.want)
		}
	}
}
