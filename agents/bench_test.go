package agents

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sift-agent/sift/agents/internal/tree"
	"github.com/sift-agent/sift/event"
	"github.com/sift-agent/sift/llm"
	"github.com/sift-agent/sift/llm/scripted"
	"github.com/sift-agent/sift/llm/tokens"
)

// benchPriceModel prices the scripted runs: list prices of a common model
// (see llm.DefaultPrices).
const benchPriceModel = "gpt-4.1-mini"

// bodyRecorder is a transport that keeps a copy of every request body the
// OpenAI-compatible client sends: what a provider would bill.
type bodyRecorder struct {
	next   http.RoundTripper
	mu     sync.Mutex
	bodies [][]byte
}

func (r *bodyRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		r.mu.Lock()
		r.bodies = append(r.bodies, b)
		r.mu.Unlock()
		req.Body = io.NopCloser(bytes.NewReader(b))
	}
	return r.next.RoundTrip(req)
}

// Roles of the requests of a plan-mode run, told by the tools they offer.
const (
	rolePlanner   = "planner"
	roleExecutor  = "executor"
	roleCode      = "code_agent"
	roleReplanner = "replanner"
	roleReport    = "report"
)

// billedRoles are the roles of a plan step, in the order the table shows them.
var billedRoles = []string{roleExecutor, roleCode, roleReplanner}

// roleOf tells which agent sent a request by the tools it offered: the
// replanner offers submit_result, the code agent python, the executor
// code_agent, the planner only create_plan; the report offers none.
func roleOf(s tokens.Sent) string {
	switch has := func(n string) bool { return slices.Contains(s.ToolNames, n) }; {
	case has(toolSubmitResult):
		return roleReplanner
	case has("python"):
		return roleCode
	case has(tree.NameCodeAgent):
		return roleExecutor
	case has(toolCreatePlan):
		return rolePlanner
	case len(s.ToolNames) == 0:
		return roleReport
	}
	return "other:" + strings.Join(s.ToolNames, ",")
}

// billed is a share of a run's requests, counted as sent.
type billed struct {
	calls, prompt, tools int
	perRole              map[string]int
}

func (b *billed) add(role string, s tokens.Sent) {
	if b.perRole == nil {
		b.perRole = map[string]int{}
	}
	b.calls++
	b.prompt += s.Total
	b.tools += s.Tools
	b.perRole[role] += s.Total
}

// merge adds o's requests to b.
func (b *billed) merge(o billed) {
	if b.perRole == nil {
		b.perRole = map[string]int{}
	}
	b.calls, b.prompt, b.tools = b.calls+o.calls, b.prompt+o.prompt, b.tools+o.tools
	for r, n := range o.perRole {
		b.perRole[r] += n
	}
}

// billedRun is one run's requests split into the planner's, each plan
// step's (its executor and code agent calls and the replanner call that
// closes it) and the report's.
type billedRun struct {
	planner, report billed
	steps           []billed
	total           billed
	// sent and cached are the run's prompt tokens as the scripted server
	// counted them and the part its simulated prefix cache served (see
	// scripted.CacheMinTokens).
	sent, cached int
}

// splitBilled counts each request body as sent and splits the run.
func splitBilled(tb testing.TB, bodies [][]byte) billedRun {
	var run billedRun
	var cur billed
	for i, body := range bodies {
		s, err := tokens.Body(body)
		if err != nil {
			tb.Fatalf("request %d: %v", i+1, err)
		}
		role := roleOf(s)
		run.total.add(role, s)
		switch role {
		case rolePlanner:
			if i == 0 {
				run.planner.add(role, s)
				continue
			}
		case roleReport:
			run.report.add(role, s)
			continue
		}
		if strings.HasPrefix(role, "other") {
			tb.Fatalf("request %d has no known role: %s", i+1, role)
		}
		cur.add(role, s)
		if role == roleReplanner {
			run.steps = append(run.steps, cur)
			cur = billed{}
		}
	}
	return run
}

// benchDataset is a data file and a plausible scripted 3-step analysis of it.
type benchDataset struct {
	name, question, answer string
	// write makes the file in dir and returns its path.
	write func(dir string) (string, error)
	// steps and codes are the plan's steps and the code that does each.
	steps, codes []string
	// files are the step files the answer cites.
	files []string
	// target bounds Sift's prompt tokens per plan step (issues 28 and
	// 38); 0 for none.
	target int
}

