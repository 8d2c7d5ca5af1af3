package check_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// TestRunContextMatchesRunWith runs every rule on every test file both
// ways: with a context that is never done, RunContext is RunWith.
func TestRunContextMatchesRunWith(t *testing.T) {
	files, err := filepath.Glob("testdata/*/*.lobster")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, pd := parser.Parse(name, src)
		opts := check.Options{Path: name}
		want := check.RunWith(f, pd, check.Rules, opts)
		got, err := check.RunContext(context.Background(), f, pd, check.Rules, opts)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: RunContext found\n%v\nRunWith found\n%v", name, got, want)
		}
	}
}

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
