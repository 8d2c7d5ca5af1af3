package check

import (
	"context"
	"runtime"
	"sync"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// RunContext is [RunWith] that stops when ctx is done: before each
// analyzer it checks ctx, and once ctx is done it runs no further analyzer
// and returns ctx's error with no findings. An analyzer already running is
// not interrupted. With a context that is never done it returns what
// RunWith returns, and a nil error.
//
// The language server uses it to stop checking a version of a document as
// soon as a newer one arrives.
func RunContext(ctx context.Context, f *ast.File, parseDiags []source.Diagnostic, analyzers []*Analyzer, opts Options) ([]source.Diagnostic, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	info := NewInfo(f)
	found := make([][]source.Diagnostic, len(analyzers))
	workers := min(runtime.GOMAXPROCS(0), max(1, len(analyzers)/8))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(analyzers); i += workers {
				if ctx.Err() != nil {
					return
				}
				if analyzers[i].Run != nil {
					found[i] = runOne(analyzers[i], f, info, opts)
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	diags := append([]source.Diagnostic(nil), parseDiags...)
	for _, d := range found {
		diags = append(diags, d...)
	}
	diags = dropSuperseded(diags, analyzers)
	diags = applySuppressions(f, diags)
	source.Sort(diags)
	return diags, nil
}