// script is the whole run: plan, three steps each through the code agent
// (python, then an answer that passes on what the code printed), replans,
// submit, report. With executor, the executor hands each step to the code
// agent; with classic, it also summarises each step itself after the code
// agent answered.
func (d benchDataset) script(executor, classic bool) []scripted.Reply {
	replies := []scripted.Reply{call(toolCreatePlan, steps(d.steps...))}
	for i := range d.steps {
		if executor || classic {
			replies = append(replies, call(tree.NameCodeAgent, map[string]string{"request": d.steps[i]}))
		}
		replies = append(replies,
			call("python", map[string]string{"code": d.codes[i]}),
			echoToolResult("Done. Output:\n"),
		)
		if classic {
			replies = append(replies, echoToolResult("Step result: "))
		}
		if i < len(d.steps)-1 {
			replies = append(replies, call(toolCreatePlan, steps(d.steps[i+1:]...)))
		}
	}
	return append(replies,
		call(toolSubmitResult, map[string]any{"answer": d.answer, "files": d.files}),
		text("# Report\n\n"+d.answer+" [step 2].\n"),
	)
}

// weatherCSV writes four years of daily weather (2021-2024: 1,461 rows ×
// 6 columns of dates, decimals and a category), made deterministically.
func weatherCSV(dir string) (string, error) {
	var sb strings.Builder
	sb.WriteString("date,precipitation,temp_max,temp_min,wind,weather\n")
	day := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	seed := uint32(2021)
	next := func() float64 { // a small LCG: the same file on every run
		seed = seed*1664525 + 1013904223
		return float64(seed>>8) / float64(1<<24)
	}
	kinds := []string{"sun", "rain", "drizzle", "fog", "snow"}
	for day.Year() < 2025 {
		season := -0.5 + float64(day.YearDay())/365.25
		warm := 1 - 4*season*season // 1 in July, 0 in January
		rain := max(0, next()*next()*30-8*warm)
		tmax := 6 + 20*warm + next()*6 - 3
		tmin := tmax - 4 - next()*6
		kind := kinds[0]
		switch {
		case rain > 0 && tmax < 3:
			kind = kinds[4]
		case rain > 5:
			kind = kinds[1]
		case rain > 0:
			kind = kinds[2]
		case next() < 0.1:
			kind = kinds[3]
		}
		fmt.Fprintf(&sb, "%s,%.1f,%.1f,%.1f,%.1f,%s\n", day.Format("2006-01-02"), rain, tmax, tmin, 0.5+next()*7, kind)
		day = day.AddDate(0, 0, 1)
	}
	p := filepath.Join(dir, "weather.csv")
	return p, os.WriteFile(p, []byte(sb.String()), 0o644)
}

// wideColumns is how many columns wideSurveyCSV writes.
const wideColumns = 44

// wideSurveyCSV writes 600 rows × 44 columns: an id, a date, a region, a
// segment and 40 numeric measures, made deterministically.
func wideSurveyCSV(dir string) (string, error) {
	var sb strings.Builder
	sb.WriteString("id,date,region,segment")
	for c := range wideColumns - 5 {
		fmt.Fprintf(&sb, ",score_%02d", c+1)
	}
	sb.WriteString(",revenue\n")
	regions := []string{"North", "South", "East", "West"}
	segments := []string{"consumer", "business", "public"}
	for r := range 600 {
		fmt.Fprintf(&sb, "%d,2024-%02d-%02d,%s,%s", 1000+r, r%12+1, r%28+1, regions[r%4], segments[r%3])
		base := 0.0
		for c := range wideColumns - 5 {
			v := float64((r*37+c*53)%997)/99.7 + float64(c%5)
			base += v * float64(c%3)
			fmt.Fprintf(&sb, ",%.2f", v)
		}
		fmt.Fprintf(&sb, ",%.2f\n", 100+base*1.5+float64(r%17))
	}
	p := filepath.Join(dir, "survey.csv")
	return p, os.WriteFile(p, []byte(sb.String()), 0o644)
}

