package preview

import (
	"context"
	"os"
)

// The names of release 1, before they stopped repeating the package name
// (preview.All, not preview.PreviewAll; preview.File, not
// preview.Preview). They are kept for one release so that code written
// against them still compiles.

// Deprecated: use Options.
type PreviewOptions = Options

// Deprecated: use File.
func Preview(ctx context.Context, path string, opts Options) (*FilePreview, error) {
	return File(ctx, path, opts)
}

// Deprecated: use Opened.
func PreviewOpened(ctx context.Context, f *os.File, path string, opts Options) (*FilePreview, error) {
	return Opened(ctx, f, path, opts)
}

// Deprecated: use All.
func PreviewAll(ctx context.Context, paths []string, opts Options) string {
	return All(ctx, paths, opts)
}

// Deprecated: use Files.
func PreviewFiles(ctx context.Context, paths []string, opts Options) []Previewed {
	return Files(ctx, paths, opts)
}
