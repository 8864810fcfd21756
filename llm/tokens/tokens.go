// Package tokens counts the tokens of chat requests offline, with the BPE
// tokenizers of OpenAI's models compiled in: what a provider would bill for
// a request's messages and tool definitions. Sift's model decorator uses it
// to estimate usage a provider did not report and to fit history into a
// window, and the scripted model uses it to report the usage a provider
// would, so that benchmarks show honest figures.
package tokens

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/cloudwego/eino/schema"
	"github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"
)

// Tokenizer encodings used by [Text] and [Request]. Their BPE
// ranks are compiled into the binary (github.com/pkoukk/tiktoken-go-loader),
// so counting never downloads anything.
const (
	// EncodingO200K is the encoding of gpt-4o, gpt-4.1, gpt-4.5, gpt-5 and
	// the o-series reasoning models, and the fallback for unknown models.
	EncodingO200K = "o200k_base"
	// EncodingCL100K is the encoding of gpt-4 and gpt-3.5-turbo.
	EncodingCL100K = "cl100k_base"
)

// Per-message overheads, as OpenAI counts them for its chat format
// (openai-cookbook, "How to count tokens with tiktoken"): every message is
// wrapped in <|start|>{role/name}\n{content}<|end|>, and every reply is
// primed with <|start|>assistant<|message|>.
const (
	tokensPerMessage = 3
	tokensPerName    = 1
	ReplyPrime       = 3
	// tokensPerToolCall covers a tool call's id, type and framing. OpenAI
	// does not document it; this is an estimate.
	tokensPerToolCall = 3
	// tokensPerTool and tokensToolsBlock cover the framing OpenAI adds when
	// it renders tool definitions into the prompt (a TypeScript-like
	// namespace). OpenAI does not document them; these are estimates.
	tokensPerTool    = 8
	tokensToolsBlock = 12
	// tokensPerImage is a low-detail image; high-detail images cost more,
	// depending on their size, which is not known here.
	tokensPerImage = 85
)

// encoders holds one lazily built encoder per encoding; building one parses
// a few MB of embedded ranks, so it is done once per process.
var encoders = map[string]*lazyEncoder{
	EncodingO200K:  {name: EncodingO200K},
	EncodingCL100K: {name: EncodingCL100K},
}

// lazyEncoder builds its encoder on first use.
type lazyEncoder struct {
	name string
	once sync.Once
	enc  *tiktoken.Tiktoken
	err  error
}

func (l *lazyEncoder) get() (*tiktoken.Tiktoken, error) {
	l.once.Do(func() {
		tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader())
		l.enc, l.err = tiktoken.GetEncoding(l.name)
	})
	return l.enc, l.err
}

