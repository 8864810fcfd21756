//go:build !understand_api

package understanding

import (
	"context"

	"github.com/sift-agent/sift/operator"
	"github.com/sift-agent/sift/preview"
)

// ask needs templates.Understand, which this build of tools/templates does not have yet.
func ask(context.Context, operator.Operator, *preview.FilePreview, string) asked {
	return asked{err: ErrNoParser}
}
