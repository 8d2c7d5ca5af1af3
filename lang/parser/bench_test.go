package parser

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// benchFile generates the benchmark workload wf-N.lobster with the shared
// generator (../shared/bench/gen.py), once per run.
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

func benchmarkParse(b *testing.B, n string) {
	src := benchFile(b, n)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Parse("wf.lobster", src)
	}
}

// BenchmarkParse1000 parses the 1000-step workload (whole-process budget for
// `lobster check`: 30 ms).
func BenchmarkParse1000(b *testing.B) { benchmarkParse(b, "1000") }

// BenchmarkParse5000 parses the 5000-step workload (at most 6× the 1000 one).
func BenchmarkParse5000(b *testing.B) { benchmarkParse(b, "5000") }