// NormalModelName lowercases a model name and drops any provider prefix:
// "OpenAI/GPT-4o" is "gpt-4o".
func NormalModelName(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// cl100kPrefixes are the model families that use cl100k_base. Everything
// else — gpt-4o, gpt-4.1, gpt-4.5, gpt-5, o1/o3/o4, and every non-OpenAI
// model — is counted with o200k_base.
var cl100kPrefixes = []string{"gpt-4-", "gpt-3.5", "gpt-35", "text-embedding-3", "text-embedding-ada"}

// EncodingFor returns the tokenizer encoding used to count tokens for a
// model. The name is matched case-insensitively after any provider prefix
// ("openai/gpt-4o" is gpt-4o). gpt-4 and gpt-3.5 models use cl100k_base;
// all others use o200k_base. For models that are not OpenAI's (DeepSeek,
// Qwen, Doubao, Llama, ...) the count is an approximation: their own
// tokenizers are not bundled, and o200k_base, a large modern vocabulary
// that encodes Chinese and code efficiently, comes closest to them.
func EncodingFor(modelName string) string {
	name := NormalModelName(modelName)
	if name == "gpt-4" {
		return EncodingCL100K
	}
	for _, p := range cl100kPrefixes {
		if strings.HasPrefix(name, p) {
			return EncodingCL100K
		}
	}
	return EncodingO200K
}

// Text returns the number of tokens s encodes to for modelName (see
// [EncodingFor]). Special-token text such as "<|endoftext|>" is counted as
// ordinary text. Should the embedded encoder fail to load, it falls back to
// one token per four bytes.
func Text(modelName, s string) int {
	if s == "" {
		return 0
	}
	return countWith(EncodingFor(modelName), s)
}

func countWith(encoding, s string) int {
	if s == "" {
		return 0
	}
	if encoding == encodingBytes {
		return len(s)
	}
	if n, ok := counted.get(encoding, s); ok {
		return n
	}
	enc, err := encoders[encoding].get()
	if err != nil {
		return (len(s) + 3) / 4
	}
	n := encodeCount(enc, s)
	counted.put(encoding, s, n)
	return n
}

// maxRun bounds the pieces given to the BPE merge, whose time grows with
// the square of a piece's length: a 100 KB base64 blob or line of dashes
// in a tool's output would otherwise take minutes to count.
const maxRun = 512

// encodeCount counts the tokens of s. Pieces of the pre-tokenizer never
// span a change between whitespace and other characters, so s is encoded
// whole unless it holds a run of either longer than maxRun bytes; such a
// run is counted in maxRun-byte chunks, which can count about one token
// more per chunk than encoding it whole would.
func encodeCount(enc *tiktoken.Tiktoken, s string) int {
	n, start := 0, 0
	runStart, runSpace := 0, false
	flush := func(end int) {
		if end-runStart <= maxRun {
			return
		}
		n += len(enc.EncodeOrdinary(s[start:runStart]))
		run := s[runStart:end]
		for len(run) > 0 {
			cut := min(maxRun, len(run))
			for cut < len(run) && !utf8.RuneStart(run[cut]) {
				cut++
			}
			n += len(enc.EncodeOrdinary(run[:cut]))
			run = run[cut:]
		}
		start = end
	}
	for i, r := range s {
		space := unicode.IsSpace(r)
		if i == 0 {
			runSpace = space
			continue
		}
		if space != runSpace {
			flush(i)
			runStart, runSpace = i, space
		}
	}
	flush(len(s))
	return n + len(enc.EncodeOrdinary(s[start:]))
}

// Bounds of the count cache.
const (
	// cacheMaxBytes bounds the memory the cache keeps alive (texts plus
	// cacheEntryBytes each); when it would be exceeded the cache starts
	// over.
	cacheMaxBytes = 64 << 20
	// cacheEntryBytes is the assumed overhead of one entry.
	cacheEntryBytes = 64
)

// counted remembers the counts of texts. A conversation is counted again
// on every model call (to estimate usage or fit a window) and all but its
// newest messages were counted before; BPE encoding runs at well under
// 1 MB/s, so this turns the cost of a call into that of its new messages.
// Short texts are remembered too: each encoding pass has a fixed cost of
// some microseconds.
var counted = &countCache{}

// countCache maps (encoding, text) to a token count; safe for concurrent use.
type countCache struct {
	mu    sync.Mutex
	m     map[countKey]int
	bytes int
}

type countKey struct{ encoding, text string }

func (c *countCache) get(encoding, s string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.m[countKey{encoding, s}]
	return n, ok
}

func (c *countCache) put(encoding, s string, n int) {
	size := len(s) + cacheEntryBytes
	if size > cacheMaxBytes/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || c.bytes+size > cacheMaxBytes {
		c.m = make(map[countKey]int)
		c.bytes = 0
	}
	c.m[countKey{encoding, s}] = n
	c.bytes += size
}

// reset empties the cache.
func (c *countCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m, c.bytes = nil, 0
}

// Message returns the prompt tokens one message costs for modelName,
// counted as OpenAI does: a fixed overhead per message and per name, the
// role, the text (Content and the text parts of multi-part content; images
// as low-detail images), tool calls (name and arguments) and the tool call
// ID a tool result answers. Reasoning content is not counted: providers do
// not take it back as input.
func Message(modelName string, m *schema.Message) int {
	return sum(messageSegments(EncodingFor(modelName), m, nil))
}

// Tools returns the prompt tokens the tool definitions cost for
// modelName: each tool's name, description and JSON-schema parameters, as
// an OpenAI-compatible client serialises them, plus an estimated framing
// overhead. It is 0 without tools.
func Tools(modelName string, tools []*schema.ToolInfo) int {
	return sum(toolSegments(EncodingFor(modelName), tools, nil))
}

// Request estimates the prompt tokens of a chat request to modelName:
// every message (see [Message]), the tool definitions (see
// [Tools]) and the priming of the reply. For OpenAI models without
// tools it matches the count OpenAI reports; with tools, and for other
// providers' models, it is an estimate (see [EncodingFor]).
func Request(modelName string, msgs []*schema.Message, tools []*schema.ToolInfo) int {
	return sum(Segments(modelName, msgs, tools))
}

// encodingBytes counts a text's bytes instead of its tokens: every token
// of a byte-level BPE covers at least one byte, so no encoding counts more.
const encodingBytes = "bytes"

// RequestAtMost bounds what [Request] returns, without a tokenizer: each
// text counts as many tokens as it has bytes. It costs a few microseconds
// where the first exact count loads an encoder (about a second of CPU), so
// a caller that only asks "does this fit?" can skip counting when the
// bound fits.
func RequestAtMost(msgs []*schema.Message, tools []*schema.ToolInfo) int {
	segs := toolSegments(encodingBytes, tools, nil)
	for _, m := range msgs {
		segs = messageSegments(encodingBytes, m, segs)
	}
	return sum(segs) + ReplyPrime
}

// Reply estimates the completion tokens of a reply: its text, its
// reasoning and its tool calls, without per-message framing.
func Reply(modelName string, m *schema.Message) int {
	if m == nil {
		return 0
	}
	encoding := EncodingFor(modelName)
	n := countWith(encoding, m.Content) + countWith(encoding, m.ReasoningContent)
	for _, tc := range m.ToolCalls {
		n += tokensPerToolCall + countWith(encoding, tc.Function.Name) + countWith(encoding, tc.Function.Arguments)
	}
	return n
}
