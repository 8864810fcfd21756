package tokens

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cloudwego/eino/schema"
)

func TestEncodingFor(t *testing.T) {
	tests := []struct {
		model string
		want  string
	}{
		{"gpt-4o", EncodingO200K},
		{"gpt-4o-mini-2024-07-18", EncodingO200K},
		{"gpt-4.1-nano", EncodingO200K},
		{"gpt-5", EncodingO200K},
		{"o3-mini", EncodingO200K},
		{"o4-mini", EncodingO200K},
		{"gpt-4", EncodingCL100K},
		{"gpt-4-0613", EncodingCL100K},
		{"gpt-4-turbo", EncodingCL100K},
		{"gpt-3.5-turbo", EncodingCL100K},
		{"GPT-4-0613", EncodingCL100K},
		{"openai/gpt-4-0613", EncodingCL100K},
		{"openrouter/openai/gpt-4o", EncodingO200K},
		{"deepseek-chat", EncodingO200K},
		{"qwen-plus", EncodingO200K},
		{"doubao-seed-1-6-250615", EncodingO200K},
		{"", EncodingO200K},
	}
	for _, tt := range tests {
		if got := EncodingFor(tt.model); got != tt.want {
			t.Errorf("EncodingFor(%q) = %s, want %s", tt.model, got, tt.want)
		}
	}
}

func TestCountTextSpecialTokenIsText(t *testing.T) {
	// tiktoken panics on special tokens unless told otherwise; a prompt
	// quoting one must be counted as text.
	if got := Text("gpt-4", "<|endoftext|>"); got <= 1 {
		t.Errorf("Text(<|endoftext|>) = %d, want it counted as several ordinary tokens", got)
	}
}

func TestCountText(t *testing.T) {
	tests := []struct {
		model, text string
		want        int
	}{
		{"gpt-4o", "", 0},
		{"gpt-4o", "hello world", 2},
		{"gpt-4", "hello world", 2},
		// The cookbook's example.
		{"gpt-4", "tiktoken is great!", 6},
	}
	for _, tt := range tests {
		if got := Text(tt.model, tt.text); got != tt.want {
			t.Errorf("Text(%q, %q) = %d, want %d", tt.model, tt.text, got, tt.want)
		}
	}
}

// cookbookMessages is the example of OpenAI's cookbook "How to count tokens
// with tiktoken", whose prompt OpenAI reports as 129 tokens for gpt-4-0613
// and 124 for gpt-4o.
var cookbookMessages = []*schema.Message{
	{Role: schema.System, Content: "You are a helpful, pattern-following assistant that translates corporate jargon into plain English."},
	{Role: schema.System, Name: "example_user", Content: "New synergies will help drive top-line growth."},
	{Role: schema.System, Name: "example_assistant", Content: "Things working well together will increase revenue."},
	{Role: schema.System, Name: "example_user", Content: "Let's circle back when we have more time to touch base on opportunities for increased leverage."},
	{Role: schema.System, Name: "example_assistant", Content: "Let's talk later when we're less busy about how to do better."},
	{Role: schema.User, Content: "This late pivot means we don't have time to boil the ocean for the client deliverable."},
}

func TestCountTokensMatchesOpenAI(t *testing.T) {
	tests := []struct {
		model string
		want  int
	}{
		{"gpt-4-0613", 129},
		{"gpt-3.5-turbo", 129},
		{"gpt-4o", 124},
		{"gpt-4o-mini", 124},
	}
	for _, tt := range tests {
		if got := Request(tt.model, cookbookMessages, nil); got != tt.want {
			t.Errorf("Request(%s, cookbook example) = %d, want %d", tt.model, got, tt.want)
		}
	}
}

