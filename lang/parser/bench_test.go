package parser

import (
	"testing"

	"github.com/lobsterdev/lobster/internal/benchdata"
	"github.com/lobsterdev/lobster/lang/source"
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

func benchmarkReadYAML(b *testing.B, n string) {
	src := benchdata.Workflow(b, n)
	f := source.NewFile("wf.lobster", src)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		newYAMLReader(f, 0).readDocument()
	}
}

// BenchmarkReadYAML1000 reads the YAML of the 1000-step workload alone.
func BenchmarkReadYAML1000(b *testing.B) { benchmarkReadYAML(b, "1000") }

// BenchmarkReadYAML5000 reads the YAML of the 5000-step workload alone.
func BenchmarkReadYAML5000(b *testing.B) { benchmarkReadYAML(b, "5000") }
