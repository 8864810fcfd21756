package web

import (
	"context"
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeProvider returns canned results and records the n it was asked for.
type fakeProvider struct {
	results []Result
	err     error
	asked   []int
}

func (f *fakeProvider) Name() string { return "fake" }

func (f *fakeProvider) Search(ctx context.Context, query string, n int) ([]Result, error) {
	f.asked = append(f.asked, n)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if f.err != nil {
		return nil, f.err
	}
	return f.results, nil
}

func TestSearchToolNilProvider(t *testing.T) {
	tl, err := SearchTool(nil)
	if err != nil {
		t.Fatalf("SearchTool(nil): %v", err)
	}
	got, err := tl.InvokableRun(context.Background(), `{"query":"anything"}`)
	if err != nil {
		t.Fatalf("InvokableRun: %v", err)
	}
	if diff := cmp.Diff(NotConfiguredReply, got); diff != "" {
		t.Errorf("reply (-want +got):\n%s", diff)
	}
	for _, v := range []string{EnvSearXNGURL, EnvTavilyKey, EnvBraveKey} {
		if !strings.Contains(got, v) {
			t.Errorf("reply does not name %s", v)
		}
	}
}

func TestSearchToolInfo(t *testing.T) {
	tl, err := SearchTool(&fakeProvider{})
	if err != nil {
		t.Fatal(err)
	}
	info, err := tl.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	js, err := info.ParamsOneOf.ToJSONSchema()
	if err != nil {
		t.Fatal(err)
	}
	var props []string
	for pair := js.Properties.Oldest(); pair != nil; pair = pair.Next() {
		props = append(props, pair.Key)
	}
	sort.Strings(props)
	if diff := cmp.Diff([]string{"max_results", "query"}, props); diff != "" {
		t.Errorf("parameters (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"query"}, js.Required); diff != "" {
		t.Errorf("required (-want +got):\n%s", diff)
	}
	if info.Name != SearchToolName {
		t.Errorf("name = %q, want %q", info.Name, SearchToolName)
	}
}

func TestSearchToolMaxResults(t *testing.T) {
	tests := []struct {
		args string
		want int
	}{
		{`{"query":"q"}`, DefaultMaxResults},
		{`{"query":"q","max_results":0}`, DefaultMaxResults},
		{`{"query":"q","max_results":-3}`, DefaultMaxResults},
		{`{"query":"q","max_results":3}`, 3},
		{`{"query":"q","max_results":10}`, 10},
		{`{"query":"q","max_results":50}`, MaxResultsLimit},
	}
	for _, tt := range tests {
		p := &fakeProvider{}
		tl, err := SearchTool(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tl.InvokableRun(context.Background(), tt.args); err != nil {
			t.Fatalf("InvokableRun(%s): %v", tt.args, err)
		}
		if diff := cmp.Diff([]int{tt.want}, p.asked); diff != "" {
			t.Errorf("%s: n asked (-want +got):\n%s", tt.args, diff)
		}
	}
}

func TestSearchToolReply(t *testing.T) {
	long := strings.Repeat("x", maxSnippetChars+50)
	tests := []struct {
		name    string
		p       *fakeProvider
		args    string
		want    string
		wantErr bool
	}{
		{
			name: "numbered list",
			p: &fakeProvider{results: []Result{
				{Title: "Go", URL: "https://go.dev/", Snippet: "The Go\n programming language."},
				{Title: "", URL: "https://example.org/", Snippet: ""},
			}},
			args: `{"query":"golang"}`,
			want: "Results for \"golang\" (fake):\n" +
				"1. Go\n   https://go.dev/\n   The Go programming language.\n" +
				"2. (untitled)\n   https://example.org/\n",
		},
		{
			name: "long snippet cut, extra results dropped",
			p: &fakeProvider{results: []Result{
				{Title: "A", URL: "https://a.example/", Snippet: long},
				{Title: "B", URL: "https://b.example/"},
			}},
			args: `{"query":"q","max_results":1}`,
			want: "Results for \"q\" (fake):\n1. A\n   https://a.example/\n   " + strings.Repeat("x", maxSnippetChars-1) + "…\n",
		},
		{
			name: "no results",
			p:    &fakeProvider{},
			args: `{"query":"zzz"}`,
			want: "No results for \"zzz\" (fake). Try other words.",
		},
		{
			name: "empty query",
			p:    &fakeProvider{},
			args: `{"query":"  "}`,
			want: "web_search needs a query: say what to search for.",
		},
		{
			name: "provider failure is a reply",
			p:    &fakeProvider{err: &StatusError{Provider: "fake", StatusCode: 401, Hint: "check FAKE_KEY"}},
			args: `{"query":"q"}`,
			want: "Web search failed: fake search: HTTP 401 Unauthorized: check FAKE_KEY. Try again, or tell the person if it keeps failing.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl, err := SearchTool(tt.p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := tl.InvokableRun(context.Background(), tt.args)
			if err != nil {
				t.Fatalf("InvokableRun: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("reply (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSearchToolCancelled(t *testing.T) {
	tl, err := SearchTool(&fakeProvider{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = tl.InvokableRun(ctx, `{"query":"q"}`)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want context.Canceled", err)
	}
}
