package source_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/source"
)

// BenchmarkPrintableWriter writes 30 MB of pretty JSON, mostly ASCII with
// an "é" in each record, as a pipeline's output goes out: in 64 KiB writes.
func BenchmarkPrintableWriter(b *testing.B) {
	var text strings.Builder
	for i := 0; text.Len() < 30<<20; i++ {
		fmt.Fprintf(&text, "  {\n    \"id\": %d,\n    \"name\": \"name %d é\",\n    \"tags\": [\n      \"a\",\n      \"b\"\n    ]\n  },\n", i, i)
	}
	data := []byte(text.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		w := source.NewPrintableWriter(io.Discard, true)
		for i := 0; i < len(data); i += 64 << 10 {
			w.Write(data[i:min(i+64<<10, len(data))])
		}
		w.Close()
	}
}
