package lsp

import (
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// decodeTokens turns LSP's relative encoding back into "text:type" strings.
func decodeTokens(text string, data []uint32) []string {
	var out []string
	var line, char uint32
	for i := 0; i+4 < len(data); i += 5 {
		if data[i] > 0 {
			line += data[i]
			char = data[i+1]
		} else {
			char += data[i+1]
		}
		r := protocol.Range{Start: protocol.Position{Line: line, Character: char}, End: protocol.Position{Line: line, Character: char + data[i+2]}}
		out = append(out, textOf(text, r)+":"+tokenTypes[data[i+3]])
	}
	return out
}

func TestSemanticTokens(t *testing.T) {
	c := start(t)
	text := "args:\n  x: {default: 1}\nenv:\n  MODE: 漢 $a.stdout\nsteps:\n  - id: a\n    run: echo \"😀 ${x} $LOBSTER_ARG_X\"\n  - id: b\n    when: $a.json.ok == true && !$a.skipped\n    pipeline: exec --json ls\n"
	u := c.open("sem.lobster", text)
	var st protocol.SemanticTokens
	c.call("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": u}}, &st)
	got := strings.Join(decodeTokens(text, st.Data), " ")
	want := "MODE:macro $a:variable stdout:property ${x}:parameter LOBSTER_ARG_X:parameter " +
		"$a:variable json:property ok:property ==:operator &&:operator !:operator $a:variable skipped:property exec:function"
	if got != want {
		t.Errorf("tokens:\n%s\nwant:\n%s", got, want)
	}
}

func TestInlayHints(t *testing.T) {
	c, u := openFlow(t)
	var hints []inlayHint
	c.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": u}, "range": rng(0, 0, 40, 0)}, &hints)
	var got []string
	for _, h := range hints {
		got = append(got, fmt.Sprintf("%d:%d %s", h.Position.Line, h.Position.Character, h.Label))
	}
	want := "11:36 = prod 21:51 = prod"
	if strings.Join(got, " ") != want {
		t.Errorf("hints %v, want %s", got, want)
	}
	// Only the hints in the range.
	c.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": u}, "range": rng(20, 0, 22, 0)}, &hints)
	if len(hints) != 1 {
		t.Errorf("hints in lines 20-22: %+v", hints)
	}
}
