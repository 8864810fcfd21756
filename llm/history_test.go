package llm

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
	"github.com/google/go-cmp/cmp"
)

// charCount counts a message as its content length plus its tool calls'
// arguments, so tests can reason about budgets exactly.
func charCount(m *schema.Message) int {
	n := len(m.Content)
	for _, tc := range m.ToolCalls {
		n += len(tc.Function.Arguments)
	}
	return n
}

func callMsg(ids ...string) *schema.Message {
	m := &schema.Message{Role: schema.Assistant}
	for _, id := range ids {
		m.ToolCalls = append(m.ToolCalls, schema.ToolCall{ID: id, Function: schema.FunctionCall{Name: "run_python", Arguments: "1234"}})
	}
	return m
}

// names renders messages compactly: role initial and content.
func names(msgs []*schema.Message) []string {
	var out []string
	for _, m := range msgs {
		s := string(m.Role)[:1] + ":" + m.Content
		for _, tc := range m.ToolCalls {
			s += "[" + tc.ID + "]"
		}
		if m.ToolCallID != "" {
			s += "<" + m.ToolCallID + ">"
		}
		out = append(out, s)
	}
	return out
}

func TestTrimHistory(t *testing.T) {
	sys := schema.SystemMessage("SYS")          // 3
	task := schema.UserMessage("task-task")     // 9
	call := callMsg("c1", "c2")                 // 8
	r1 := schema.ToolMessage("r1r1", "c1")      // 4
	r2 := schema.ToolMessage("r2r2", "c2")      // 4
	reply := schema.AssistantMessage("ok", nil) // 2
	next := schema.UserMessage("more")          // 4
	orphan := schema.ToolMessage("lost", "gone")

	tests := []struct {
		name   string
		msgs   []*schema.Message
		budget int
		want   []string
	}{
		{"all fit", []*schema.Message{sys, task, call, r1, r2, reply, next}, 100,
			[]string{"s:SYS", "u:task-task", "a:[c1][c2]", "t:r1r1<c1>", "t:r2r2<c2>", "a:ok", "u:more"}},
		{"oldest dropped first", []*schema.Message{sys, task, call, r1, r2, reply, next}, 3 + 16 + 2 + 4,
			[]string{"s:SYS", "a:[c1][c2]", "t:r1r1<c1>", "t:r2r2<c2>", "a:ok", "u:more"}},
		{"a tool exchange is dropped whole", []*schema.Message{sys, task, call, r1, r2, reply, next}, 3 + 2 + 4 + 10,
			[]string{"s:SYS", "a:ok", "u:more"}},
		{"stops at the first exchange that does not fit", []*schema.Message{sys, task, call, r1, r2, schema.UserMessage("x"), next}, 3 + 1 + 4 + 10,
			[]string{"s:SYS", "u:x", "u:more"}},
		{"system kept even over budget, newest kept", []*schema.Message{sys, task, next}, 1,
			[]string{"s:SYS", "u:more"}},
		{"system in the middle kept in place", []*schema.Message{task, schema.SystemMessage("MID"), reply, next}, 3 + 6,
			[]string{"s:MID", "a:ok", "u:more"}},
		{"orphan result dropped", []*schema.Message{sys, orphan, task}, 100,
			[]string{"s:SYS", "u:task-task"}},
		{"result without ID joins the latest call", []*schema.Message{sys, task, callMsg("x"), {Role: schema.Tool, Content: "anon"}}, 3 + 8,
			[]string{"s:SYS", "a:[x]", "t:anon"}},
		{"unanswered call kept as it is", []*schema.Message{sys, task, callMsg("x")}, 100,
			[]string{"s:SYS", "u:task-task", "a:[x]"}},
		{"empty", nil, 10, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := TrimHistory(tt.msgs, tt.budget, charCount)
			if diff := cmp.Diff(tt.want, names(got)); diff != "" {
				t.Errorf("TrimHistory mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTrimHistoryReturnsInputWhenNothingDropped(t *testing.T) {
	msgs := []*schema.Message{schema.SystemMessage("s"), schema.UserMessage("u")}
	got := TrimHistory(msgs, 100, charCount)
	if &got[0] != &msgs[0] {
		t.Error("TrimHistory copied a history it did not trim")
	}
	if got := DropDuplicates(msgs); &got[0] != &msgs[0] {
		t.Error("DropDuplicates copied a history without repeats")
	}
}

func TestFitWindow(t *testing.T) {
	msgs := []*schema.Message{schema.SystemMessage("SYS"), schema.UserMessage("aaaaaaaaaa"), schema.UserMessage("bbbbbbbbbb")}
	// window 30 - reserve 10 - margin 4 = 16: SYS (3) + the newest (10).
	if diff := cmp.Diff([]string{"s:SYS", "u:bbbbbbbbbb"}, names(FitWindow(msgs, 30, 10, 4, charCount))); diff != "" {
		t.Errorf("FitWindow mismatch (-want +got):\n%s", diff)
	}
	if got := FitWindow(msgs, 10, 20, 0, charCount); len(got) != 2 {
		t.Errorf("FitWindow with a negative budget kept %d messages, want system and newest", len(got))
	}
}

func TestDropDuplicates(t *testing.T) {
	preview := "## sales.csv\nregion,sales"
	tests := []struct {
		name string
		msgs []*schema.Message
		want []string
	}{
		{"latest repeat kept",
			[]*schema.Message{schema.SystemMessage("S"), schema.UserMessage(preview), schema.AssistantMessage("a", nil), schema.UserMessage(preview)},
			[]string{"s:S", "a:a", "u:" + preview}},
		{"system repeats kept",
			[]*schema.Message{schema.SystemMessage("S"), schema.SystemMessage("S")},
			[]string{"s:S", "s:S"}},
		{"role matters",
			[]*schema.Message{schema.UserMessage("x"), schema.AssistantMessage("x", nil)},
			[]string{"u:x", "a:x"}},
		{"repeated exchange dropped whole",
			[]*schema.Message{callMsg("c"), schema.ToolMessage("r", "c"), schema.UserMessage("u"), callMsg("c"), schema.ToolMessage("r", "c")},
			[]string{"u:u", "a:[c]", "t:r<c>"}},
		{"same call, different result: both kept",
			[]*schema.Message{callMsg("c"), schema.ToolMessage("r1", "c"), callMsg("c"), schema.ToolMessage("r2", "c")},
			[]string{"a:[c]", "t:r1<c>", "a:[c]", "t:r2<c>"}},
		{"repeated result alone is not separated from its call",
			[]*schema.Message{callMsg("c"), schema.ToolMessage("r", "c"), schema.ToolMessage("r", "c")},
			[]string{"a:[c]", "t:r<c>", "t:r<c>"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, names(DropDuplicates(tt.msgs))); diff != "" {
				t.Errorf("DropDuplicates mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// randomConversation makes a conversation like an agent's: system messages
// (mostly first), user turns, assistant text, and tool exchanges with one to
// three calls whose results come in any order, some missing, some orphaned,
// some interleaved with the next call's results, plus exact repeats.
func randomConversation(r *rand.Rand) []*schema.Message {
	text := func() string { return strings.Repeat("x", r.IntN(40)) }
	var msgs []*schema.Message
	if r.IntN(4) > 0 {
		msgs = append(msgs, schema.SystemMessage("sys"+text()))
	}
	callN := 0
	var pending []*schema.Message // results not yet placed
	for range r.IntN(25) {
		switch k := r.IntN(10); {
		case k == 0:
			msgs = append(msgs, schema.SystemMessage("mid"+text()))
		case k <= 2:
			msgs = append(msgs, schema.UserMessage("u"+text()))
		case k == 3:
			msgs = append(msgs, schema.AssistantMessage("a"+text(), nil))
		case k == 4:
			msgs = append(msgs, schema.ToolMessage("orphan"+text(), fmt.Sprintf("none%d", r.IntN(3))))
		case k == 5 && len(msgs) > 0:
			cp := *msgs[r.IntN(len(msgs))] // exact repeat
			msgs = append(msgs, &cp)
		default:
			var ids []string
			for range 1 + r.IntN(3) {
				callN++
				ids = append(ids, fmt.Sprintf("c%d", callN))
			}
			msgs = append(msgs, callMsg(ids...))
			var results []*schema.Message
			for _, id := range ids {
				if r.IntN(8) > 0 { // sometimes a result is missing
					results = append(results, schema.ToolMessage("r"+text(), id))
				}
			}
			r.Shuffle(len(results), func(i, j int) { results[i], results[j] = results[j], results[i] })
			// Sometimes the previous call's results arrive late.
			msgs = append(msgs, pending...)
			pending = nil
			if r.IntN(5) == 0 {
				pending = results
			} else {
				msgs = append(msgs, results...)
			}
		}
	}
	return append(msgs, pending...)
}

// callOf returns the index of the latest message before i that made the
// call tool message i answers, or -1.
func callOf(msgs []*schema.Message, i int) int {
	id := msgs[i].ToolCallID
	for j := i - 1; j >= 0; j-- {
		for _, tc := range msgs[j].ToolCalls {
			if tc.ID == id {
				return j
			}
		}
	}
	return -1
}

// checkPairs fails when out separates a call from a result that in had:
// every result answering a call in in is kept exactly when its call is.
func checkPairs(t *testing.T, in, out []*schema.Message) {
	t.Helper()
	kept := map[*schema.Message]bool{}
	for _, m := range out {
		kept[m] = true
	}
	for i, m := range in {
		if m.Role != schema.Tool {
			continue
		}
		if c := callOf(in, i); c >= 0 && kept[m] != kept[in[c]] {
			t.Fatalf("result %q kept=%v but its call kept=%v\nin:  %v\nout: %v", m.Content, kept[m], kept[in[c]], names(in), names(out))
		}
	}
}

func TestTrimHistoryProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := range 3000 {
		in := randomConversation(r)
		budget := r.IntN(300)
		out := TrimHistory(in, budget, charCount)

		// Order kept: out is a subsequence of in.
		j := 0
		for _, m := range out {
			for j < len(in) && in[j] != m {
				j++
			}
			if j == len(in) {
				t.Fatalf("iteration %d: out is not a subsequence of in\nin:  %v\nout: %v", iter, names(in), names(out))
			}
			j++
		}
		// System messages kept.
		sysIn, sysOut, total := 0, 0, 0
		for _, m := range in {
			if m.Role == schema.System {
				sysIn++
			}
		}
		for _, m := range out {
			if m.Role == schema.System {
				sysOut++
			}
			total += charCount(m)
		}
		if sysIn != sysOut {
			t.Fatalf("iteration %d: %d system messages in, %d out", iter, sysIn, sysOut)
		}
		// Calls and results together; no result without its call.
		checkPairs(t, in, out)
		for i, m := range out {
			if m.Role == schema.Tool && callOf(out, i) < 0 {
				t.Fatalf("iteration %d: result %q kept without a call\nin:  %v\nout: %v", iter, m.Content, names(in), names(out))
			}
		}
		// Budget respected when the system messages and the newest
		// exchange fit.
		c := split(in, isSystem)
		floor := 0
		for _, i := range c.pinned {
			floor += charCount(in[i])
		}
		if n := len(c.exchanges); n > 0 {
			for _, i := range c.exchanges[n-1].idx {
				floor += charCount(in[i])
			}
		}
		if floor <= budget && total > budget {
			t.Fatalf("iteration %d: %d tokens kept, budget %d (floor %d)\nin:  %v\nout: %v", iter, total, budget, floor, names(in), names(out))
		}
		// The newest message that is not an orphan is always kept.
		if n := len(c.exchanges); n > 0 {
			last := c.exchanges[n-1].idx[0]
			found := false
			for _, m := range out {
				found = found || m == in[last]
			}
			if !found {
				t.Fatalf("iteration %d: newest exchange dropped\nin:  %v\nout: %v", iter, names(in), names(out))
			}
		}
		// Idempotent: trimming again changes nothing.
		if again := TrimHistory(out, budget, charCount); len(again) != len(out) {
			t.Fatalf("iteration %d: trimming twice dropped %d more", iter, len(out)-len(again))
		}
	}
}

func TestDropDuplicatesProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for iter := range 3000 {
		in := randomConversation(r)
		out := DropDuplicates(in)
		checkPairs(t, in, out)
		c := split(out, isSystem)
		seen := map[string]bool{}
		for _, ex := range c.exchanges {
			k := exchangeKey(out, ex)
			if seen[k] {
				t.Fatalf("iteration %d: repeat left in\nin:  %v\nout: %v", iter, names(in), names(out))
			}
			seen[k] = true
		}
		for _, m := range in {
			if m.Role == schema.System {
				found := false
				for _, o := range out {
					found = found || o == m
				}
				if !found {
					t.Fatalf("iteration %d: system message dropped", iter)
				}
			}
		}
	}
}
