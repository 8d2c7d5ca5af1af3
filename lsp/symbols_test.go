package lsp

import (
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

func dumpSymbols(b *strings.Builder, text string, syms []protocol.DocumentSymbol, depth int) {
	for _, s := range syms {
		fmt.Fprintf(b, "%s%s %d %q [%d-%d]\n", strings.Repeat("  ", depth), s.Name, int(s.Kind), textOf(text, s.SelectionRange), s.Range.Start.Line, s.Range.End.Line)
		dumpSymbols(b, text, s.Children, depth+1)
	}
}

func TestDocumentSymbols(t *testing.T) {
	c, u := openFlow(t)
	var syms []protocol.DocumentSymbol
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}}, &syms)
	var b strings.Builder
	dumpSymbols(&b, flow, syms, 0)
	want := `args 3 "args" [1-6]
  target 13 "target" [2-4]
  dry-run 13 "dry-run" [5-6]
env 3 "env" [7-8]
  REGION 14 "REGION" [8-8]
steps 3 "steps" [9-27]
  build 12 "build" [10-11]
  test 12 "test" [12-16]
  approve 24 "approve" [17-19]
  ship 12 "ship" [20-22]
  each 12 "each" [23-27]
    one 12 "one" [26-27]
`
	if b.String() != want {
		t.Errorf("symbols:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestFoldingRanges(t *testing.T) {
	c, u := openFlow(t)
	var fr []protocol.FoldingRange
	c.call("textDocument/foldingRange", map[string]any{"textDocument": map[string]any{"uri": u}}, &fr)
	var got []string
	for _, f := range fr {
		got = append(got, fmt.Sprintf("%d-%d", f.StartLine, f.EndLine))
	}
	want := "1-6 7-8 9-27 10-11 12-16 13-15 17-19 20-22 23-27 26-27"
	if strings.Join(got, " ") != want {
		t.Errorf("folding ranges %v, want %s", got, want)
	}
}