func TestCountTokensParts(t *testing.T) {
	const m = "gpt-4o"
	user := schema.UserMessage("How many rows?")
	base := Request(m, []*schema.Message{user}, nil)
	if want := ReplyPrime + tokensPerMessage + Text(m, "user") + Text(m, "How many rows?"); base != want {
		t.Errorf("one user message = %d tokens, want %d", base, want)
	}

	call := &schema.Message{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{ID: "call_1", Function: schema.FunctionCall{Name: "run_python", Arguments: `{"code": "len(df)"}`}}}}
	result := schema.ToolMessage("1042", "call_1")
	withCall := Request(m, []*schema.Message{user, call, result}, nil)
	wantCall := tokensPerMessage + Text(m, "assistant") + tokensPerToolCall + Text(m, "run_python") + Text(m, `{"code": "len(df)"}`)
	wantResult := tokensPerMessage + Text(m, "tool") + Text(m, "1042") + Text(m, "call_1")
	if withCall != base+wantCall+wantResult {
		t.Errorf("with a tool exchange = %d tokens, want %d", withCall, base+wantCall+wantResult)
	}

	withTools := Request(m, []*schema.Message{user}, []*schema.ToolInfo{planTool, respondTool})
	if got := withTools - base; got != Tools(m, []*schema.ToolInfo{planTool, respondTool}) || got <= tokensToolsBlock+2*tokensPerTool {
		t.Errorf("tools added %d tokens, want Tools and more than the framing alone", got)
	}
	if Tools(m, nil) != 0 {
		t.Error("Tools(nil) != 0")
	}

	image := &schema.Message{Role: schema.User, UserInputMultiContent: []schema.MessageInputPart{
		{Type: schema.ChatMessagePartTypeText, Text: "What does this chart show?"},
		{Type: schema.ChatMessagePartTypeImageURL},
	}}
	if got, want := Message(m, image), tokensPerMessage+Text(m, "user")+Text(m, "What does this chart show?")+tokensPerImage; got != want {
		t.Errorf("multi-part message = %d tokens, want %d", got, want)
	}
	if Message(m, nil) != 0 {
		t.Error("Message(nil) != 0")
	}
}

func TestCountCacheGivesSameCounts(t *testing.T) {
	text := strings.Repeat("revenue by region, 北京 and 上海; ", 100)
	counted.reset()
	cold := Text("gpt-4o", text)
	warm := Text("gpt-4o", text)
	other := Text("gpt-4", text)
	if cold != warm {
		t.Errorf("cached count %d != first count %d", warm, cold)
	}
	if other == cold {
		t.Errorf("cl100k count equals o200k count (%d): the cache must key on the encoding", other)
	}
	if _, ok := counted.get(EncodingO200K, text); !ok {
		t.Error("the text was not cached")
	}
	huge := strings.Repeat("x", cacheMaxBytes/4)
	counted.put(EncodingO200K, huge, 1)
	if _, ok := counted.get(EncodingO200K, huge); ok {
		t.Error("a text of a quarter of the cache's bound was cached")
	}
}

func TestCountReply(t *testing.T) {
	const m = "gpt-4o"
	reply := &schema.Message{Role: schema.Assistant, Content: "Done.", ReasoningContent: "Let me think.",
		ToolCalls: []schema.ToolCall{{Function: schema.FunctionCall{Name: "f", Arguments: "{}"}}}}
	want := Text(m, "Done.") + Text(m, "Let me think.") + tokensPerToolCall + Text(m, "f") + Text(m, "{}")
	if got := Reply(m, reply); got != want {
		t.Errorf("Reply = %d, want %d", got, want)
	}
	if Reply(m, nil) != 0 {
		t.Error("Reply(nil) != 0")
	}
}

