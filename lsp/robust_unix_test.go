//go:build unix

package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"go.lsp.dev/protocol"
)

// TestHostileChildren: a document whose workflow: children are a named
// pipe, a device and a sparse file far over the size limit is checked,
// hovered and completed promptly, without reading them; the pipe and the
// device are findings.
func TestHostileChildren(t *testing.T) {
	c := startInWorkspace(t)
	fifo := filepath.Join(c.dir, "fifo.lobster")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(c.dir, "zero.lobster")); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(c.dir, "sparse.lobster"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(10 << 30); err != nil {
		t.Logf("no sparse file: %v", err)
	}
	f.Close()
	text := "steps:\n" +
		"  - id: a\n    workflow: ./fifo.lobster\n" +
		"  - id: b\n    workflow: ./zero.lobster\n" +
		"  - id: c\n    workflow: ./sparse.lobster\n" +
		"  - id: d\n    run: echo $a.json.x $b.json.x $c.json.x\n"
	u := c.open("parent.lobster", text)
	p := c.waitVersion(u, 1)
	n := 0
	for _, d := range p.Diagnostics {
		if d.Code == "subworkflow-missing" && strings.Contains(d.Message, "not a regular file") {
			n++
		}
	}
	if n != 2 {
		t.Errorf("want 2 findings of children that are not regular files: %s", dumpDiags([]protocol.PublishDiagnosticsParams{p}))
	}
	for _, line := range []uint32{2, 4, 6} {
		var h any
		c.call("textDocument/hover", docPos(u, protocol.Position{Line: line, Character: 16}), &h)
		var defs any
		c.call("textDocument/definition", docPos(u, protocol.Position{Line: line, Character: 16}), &defs)
	}
	var list any
	c.call("textDocument/completion", docPos(u, protocol.Position{Line: 8, Character: uint32(len("    run: echo $a.json."))}), &list)
	var refs any
	c.call("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": u},
		"position": protocol.Position{Line: 1, Character: 8}, "context": map[string]any{"includeDeclaration": true}}, &refs)
}
