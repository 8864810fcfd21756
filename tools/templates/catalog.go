// Package templates holds Sift's built-in analyses: everyday requests
// ("profile this file", "monthly revenue trend", "top 10 customers by
// sales", "按地区统计销售额") that need no model. It has a catalog of
// templates, each one value in its own builtin_<name>.go (its slots, cues,
// inference, titles and hints) with a fixed Python cell (pandas and
// matplotlib, headless) embedded from py/; a deterministic matcher from a request and file
// previews to a template and its parameters; Run, which executes a template
// through an operator.Operator (the same provenance as agent code) and
// reads its exact numbers back; and a run_template tool for agents.
package templates

import (
	"embed"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// The template names.
const (
	Profile        = "profile"
	Trend          = "trend"
	TopN           = "topn"
	ComparePeriods = "compare_periods"
	Correlation    = "correlation"
	Distribution   = "distribution"
	Pivot          = "pivot"
	Outliers       = "outliers"
	Cohort         = "cohort"
	Funnel         = "funnel"
)

// ErrUnknownTemplate is wrapped when a template name is not in the catalog.
var ErrUnknownTemplate = errors.New("unknown template")

// Template describes one built-in analysis.
type Template struct {
	// Name is what selects it, e.g. "trend".
	Name string `json:"name"`
	// Title is a short human name, e.g. "Trend over time".
	Title string `json:"title"`
	// Description says what it computes and draws, in one or two sentences.
	Description string `json:"description"`
	// Params names the parameters it reads, each with what it means.
	Params []string `json:"params"`
	// Example is a request it answers.
	Example string `json:"example"`
	// cell is the file under py/ holding its Python.
	cell string
}

//go:embed py/*.py
var pyFiles embed.FS

// commonCell is the prelude every template cell starts with.
const commonCell = "py/common.py"

// Catalog lists the built-in templates in a stable order, for prompts and
// `sift templates`. The slice is a copy.
func Catalog() []Template {
	out := make([]Template, len(builtins))
	for i, b := range builtins {
		out[i] = b.Template
	}
	return out
}

// Lookup returns the template called name, or an error wrapping
// ErrUnknownTemplate that lists the known names.
func Lookup(name string) (Template, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	n = strings.NewReplacer("-", "_", " ", "_").Replace(n)
	for _, b := range builtins {
		if b.Name == n || slices.Contains(b.aliases, n) {
			return b.Template, nil
		}
	}
	return Template{}, fmt.Errorf("%w %q: use one of %s", ErrUnknownTemplate, name, strings.Join(Names(), ", "))
}

// Names lists the template names, sorted.
func Names() []string {
	names := make([]string, len(builtins))
	for i, b := range builtins {
		names[i] = b.Name
	}
	sort.Strings(names)
	return names
}

// CatalogText renders the catalog as a short plain-text list, one template
// per line with its parameters, for a model prompt.
func CatalogText() string {
	var b strings.Builder
	for _, t := range Catalog() {
		b.WriteString("- " + TemplateText(t) + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// TemplateText describes one template on a line: its name, what it does,
// its parameters and an example request.
func TemplateText(t Template) string {
	return fmt.Sprintf("%s: %s Params: %s. Example: %q", t.Name, t.Description, strings.Join(t.Params, "; "), t.Example)
}

// cellSource returns the prelude and the template's own Python.
func cellSource(t Template) (string, error) {
	common, err := pyFiles.ReadFile(commonCell)
	if err != nil {
		return "", fmt.Errorf("template %s: read embedded %s: %w", t.Name, commonCell, err)
	}
	body, err := pyFiles.ReadFile(t.cell)
	if err != nil {
		return "", fmt.Errorf("template %s: read embedded %s: %w", t.Name, t.cell, err)
	}
	return string(common) + "\n\n" + string(body), nil
}