// benchDatasets are the data the bench measures: the sales demo's small
// file, a numeric-heavy one (dates and decimals) and a wide one.
var benchDatasets = []benchDataset{
	{
		name: "sales", question: "Which region sells most?",
		answer: "North has the highest revenue (150).",
		write: func(dir string) (string, error) {
			p := filepath.Join(dir, "sales.csv")
			return p, os.WriteFile(p, []byte("date,region,revenue\n2024-01-05,North,100\n2024-01-20,South,70\n2024-02-03,North,50\n2024-02-10,East,30\n"), 0o644)
		},
		steps:  []string{stepLoad, stepRegion, stepMonth},
		codes:  []string{codeLoad, codeRegion, codeMonth},
		files:  []string{"out/by_region.csv"},
		target: 2000,
	},
	{
		name: "weather", question: "How did temperatures and rain change from 2021 to 2024?",
		answer: "Yearly mean highs and rain totals are in out/by_year.csv; rain is the most common wet-day type.",
		write:  weatherCSV,
		steps: []string{
			"Load input/weather.csv with parsed dates and save work/weather.pkl",
			"Mean temp_max, mean temp_min and total precipitation by year to out/by_year.csv with a line chart out/by_year.png",
			"Days and mean wind per weather type to out/by_weather.csv",
		},
		codes: []string{
			"import pandas as pd\ndf = pd.read_csv('input/weather.csv', parse_dates=['date'])\ndf.to_pickle('work/weather.pkl')\nprint(df.shape)\nprint(df.describe().round(2).to_string())",
			"import pandas as pd\nimport matplotlib.pyplot as plt\ndf = pd.read_pickle('work/weather.pkl')\ny = df.groupby(df.date.dt.year).agg(temp_max=('temp_max', 'mean'), temp_min=('temp_min', 'mean'), precipitation=('precipitation', 'sum')).round(2)\ny.to_csv('out/by_year.csv')\ny[['temp_max', 'temp_min']].plot(title='Mean temperature by year')\nplt.xlabel('year'); plt.ylabel('°C')\nplt.savefig('out/by_year.png')\nprint(y.to_string())",
			"import pandas as pd\ndf = pd.read_pickle('work/weather.pkl')\nw = df.groupby('weather').agg(days=('date', 'count'), wind=('wind', 'mean')).round(2).sort_values('days', ascending=False)\nw.to_csv('out/by_weather.csv')\nprint(w.to_string())",
		},
		files:  []string{"out/by_year.csv", "out/by_weather.csv"},
		target: 2000,
	},
	{
		name: "wide", question: "Which scores go with revenue, and how do regions differ?",
		answer: "The scores most correlated with revenue are in out/top_correlations.csv; regions differ little.",
		write:  wideSurveyCSV,
		steps: []string{
			"Load input/survey.csv with parsed dates and save work/survey.pkl",
			"Correlation of each score with revenue; the 10 strongest to out/top_correlations.csv",
			"Mean revenue and the 3 strongest scores per region to out/by_region.csv",
		},
		codes: []string{
			"import pandas as pd\ndf = pd.read_csv('input/survey.csv', parse_dates=['date'])\ndf.to_pickle('work/survey.pkl')\nprint(df.shape)",
			"import pandas as pd\ndf = pd.read_pickle('work/survey.pkl')\nc = df.filter(like='score_').corrwith(df.revenue).sort_values(key=abs, ascending=False).round(3)\nc.head(10).to_csv('out/top_correlations.csv')\nprint(c.head(10).to_string())",
			"import pandas as pd\ndf = pd.read_pickle('work/survey.pkl')\ntop = df.filter(like='score_').corrwith(df.revenue).abs().nlargest(3).index.tolist()\nr = df.groupby('region')[['revenue'] + top].mean().round(2)\nr.to_csv('out/by_region.csv')\nprint(r.to_string())",
		},
		files:  []string{"out/top_correlations.csv", "out/by_region.csv"},
		target: 2000,
	},
}

