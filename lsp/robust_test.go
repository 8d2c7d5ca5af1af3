package lsp

import (
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestOutOfRangePositions sends positions past the end of lines and of the
// document: the server answers (clamped) and keeps serving.
func TestOutOfRangePositions(t *testing.T) {
	c, u := openFlow(t)
	for _, p := range []protocol.Position{pos(0, 9999), pos(9999, 0), pos(9999, 9999)} {
		var h *protocol.Hover
		c.call("textDocument/hover", docPos(u, p), &h)
		var list protocol.CompletionList
		c.call("textDocument/completion", docPos(u, p), &list)
		var locs []protocol.Location
		c.call("textDocument/definition", docPos(u, p), &locs)
	}
	// A change whose range lies outside the text is clamped and logged.
	v := c.change(u, edit(9999, 0, 9999, 5, "\n# end\n"))
	c.waitVersion(u, v)
	if !strings.HasSuffix(string(c.serverText(u)), "\n# end\n") {
		t.Errorf("clamped change not applied at the end")
	}
	if !strings.Contains(c.logBuf.String(), "outside the document") {
		t.Errorf("clamped change not logged: %s", c.logBuf.String())
	}
}

// TestBrokenYAML keeps serving while the text does not parse as YAML.
func TestBrokenYAML(t *testing.T) {
	c, u := openFlow(t)
	// An unterminated flow sequence after the build step.
	broken := strings.Replace(flow, "  - id: test\n", "  - id: [test\n", 1)
	v := c.change(u, map[string]any{"text": broken})
	p := c.waitVersion(u, v)
	if !hasCode("yaml-syntax")(p) {
		t.Errorf("no yaml-syntax finding: %v", codes(p.Diagnostics))
	}
	var h *protocol.Hover
	c.call("textDocument/hover", docPos(u, at(t, broken, "id: build", 1, 5)), &h)
	if h == nil || !strings.Contains(h.Contents.Value, "`build`") {
		t.Errorf("no hover on an earlier step of a broken file: %+v", h)
	}
	var syms []protocol.DocumentSymbol
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}}, &syms)
	if len(syms) == 0 {
		t.Errorf("no symbols in a broken file")
	}
}

// TestHugeDocument opens a document past the parser's size limit and one
// with many steps.
func TestHugeDocument(t *testing.T) {
	c := start(t)
	big := "steps:\n  - id: a\n    run: echo " + strings.Repeat("x", 9<<20) + "\n"
	u := c.open("big.lobster", big)
	p := c.waitVersion(u, 1)
	if !hasCode("limit-exceeded")(p) {
		t.Errorf("huge document: %v", codes(p.Diagnostics))
	}
	var b strings.Builder
	b.WriteString("steps:\n")
	for i := 0; i < 3000; i++ {
		b.WriteString("  - id: s" + itoa(i) + "\n    run: echo $s" + itoa(max(i-1, 0)) + ".stdout\n")
	}
	u = c.open("many.lobster", b.String())
	c.waitVersion(u, 1)
	var list protocol.CompletionList
	c.call("textDocument/completion", docPos(u, pos(2*2000+2, 15)), &list)
	if len(list.Items) < 1000 {
		t.Errorf("%d completions at step 2000", len(list.Items))
	}
}

// TestChangeToClosedDocument is ignored (and logged).
func TestChangeToClosedDocument(t *testing.T) {
	c := start(t)
	c.change(c.uri("never.lobster"), map[string]any{"text": "x"})
	u := c.open("after.lobster", typo)
	c.waitVersion(u, 1)
	if !strings.Contains(c.logBuf.String(), "not open") {
		t.Errorf("log: %s", c.logBuf.String())
	}
}

// TestCompletionFromLastValidVersion completes step ids the broken text
// lost, from the last version that was valid YAML.
func TestCompletionFromLastValidVersion(t *testing.T) {
	c := start(t)
	text := "steps:\n  - id: build\n    run: make\n  - id: test\n    run: make test\n  - id: use\n    run: echo ok\n"
	u := c.open("lg.lobster", text)
	c.waitVersion(u, 1)
	// A flow mapping left open on the first step swallows the steps after it.
	broken := strings.Replace(text, "  - id: build\n", "  - {id: build\n", 1)
	broken = strings.Replace(broken, "run: echo ok", "run: echo $", 1)
	v := c.change(u, map[string]any{"text": broken})
	p := c.waitVersion(u, v)
	if !hasCode("yaml-syntax")(p) {
		t.Fatalf("the text is valid YAML: %v", codes(p.Diagnostics))
	}
	var list protocol.CompletionList
	c.call("textDocument/completion", docPos(u, at(t, broken, "echo $", 1, 6)), &list)
	var labels []string
	for _, it := range list.Items {
		labels = append(labels, it.Label)
	}
	if !strings.Contains(strings.Join(labels, " "), "test") {
		t.Errorf("completions %v lack the lost step test", labels)
	}
}

// TestRequestsSeeEarlierChanges interleaves changes and hovers: each hover
// must see the change sent just before it (notifications are applied in
// order, requests read the snapshot current when they arrive).
func TestRequestsSeeEarlierChanges(t *testing.T) {
	c := start(t)
	u := c.open("order.lobster", "steps:\n  - id: s0\n    run: echo\n")
	for i := 1; i <= 60; i++ {
		id := "s" + itoa(i)
		c.change(u, edit(1, 8, 1, 8+len("s"+itoa(i-1)), id))
		var h *protocol.Hover
		c.call("textDocument/hover", docPos(u, pos(1, 9)), &h)
		if h == nil || !strings.Contains(h.Contents.Value, "`"+id+"`") {
			t.Fatalf("hover after change %d: %+v", i, h)
		}
	}
}
