package check_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
)

// benchFile generates wf-N.lobster with the shared generator.
func benchFile(b *testing.B, n string) []byte {
	b.Helper()
	dir := b.TempDir()
	gen, _ := filepath.Abs("../../../shared/bench/gen.py")
	if _, err := os.Stat(gen); err != nil {
		b.Skip("no generator at " + gen)
	}
	if out, err := exec.Command("python3", gen, n, dir).CombinedOutput(); err != nil {
		b.Skipf("gen.py: %v %s", err, out)
	}
	src, err := os.ReadFile(filepath.Join(dir, "wf-"+n+".lobster"))
	if err != nil {
		b.Fatal(err)
	}
	return src
}

// BenchmarkParseCheck1000 is what `lobster check` does per file: parse and
// run every rule.
func BenchmarkParseCheck1000(b *testing.B) {
	src := benchFile(b, "1000")
	b.ReportAllocs()
	for b.Loop() {
		f, diags := parser.Parse("wf.lobster", src)
		check.Run(f, diags, check.Rules)
	}
}

// BenchmarkCheck1000 runs the rules alone on a parsed file.
func BenchmarkCheck1000(b *testing.B) {
	src := benchFile(b, "1000")
	f, diags := parser.Parse("wf.lobster", src)
	b.ReportAllocs()
	for b.Loop() {
		check.Run(f, diags, check.Rules)
	}
}

// BenchmarkNewInfo1000 builds the shared index alone.
func BenchmarkNewInfo1000(b *testing.B) {
	src := benchFile(b, "1000")
	f, _ := parser.Parse("wf.lobster", src)
	b.ReportAllocs()
	for b.Loop() {
		check.NewInfo(f)
	}
}
