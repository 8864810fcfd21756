package prompt

import (
	"fmt"
	"strings"

	"github.com/cloudwego/eino/schema"
)

// Prompts of the conversational mode: the supervisor that routes each turn
// and the SQL analyst. Like the others (prompts.go) they hold no braces,
// and a change to them bumps PromptVersion.

const SupervisorText = `You are Sift, a data-analysis assistant talking with a person. For each new message, choose exactly one of these:

1. Transfer to an analyst. When the message asks for an analysis one of the analysts below can do, call transfer_to_agent with that analyst's name, and in the same reply write, as your message text, the request rewritten as one full, self-contained instruction. Resolve short follow-ups ("yes", "and for 2023?", "break it down by region") against the conversation so far: name the measure, the breakdown, the filters and the period, carrying over whatever the person did not change. "Yes" accepts the follow-up question or offer made in your last answer. The analyst sees only your rewritten request, not the conversation.
2. Ask the person. When the request is ambiguous in a way that changes the answer (which table, which measure, which period) and neither the conversation nor the data below settles it, reply with one short question that offers the likely choices, and call no tool. The person answers in the next message.
3. Answer yourself, calling no tool, when the message needs no new computation: a greeting, what you can do, what data is attached, or a question about an earlier answer in this conversation.
4. Decline politely, calling no tool, when the request is outside data analysis (poems, personal advice, general knowledge unrelated to the data): say in one or two sentences that you only analyse data, and what you could do with the data attached.

Never state a number that an analyst did not compute in this conversation.
` + LanguageRule

const SQLAnalystText = `You are Sift's SQL analyst. Answer one data request from the SQL databases described below, by writing and running read-only SQL.

How:
1. Find the tables and columns the request needs in the schema below. Call list_tables or describe_table only when the schema does not show enough (for example, the values a column takes).
2. Write one query in the database's dialect that computes the answer, and run it with sql_query. Aggregate in SQL (GROUP BY, SUM, COUNT) instead of reading raw rows.
3. When a query fails, read the error and its Hint (it names the nearest real columns and tables), fix the query and run it again. Never guess the same name twice.
4. Run the final query with save_as set to a short snake_case name, such as revenue_by_region, so its full result is saved as out/<name>.csv.
5. Call submit_answer with the direct answer and its numbers, up to five key findings with their numbers, the final SQL, the data_file (the out/<name>.csv the final query saved) and up to three follow-up questions the person may ask next.

Rules:
- Use only numbers the query results show; never invent one.
- Shape the final result for reading and charting: a label or date column first, then the measures, with clear aliases such as total_revenue or order_count. Sift draws the chart from that shape: a date column first gives a line chart, one category and one measure a bar or pie chart, two measures a scatter plot.
- Databases are read-only: never try to change data.
` + LanguageRule

// Supervisor is the supervisor's prompt: its instructions, the
// analysts it can transfer to, the data attached, then the conversation.
func Supervisor(analysts []Analyst, data string, conversation []*schema.Message) []*schema.Message {
	var b strings.Builder
	b.WriteString(SupervisorText)
	b.WriteString("\n\n## Analysts\n")
	for _, a := range analysts {
		fmt.Fprintf(&b, "- %s: %s\n", a.Name, a.Description)
	}
	if strings.TrimSpace(data) == "" {
		data = "(no data attached)"
	}
	b.WriteString("\n## Data attached\n" + strings.TrimSpace(data) + "\n")
	return append([]*schema.Message{schema.SystemMessage(strings.TrimSpace(b.String()))}, conversation...)
}

// Analyst names one analyst the supervisor can transfer to.
type Analyst struct {
	Name, Description string
}

// SQLAnalyst is the SQL analyst's prompt: instructions, dialect
// notes and schema, then the request with the earlier turns that ran SQL,
// so a follow-up can build on the last query.
//
// examples are SQL that answered earlier requests on the same databases
// (see memory.Examples), "" when there is none.
func SQLAnalyst(request, schemaText, notes, examples string, history []Turn) []*schema.Message {
	sys := SQLAnalystText
	if strings.TrimSpace(notes) != "" {
		sys += "\n\n## Dialect notes\n" + strings.TrimSpace(notes)
	}
	sys += "\n\n## Databases\n" + strings.TrimSpace(schemaText)
	if strings.TrimSpace(examples) != "" {
		sys += "\n\n## " + sqlExamplesTitle + "\n" + strings.TrimSpace(examples)
	}
	var b strings.Builder
	Section(&b, "Request", request)
	var earlier strings.Builder
	for _, t := range LastTurns(history, 2) {
		if t.SQL == "" {
			continue
		}
		fmt.Fprintf(&earlier, "Request: %s\nSQL:\n%s\nAnswer: %s\n\n", t.requestOrQuestion(), t.SQL, Shorten(t.Answer, 400))
	}
	Section(&b, "Earlier in this conversation", earlier.String())
	return []*schema.Message{schema.SystemMessage(sys), schema.UserMessage(strings.TrimSpace(b.String()))}
}

// sqlExamplesTitle heads the SQL that worked in earlier sessions on the
// same databases, in the SQL analyst's system message.
const sqlExamplesTitle = "SQL that worked before on these databases (examples from earlier sessions: reuse what fits the request, check it against the schema above)"

// History turns earlier turns into the conversation the supervisor
// reads: each question, and each answer with the SQL behind it and the
// follow-ups offered (so "yes" can accept one).
func History(turns []Turn) []*schema.Message {
	var out []*schema.Message
	for _, t := range turns {
		out = append(out, schema.UserMessage(t.Question))
		var b strings.Builder
		b.WriteString(Shorten(t.Answer, 1500))
		for _, f := range t.Findings {
			b.WriteString("\n- " + f)
		}
		if t.SQL != "" {
			b.WriteString("\n(" + t.Route + " ran: " + oneLineSQL(t.SQL) + ")")
		}
		if len(t.FollowUps) > 0 {
			b.WriteString("\nFollow-up questions offered: " + strings.Join(t.FollowUps, " | "))
		}
		out = append(out, schema.AssistantMessage(strings.TrimSpace(b.String()), nil))
	}
	return out
}

func oneLineSQL(s string) string {
	return Shorten(strings.Join(strings.Fields(s), " "), 600)
}

func LastTurns[T any](turns []T, n int) []T {
	if n > 0 && len(turns) > n {
		return turns[len(turns)-n:]
	}
	return turns
}

// Turn is what the conversation prompts show of one earlier turn (see
// agents.Turn, which the conversation records).
type Turn struct {
	Question, Request, Route, Answer, SQL string
	Findings, FollowUps                   []string
}

func (t Turn) requestOrQuestion() string {
	if t.Request != "" {
		return t.Request
	}
	return t.Question
}

// DataAnalystDescription is how the supervisor sees the plan-execute
// analyst.
const DataAnalystDescription = "Analyses the attached files (CSV, Excel, JSON, text) with Python, step by step: plans, runs code, re-plans and writes a report with tables and charts. Use it for files and for multi-step work."

// SQLAnalystDescription is how the supervisor sees the SQL analyst.
const SQLAnalystDescription = "Answers questions about the attached SQL databases by writing and running read-only SQL; returns the answer, the SQL, the result table and a chart."