// billedSift builds a Sift whose model calls go through the real
// OpenAI-compatible client to a local server playing script, with every
// request body kept by rec.
func billedSift(b *testing.B, script *scripted.Script, rec *bodyRecorder, classic, search bool) *Sift {
	srv := scripted.NewServer(script)
	b.Cleanup(srv.Close)
	m, err := llm.New(context.Background(), llm.Endpoint{BaseURL: srv.URL + "/v1", APIKey: "test-key", Model: benchPriceModel},
		llm.WithTransport(rec), llm.WithSleep(func(context.Context, time.Duration) error { return nil }))
	if err != nil {
		b.Fatal(err)
	}
	cfg := Config{Models: Models{Default: m}, SessionsRoot: b.TempDir(), Python: pythonOrSkip(b), ClassicExecutor: classic, CodeTimeout: time.Minute}
	if search {
		cfg.Search = noSearch{}
	}
	s, err := New(cfg)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkCallsPerStep runs a scripted 3-step analysis of each of three
// files — the sales demo, four years of daily weather (dates and decimals)
// and a 44-column survey — in the classic layout (the executor delegates
// each step to the code agent and summarises its answer: 5 calls a step)
// and Sift's (each step goes straight to the code agent, whose answer is
// the step's result: 3 calls a step), every model call through the real
// OpenAI-compatible client to a local server; and once more in Sift's
// layout with a search provider, where the executor chooses each step's
// agent (4 calls a step). It counts the prompt tokens of each request body
// as sent (tokens.Body: messages, tool definitions and framing, o200k as
// gpt-4.1 bills them) and prints them per plan step and per agent, the
// layouts side by side. Sift's tokens per step above a dataset's target
// fail the bench.
//
//	go test ./agents -run '^$' -bench CallsPerStep -benchtime 1x -v
func BenchmarkCallsPerStep(b *testing.B) {
	const planSteps = 3
	price, ok := llm.DefaultPrices().Lookup(benchPriceModel)
	if !ok {
		b.Fatalf("no price for %s", benchPriceModel)
	}
	layouts := []struct {
		name            string
		classic, search bool
		// calls bounds the model calls of a step.
		calls int
	}{{"classic", true, false, 5}, {"sift", false, false, 3}, {"search", false, true, 4}}
	results := map[string]billedRun{}
	for _, d := range benchDatasets {
		for _, layout := range layouts {
			b.Run(d.name+"/"+layout.name, func(b *testing.B) {
				file, err := d.write(b.TempDir())
				if err != nil {
					b.Fatal(err)
				}
				var run billedRun
				for b.Loop() {
					script := scripted.New(d.script(layout.search, layout.classic)...)
					rec := &bodyRecorder{next: http.DefaultTransport}
					s := billedSift(b, script, rec, layout.classic, layout.search)
					var done event.Event
					for e := range s.Run(context.Background(), Request{Mode: ModePlan, Question: d.question, Files: []string{file}}) {
						done = e
					}
					if done.Err != nil {
						b.Fatalf("run failed: %v", done.Err)
					}
					if script.Remaining() != 0 {
						b.Fatalf("%d scripted replies unused", script.Remaining())
					}
					for _, f := range d.files {
						if _, err := os.Stat(filepath.Join(done.Path, f)); err != nil {
							b.Fatalf("the run did not write %s: %v", f, err)
						}
					}
					run = splitBilled(b, rec.bodies)
					for _, r := range script.Requests() {
						run.sent += r.PromptTokens
						run.cached += r.CachedTokens
					}
					if dir := os.Getenv("SIFT_BENCH_DUMP"); dir != "" {
						for i, body := range rec.bodies {
							if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%s-%02d.json", d.name, layout.name, i+1)), body, 0o644); err != nil {
								b.Fatal(err)
							}
						}
					}
				}
				if len(run.steps) != planSteps {
					b.Fatalf("found %d steps, want %d", len(run.steps), planSteps)
				}
				for i, st := range run.steps {
					if st.calls > layout.calls {
						b.Errorf("step %d took %d model calls; the %s layout takes at most %d", i+1, st.calls, layout.name, layout.calls)
					}
				}
				results[d.name+"/"+layout.name] = run
				var sum billed
				for _, st := range run.steps {
					sum.merge(st)
				}
				if layout.name == "sift" && d.target > 0 && sum.prompt/planSteps > d.target {
					b.Errorf("%d prompt tokens per step; the target is %d", sum.prompt/planSteps, d.target)
				}
				b.ReportMetric(float64(sum.calls)/planSteps, "calls/step")
				b.ReportMetric(float64(sum.prompt)/planSteps, "prompt-tokens/step")
				b.ReportMetric(float64(sum.tools)/planSteps, "tool-tokens/step")
				b.ReportMetric(float64(run.total.calls), "calls/run")
				b.ReportMetric(float64(run.total.prompt), "prompt-tokens/run")
				b.ReportMetric(float64(run.total.prompt)*price.Input/1e6, "input-$/run")
			})
		}
	}
	var t strings.Builder
	fmt.Fprintf(&t, "\nprompt tokens as sent (request bodies over HTTP, %s: messages, tool definitions, framing), per plan step and agent\n", tokens.EncodingFor(benchPriceModel))
	row := func(label string, c, s billed) {
		cell := func(x billed) string {
			return fmt.Sprintf("%5d %8d %10d %9d %6d %5d", x.calls, x.perRole[roleExecutor], x.perRole[roleCode], x.perRole[roleReplanner], x.prompt, x.tools)
		}
		fmt.Fprintf(&t, "%-9s | %s | %s\n", label, cell(c), cell(s))
	}
	for _, d := range benchDatasets {
		c, s := results[d.name+"/classic"], results[d.name+"/sift"]
		if len(c.steps) != planSteps || len(s.steps) != planSteps {
			continue
		}
		head := fmt.Sprintf("%5s %8s %10s %9s %6s %5s", "calls", roleExecutor, roleCode, roleReplanner, "total", "tools")
		fmt.Fprintf(&t, "\n%s (%s)\n%-9s | %-47s | %-47s\n%-9s | %s | %s\n", d.name, d.question, "", "classic", "sift", "step", head, head)
		fmt.Fprintf(&t, "%-9s | %5d %35d %5d | %5d %35d %5d\n", rolePlanner, c.planner.calls, c.planner.prompt, c.planner.tools, s.planner.calls, s.planner.prompt, s.planner.tools)
		var cs, ss billed
		for i := range planSteps {
			row(fmt.Sprint(i+1), c.steps[i], s.steps[i])
			cs.merge(c.steps[i])
			ss.merge(s.steps[i])
		}
		fmt.Fprintf(&t, "%-9s | %5d %35d %5d | %5d %35d %5d\n", roleReport, c.report.calls, c.report.prompt, c.report.tools, s.report.calls, s.report.prompt, s.report.tools)
		avg := func(x billed) billed {
			out := billed{calls: x.calls / planSteps, prompt: x.prompt / planSteps, tools: x.tools / planSteps, perRole: map[string]int{}}
			for _, r := range billedRoles {
				out.perRole[r] = x.perRole[r] / planSteps
			}
			return out
		}
		row("per step", avg(cs), avg(ss))
		fmt.Fprintf(&t, "%-9s | %5d %35d %5d | %5d %35d %5d\n", "run", c.total.calls, c.total.prompt, c.total.tools, s.total.calls, s.total.prompt, s.total.tools)
		if w := results[d.name+"/search"]; len(w.steps) == planSteps {
			var ws billed
			for _, st := range w.steps {
				ws.merge(st)
			}
			fmt.Fprintf(&t, "sift with a search provider (the executor picks each step's agent): %d calls, %d prompt tokens per step (executor %d, code_agent %d, replanner %d)\n",
				ws.calls/planSteps, ws.prompt/planSteps, ws.perRole[roleExecutor]/planSteps, ws.perRole[roleCode]/planSteps, ws.perRole[roleReplanner]/planSteps)
		}
		share := func(r billedRun) string {
			return fmt.Sprintf("%d of %d (%.0f%%)", r.cached, r.sent, 100*float64(r.cached)/float64(max(r.sent, 1)))
		}
		fmt.Fprintf(&t, "billed at the cached rate (OpenAI's rule: a request of at least %d tokens gets the longest prefix it shares with an earlier request of the same agent, in %d-token steps): classic %s, sift %s\n",
			scripted.CacheMinTokens, scripted.CacheIncrement, share(c), share(s))
		if d.target > 0 {
			fmt.Fprintf(&t, "target for sift: at most %d prompt tokens per step\n", d.target)
		}
	}
	b.Log(t.String())
}
