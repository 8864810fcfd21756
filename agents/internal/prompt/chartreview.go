package prompt

import (
	"encoding/base64"
	"mime"
	"path/filepath"
	"strings"

	"github.com/cloudwego/eino/schema"

	"github.com/sift-agent/sift/confined"
)

// Chart review: when the report writer's model accepts images
// (Models.Images), the charts the run drew go with its request, so it can
// check each chart it cites (the right axis, readable labels) before it
// describes it.

// maxReviewCharts and maxReviewChartBytes bound what is sent.
const (
	maxReviewCharts     = 4
	maxReviewChartBytes = 1 << 20
)

// chartReviewNote asks the report writer to look at the attached charts.
const chartReviewNote = "\n\n## Charts attached\nThe charts below are attached in this order: %s. Look at each chart you cite: check that it shows what you say (the right measure and axis, readable labels, no misleading scale); if one does not, say so in the caveats instead of describing it."

// WithCharts attaches the run's raster charts to the last user message
// of msgs as image parts (data URIs, the OpenAI image_url format). With no
// chart it returns msgs unchanged.
func WithCharts(msgs []*schema.Message, workdir string, artifacts []string) []*schema.Message {
	var names []string
	var parts []schema.MessageInputPart
	for _, a := range artifacts {
		if len(names) == maxReviewCharts {
			break
		}
		mt := mime.TypeByExtension(strings.ToLower(filepath.Ext(a)))
		if mt != "image/png" && mt != "image/jpeg" && mt != "image/webp" && mt != "image/gif" {
			continue
		}
		// Beneath the workspace by descriptor: a chart swapped for a link
		// (or a FIFO) by code is skipped, never followed.
		b, cut, err := confined.ReadFile(workdir, a, maxReviewChartBytes)
		if err != nil || cut || len(b) == 0 {
			continue
		}
		uri := "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(b)
		names = append(names, a)
		parts = append(parts, schema.MessageInputPart{Type: schema.ChatMessagePartTypeImageURL,
			Image: &schema.MessageInputImage{MessagePartCommon: schema.MessagePartCommon{URL: &uri}, Detail: schema.ImageURLDetailLow}})
	}
	if len(parts) == 0 {
		return msgs
	}
	out := append([]*schema.Message(nil), msgs...)
	for i := len(out) - 1; i >= 0; i-- {
		if out[i].Role != schema.User {
			continue
		}
		m := *out[i]
		text := m.Content + strings.Replace(chartReviewNote, "%s", strings.Join(names, ", "), 1)
		m.Content = ""
		m.UserInputMultiContent = append([]schema.MessageInputPart{{Type: schema.ChatMessagePartTypeText, Text: text}}, parts...)
		out[i] = &m
		return out
	}
	return msgs
}
