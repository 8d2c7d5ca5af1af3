package lsp

import (
	"encoding/json"
	"os"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/lobsterdev/lobster/internal/benchdata"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
)

// benchFile reads a generated workload ($LOBSTER_BENCH_FILE, from
// ../shared/bench/gen.py) or skips.
func benchFile(b *testing.B) []byte {
	p := os.Getenv("LOBSTER_BENCH_FILE")
	if p == "" {
		b.Skip("set LOBSTER_BENCH_FILE to a generated wf-N.lobster")
	}
	src, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	return src
}

func BenchmarkParse(b *testing.B) {
	src := benchFile(b)
	for b.Loop() {
		parser.Parse("wf.lobster", src)
	}
}

func BenchmarkAnalysis(b *testing.B) {
	src := benchFile(b)
	for b.Loop() {
		newSnapshot("file:///wf.lobster", 1, src).analysis()
	}
}

func BenchmarkCheck(b *testing.B) {
	src := benchFile(b)
	an := newSnapshot("file:///wf.lobster", 1, src).analysis()
	for b.Loop() {
		check.RunWith(an.file, an.parseDiags, check.Rules, check.Options{})
	}
}

func BenchmarkPublishEncoding(b *testing.B) {
	src := benchFile(b)
	snap := newSnapshot("file:///wf.lobster", 1, src)
	an := snap.analysis()
	diags := check.RunWith(an.file, an.parseDiags, check.Rules, check.Options{})
	for b.Loop() {
		pd := toProtocolDiags(checked{snap: snap, diags: diags})
		json.Marshal(&protocol.PublishDiagnosticsParams{URI: snap.uri, Diagnostics: pd})
	}
}

// BenchmarkEditCycle is what one edit costs before its diagnostics go out:
// apply the change, parse, check, convert.
func BenchmarkEditCycle(b *testing.B) {
	src := benchFile(b)
	s := NewServer(Options{})
	text := src
	cache := parser.NewCache()
	for i := 0; b.Loop(); i++ {
		text, _ = applyChanges(text, []textChange{{Range: &protocol.Range{}, Text: "#\n"}})
		snap := newSnapshot("file:///wf.lobster", int32(i), text)
		snap.cache = cache
		json.Marshal(&protocol.PublishDiagnosticsParams{URI: snap.uri, Diagnostics: toProtocolDiags(s.check(snap))})
	}
}

// didOpenFrame is the didOpen notification of the 5000-step workload, as an
// editor sends it.
func didOpenFrame(b testing.TB) []byte {
	src := benchdata.Workflow(b, "5000")
	frame, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen",
		"params": protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: "file:///wf.lobster", LanguageID: "lobster", Version: 1, Text: string(src)}}})
	if err != nil {
		b.Fatal(err)
	}
	return frame
}

// BenchmarkDocumentFrame reads a 5000-step document's didOpen frame into its
// params with the frame reader (jsvalue.ParseText).
func BenchmarkDocumentFrame(b *testing.B) {
	frame := didOpenFrame(b)
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		if _, ok := documentParams(frame); !ok {
			b.Fatal("frame left")
		}
	}
}

// BenchmarkDocumentFrameJSONRPC reads the same frame as jsonrpc2 and
// encoding/json do without the frame reader: the message, then its params.
func BenchmarkDocumentFrameJSONRPC(b *testing.B) {
	frame := didOpenFrame(b)
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		msg, err := jsonrpc2.DecodeMessage(frame)
		if err != nil {
			b.Fatal(err)
		}
		var p protocol.DidOpenTextDocumentParams
		if err := json.Unmarshal(msg.(*jsonrpc2.Notification).Params(), &p); err != nil {
			b.Fatal(err)
		}
	}
}
