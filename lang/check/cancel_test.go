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

// TestRunContextUsesGivenInfo: the analyzers see the Info of the options
// when there is one, and the findings are those of a run that builds it.
func TestRunContextUsesGivenInfo(t *testing.T) {
	f, pd := parser.Parse("a.lobster", []byte("steps:\n  - id: a\n    run: echo $b.stdout\n"))
	info := check.NewInfo(f)
	var seen *check.Info
	spy := &check.Analyzer{Name: "spy", Severity: source.Warning, Run: func(p *check.Pass) { seen = p.Info }}
	if _, err := check.RunContext(context.Background(), f, pd, []*check.Analyzer{spy}, check.Options{Info: info}); err != nil || seen != info {
		t.Errorf("the analyzer saw %p, want the given %p (err %v)", seen, info, err)
	}
	want := check.RunWith(f, pd, check.Rules, check.Options{})
	got := check.RunWith(f, pd, check.Rules, check.Options{Info: info})
	if !reflect.DeepEqual(got, want) || len(got) == 0 {
		t.Errorf("with the given Info:\n%v\nwant\n%v", got, want)
	}
}
