package llm

import (
	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/llm/tokens"
)

// Tokenizer encodings used by [CountText] and [CountTokens] (see package
// llm/tokens, which does the counting).
const (
	// EncodingO200K is the encoding of gpt-4o, gpt-4.1, gpt-4.5, gpt-5 and
	// the o-series reasoning models, and the fallback for unknown models.
	EncodingO200K = tokens.EncodingO200K
	// EncodingCL100K is the encoding of gpt-4 and gpt-3.5-turbo.
	EncodingCL100K = tokens.EncodingCL100K
)

// tokensReplyPrime is the priming of every reply, counted once a request.
const tokensReplyPrime = tokens.ReplyPrime

// EncodingFor returns the tokenizer encoding used to count tokens for a
// model (see [tokens.EncodingFor]).
func EncodingFor(modelName string) string { return tokens.EncodingFor(modelName) }

// CountText returns the number of tokens s encodes to for modelName (see
// [tokens.Text]).
func CountText(modelName, s string) int { return tokens.Text(modelName, s) }

// CountMessage returns the prompt tokens one message costs for modelName
// (see [tokens.Message]).
func CountMessage(modelName string, m *schema.Message) int { return tokens.Message(modelName, m) }

// CountTools returns the prompt tokens the tool definitions cost for
// modelName (see [tokens.Tools]).
func CountTools(modelName string, tools []*schema.ToolInfo) int {
	return tokens.Tools(modelName, tools)
}

// CountTokens estimates the prompt tokens of a chat request to modelName:
// messages, tool definitions and the priming of the reply (see
// [tokens.Request]).
func CountTokens(modelName string, msgs []*schema.Message, tools []*schema.ToolInfo) int {
	return tokens.Request(modelName, msgs, tools)
}
