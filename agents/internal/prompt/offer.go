package prompt

import (
	"strings"

	"github.com/sift-agent/sift/preview"
	"github.com/sift-agent/sift/tools/templates"
)

// Offer says which of the executor's optional tools a run leaves
// out: every tool definition is billed on every executor call, so a tool
// the run cannot use is not offered. It is decided once per run, from the
// question, the data and the configuration, so that the executor's tools
// (the start of its prompt) stay the same on every call of the run, as
// providers' prefix caches need. The zero value offers every tool.
type Offer struct {
	// NoWeb leaves out web_researcher: no search provider is configured
	// and the question names no web page to read.
	NoWeb bool
	// NoTemplates leaves out run_template and template_params: the
	// question asks for nothing a built-in analysis does on the data.
	NoTemplates bool
}

// OfferFor decides a run's offer. previews are the run's input files'
// previews, nil when they are not known (a resumed run): then every
// template tool stays, as before. template is the built-in analysis the
// person named, if any.
func OfferFor(question, template string, searchConfigured bool, previews []*preview.FilePreview) Offer {
	return Offer{
		NoWeb:       !searchConfigured && !namesWebPage(question),
		NoTemplates: previews != nil && template == "" && !templateCouldFit(question, previews),
	}
}

// namesWebPage reports whether text holds an http or https URL: a page
// web_fetch can read without a search provider.
func namesWebPage(text string) bool {
	return strings.Contains(text, "http://") || strings.Contains(text, "https://")
}

// templateCouldFit reports whether some built-in analysis could answer
// the question over the files: the question has the words of one (a
// candidate, even below the confidence the template path needs) and
// there is a table to run it on. A question that names a web page needs
// that page, which no built-in reads: its steps go to the code agent and
// the web researcher.
func templateCouldFit(question string, previews []*preview.FilePreview) bool {
	if namesWebPage(question) {
		return false
	}
	table := false
	for _, p := range previews {
		for _, s := range p.Sheets {
			table = table || len(s.Columns) > 0
		}
	}
	m := templates.MatchRequest(question, previews)
	// The grounded parse names the analysis it read (Reading.Analysis)
	// even when a word is left unplaced, and leaves Candidate empty then:
	// either says the question has a built-in's words.
	return table && (m.Candidate != "" || m.Reading.Analysis != "")
}

// prompt is the executor's prompt with the rules of the tools offered.
func (o Offer) Prompt() string {
	p := executorHead
	if !o.NoTemplates {
		p += executorTemplateRule
	}
	if !o.NoWeb {
		p += executorWebRule
	}
	return p + executorTail
}

// WebResearcher is the web researcher's agent (and tool) name.
const WebResearcher = "web_researcher"

// keeps reports whether the offer keeps the tool named name.
func (o Offer) Keeps(name string) bool {
	switch name {
	case WebResearcher:
		return !o.NoWeb
	case templates.ToolName, templates.ParamsToolName:
		return !o.NoTemplates
	}
	return true
}
