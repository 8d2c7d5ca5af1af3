package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
)

// benchItems writes n objects as one JSON array and returns the file.
func benchItems(b *testing.B, n int) string {
	b.Helper()
	var sb strings.Builder
	sb.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"id":%d,"n":%d,"k":"key%05d","tags":["a","b"]}`, i%70000, (i*7919)%1001, (i*104729)%100000)
	}
	sb.WriteByte(']')
	path := filepath.Join(b.TempDir(), "items.json")
	if err := os.WriteFile(path, []byte(sb.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkWhereSortDedupe runs exec --json | where | sort | dedupe | json
// over 100,000 objects; items/s is the throughput.
func BenchmarkWhereSortDedupe(b *testing.B) {
	path := benchItems(b, 100_000)
	text := `exec --json --shell "cat ` + path + `" | where "n>=500" | sort --key k | dedupe --key id | json`
	p := parser.ParsePipelineText(text)
	stages := StagesOf(p.Stages, text)
	b.ResetTimer()
	for range b.N {
		var out bytes.Buffer
		if _, err := Run(context.Background(), stages, nil, &Env{Mode: Human, Stdout: &out, Environ: os.Environ()}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(100_000*b.N)/b.Elapsed().Seconds(), "items/s")
}

// BenchmarkIssue5Pipeline is the throughput pipeline of issue 5 over
// 100,000 objects, one per line in a JSON array, with its output
// discarded: exec --json | where "n>10" | sort --key n | dedupe --key id |
// json.
func BenchmarkIssue5Pipeline(b *testing.B) {
	path := benchItems(b, 100_000)
	text := `exec --json --shell "cat ` + path + `" | where "n>10" | sort --key n | dedupe --key id | json`
	p := parser.ParsePipelineText(text)
	stages := StagesOf(p.Stages, text)
	b.ResetTimer()
	for range b.N {
		if _, err := Run(context.Background(), stages, nil, &Env{Mode: Human, Stdout: discard{}, Environ: os.Environ()}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(100_000*b.N)/b.Elapsed().Seconds(), "items/s")
}

// benchText is n records as one JSON array, one per line.
func benchText(n int) string {
	var sb strings.Builder
	sb.WriteString("[\n")
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, `{"id":%d,"n":%d,"k":"key%05d","tags":["a","b"]}`, i%70000, (i*7919)%1001, (i*104729)%100000)
	}
	sb.WriteString("\n]")
	return sb.String()
}

// BenchmarkParseJSON reads 100,000 records (exec --json's reader).
func BenchmarkParseJSON(b *testing.B) {
	text := benchText(100_000)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := jsvalue.ParseText(text); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWritePretty writes 100,000 records as the json renderer does.
func BenchmarkWritePretty(b *testing.B) {
	v, err := jsvalue.ParseText(benchText(100_000))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := WriteItems(discard{}, v.([]any)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWritePrettyShuffled writes 100,000 records in an order unlike
// their order in memory, as after a sort: the writer then mostly waits for
// memory.
func BenchmarkWritePrettyShuffled(b *testing.B) {
	v, err := jsvalue.ParseText(benchText(100_000))
	if err != nil {
		b.Fatal(err)
	}
	items := v.([]any)
	r := rand.New(rand.NewPCG(1, 2))
	r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if err := WriteItems(discard{}, items); err != nil {
			b.Fatal(err)
		}
	}
}
