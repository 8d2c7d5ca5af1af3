package check_test

import (
	"testing"

	"github.com/lobsterdev/lobster/internal/benchdata"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
)

// BenchmarkParseCheck1000 is what `lobster check` does per file: parse and
// run every rule.
func BenchmarkParseCheck1000(b *testing.B) {
	src := benchdata.Workflow(b, "1000")
	b.ReportAllocs()
	for b.Loop() {
		f, diags := parser.Parse("wf.lobster", src)
		check.Run(f, diags, check.Rules)
	}
}

// BenchmarkCheck1000 runs the rules alone on a parsed file.
func BenchmarkCheck1000(b *testing.B) {
	src := benchdata.Workflow(b, "1000")
	f, diags := parser.Parse("wf.lobster", src)
	b.ReportAllocs()
	for b.Loop() {
		check.Run(f, diags, check.Rules)
	}
}

// BenchmarkNewInfo1000 builds the shared index alone.
func BenchmarkNewInfo1000(b *testing.B) {
	src := benchdata.Workflow(b, "1000")
	f, _ := parser.Parse("wf.lobster", src)
	b.ReportAllocs()
	for b.Loop() {
		check.NewInfo(f)
	}
}