// prompt50KB is a 50 KB data-analysis prompt: a system message, a preview
// of mixed English and Chinese rows, and tool exchanges.
func prompt50KB() []*schema.Message {
	var rows strings.Builder
	for i := 0; rows.Len() < 40_000; i++ {
		fmt.Fprintf(&rows, "%d,2024-%02d-%02d,北京,product-%d,%d.%02d\n", i, i%12+1, i%28+1, i%97, i*37%1000, i%100)
	}
	msgs := []*schema.Message{
		schema.SystemMessage(strings.Repeat("You are a careful data analyst. Answer with numbers and cite the cells you used. ", 20)),
		schema.UserMessage("Which region sells best?\n## Data\n" + rows.String()),
	}
	for i := 0; i < 10; i++ {
		id := fmt.Sprintf("call_%d", i)
		msgs = append(msgs,
			&schema.Message{Role: schema.Assistant, ToolCalls: []schema.ToolCall{{ID: id, Function: schema.FunctionCall{Name: "run_python", Arguments: fmt.Sprintf(`{"code": "df.groupby('region')['sales'].sum().nlargest(%d)"}`, i+3)}}}},
			schema.ToolMessage(strings.Repeat(fmt.Sprintf("region_%d    %d\n", i, i*1234), 30), id))
	}
	return msgs
}

// BenchmarkCountTokens50KB counts a 50 KB prompt: "cold" with the count
// cache emptied each time (the tokenizer's own speed), "cached" as on the
// second and later calls of a conversation.
func BenchmarkCountTokens50KB(b *testing.B) {
	msgs := prompt50KB()
	size := 0
	for _, m := range msgs {
		size += len(m.Content)
		for _, tc := range m.ToolCalls {
			size += len(tc.Function.Arguments)
		}
	}
	tools := []*schema.ToolInfo{planTool, respondTool}
	Request("gpt-4o", msgs, tools) // load the encoder
	b.Run("cold", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for range b.N {
			counted.reset()
			Request("gpt-4o", msgs, tools)
		}
	})
	b.Run("cached", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for range b.N {
			Request("gpt-4o", msgs, tools)
		}
	})
}

func TestCountTextLongRuns(t *testing.T) {
	enc, err := encoders[EncodingO200K].get()
	if err != nil {
		t.Fatal(err)
	}
	// Texts with no run longer than maxRun are encoded whole: exact.
	normal := strings.Repeat("Revenue rose 12% in Q3; see sales.csv. ", 200)
	if got, want := encodeCount(enc, normal), len(enc.EncodeOrdinary(normal)); got != want {
		t.Errorf("encodeCount(normal text) = %d, want the exact %d", got, want)
	}
	// A long run (a base64 blob in a tool's output) is counted in chunks:
	// fast, and close to the exact count.
	blob := strings.Repeat("iVBORw0KGgoAAAANSUhEUgAAAoAAAAHgCAYAAAA10dzk", 100) // 4.4 KB, no spaces
	text := "Here is the figure: " + blob + " and the end."
	got := encodeCount(enc, text)
	exact := len(enc.EncodeOrdinary(text))
	chunks := len(blob)/maxRun + 1
	if got < exact || got > exact+chunks {
		t.Errorf("encodeCount(text with a blob) = %d, want between the exact %d and %d", got, exact, exact+chunks)
	}
	// Multi-byte runes are not cut in half.
	han := strings.Repeat("数据分析", 300) // 3.6 KB of 3-byte runes, no spaces
	if got := encodeCount(enc, han); got < len(enc.EncodeOrdinary(han)) {
		t.Errorf("encodeCount(Chinese run) = %d, below the exact %d", got, len(enc.EncodeOrdinary(han)))
	}
}

// BenchmarkCountTextLongRun counts a 1 MB run without whitespace (say, a
// base64 image in a tool's output), which whole would take minutes.
func BenchmarkCountTextLongRun(b *testing.B) {
	blob := strings.Repeat("iVBORw0KGgoAAAANSUhEUgAAAoAAAAHgCAYAAAA10dzk", 1<<20/44)
	Text("gpt-4o", "warm up")
	b.SetBytes(int64(len(blob)))
	for range b.N {
		counted.reset()
		Text("gpt-4o", blob)
	}
}
