package parser

import (
	"testing"

	"github.com/lobsterdev/lobster/internal/benchdata"
)

func benchmarkParse(b *testing.B, n string) {
	src := benchdata.Workflow(b, n)
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
