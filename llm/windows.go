package llm

import "strings"

// DefaultContextWindow is the context window assumed for a model the table
// of known windows does not name and no setting gives.
const DefaultContextWindow = 128000

// knownWindows are the context windows (in tokens) of common models, keyed
// by name prefix as in the price table: the longest prefix of a model's
// name wins. Small local models are listed at the window their servers
// use by default, which is what overflows when it is not known.
var knownWindows = map[string]int{
	"gpt-4o": 128000, "gpt-4.1": 1047576, "gpt-5": 400000, "o3": 200000, "o4-mini": 200000,
	"gpt-4-turbo": 128000, "gpt-4": 8192, "gpt-3.5-turbo": 16385,
	"deepseek-chat": 128000, "deepseek-reasoner": 128000, "deepseek-v3": 128000, "deepseek-r1": 128000,
	"qwen-turbo": 1000000, "qwen-plus": 131072, "qwen-max": 32768, "qwen-long": 10000000,
	"qwen2.5": 32768, "qwen3": 32768, "qwen2.5-coder": 32768,
	"doubao-seed-1-6": 256000, "doubao-1-5-pro-32k": 32768, "doubao-1-5-pro-256k": 256000, "doubao-1-5-lite-32k": 32768,
	"llama3.1": 131072, "llama3.2": 131072, "llama3": 8192, "llama2": 4096,
	"mistral": 32768, "mixtral": 32768, "gemma2": 8192, "gemma3": 131072, "phi3": 4096, "phi4": 16384,
	"glm-4": 128000, "moonshot-v1-8k": 8192, "moonshot-v1-32k": 32768, "moonshot-v1-128k": 131072, "kimi-k2": 131072,
}

// KnownContextWindow returns the context window of a model by name (a
// provider prefix such as "openai/" or an Ollama tag such as ":7b" is
// ignored), or 0 when the table does not know it.
func KnownContextWindow(model string) int {
	name := normalModelName(model)
	if i := strings.IndexByte(name, ':'); i >= 0 {
		name = name[:i]
	}
	best, window := "", 0
	for prefix, w := range knownWindows {
		if strings.HasPrefix(name, prefix) && (len(prefix) > len(best) || len(prefix) == len(best) && prefix < best) {
			best, window = prefix, w
		}
	}
	return window
}

// ContextWindowTokens returns the endpoint's context window: its own setting,
// else the known window of its model, else DefaultContextWindow.
func (e Endpoint) ContextWindowTokens() int {
	if e.ContextWindow != 0 {
		return e.ContextWindow
	}
	if w := KnownContextWindow(e.Model); w > 0 {
		return w
	}
	return DefaultContextWindow
}
