package check_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// TestRunContextStops cancels the context inside the first analyzer: the
// ones after it do not run, and the error is the context's.
func TestRunContextStops(t *testing.T) {
	f, pd := parser.Parse("a.lobster", []byte("steps:\n  - id: a\n    run: echo hi\n"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ran []string
	mk := func(name string, fn func()) *check.Analyzer {
		return &check.Analyzer{Name: name, Severity: source.Warning, Run: func(*check.Pass) {
			ran = append(ran, name)
			if fn != nil {
				fn()
			}
		}}
	}
	// Fewer than 8 analyzers run on one goroutine, in order.
	analyzers := []*check.Analyzer{mk("first", cancel), mk("second", nil), mk("third", nil)}
	diags, err := check.RunContext(ctx, f, pd, analyzers, check.Options{})
	if err != context.Canceled || diags != nil {
		t.Errorf("RunContext = %v, %v; want nil, context.Canceled", diags, err)
	}
	if !reflect.DeepEqual(ran, []string{"first"}) {
		t.Errorf("analyzers run: %v, want [first]", ran)
	}
	ran = nil
	if _, err := check.RunContext(ctx, f, pd, analyzers, check.Options{}); err != context.Canceled || ran != nil {
		t.Errorf("with a done context: err %v, analyzers run %v", err, ran)
	}
}
