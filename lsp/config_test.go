package lsp

import (
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestConfig: the project configuration applies to the documents below
// it, its own findings are published on it, and a change to it (reported
// by the client, which the server asked to watch it) reloads it and checks
// the open documents again.
func TestConfig(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}, nil)
	c.mu.Lock()
	for !slices.Contains(c.requests, "client/registerCapability") {
		c.cond.Wait()
	}
	c.mu.Unlock()
	cfg := c.write(".lobsterrc.yaml", "env: [HOST_TOKEN]\nrule: {}\n")
	u := c.open("w.lobster", "steps:\n  - id: a\n    pipeline: ado.pr.monitor --pr 7\n")
	c.waitDiags(u, hasCode("unknown-pipeline-command"))
	c.waitDiags(cfg, hasCode("config-unknown-key"))

	c.write(".lobsterrc.yaml", "commands:\n  ado.pr.monitor:\n    flags:\n      pr: {type: int, required: true}\n")
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": cfg, "type": 2}}})
	c.waitDiags(u, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	c.waitDiags(cfg, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })

	// A rule turned off, then the configuration saved from the editor.
	v := c.change(u, map[string]any{"text": "steps:\n  - id: a\n    pipeline: ado.pr.monitor\n"})
	c.waitDiags(u, hasCode("missing-required-flag"))
	c.write(".lobsterrc.yaml", "commands:\n  ado.pr.monitor:\n    flags:\n      pr: {type: int, required: true}\nrules:\n  missing-required-flag: off\n")
	c.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": cfg}})
	c.waitDiags(u, func(p protocol.PublishDiagnosticsParams) bool {
		return p.Version == uint32(v) && len(p.Diagnostics) == 0
	})
}

// TestConfigCommands: the host commands the configuration declares are
// completed and documented like the built-in ones.
func TestConfigCommands(t *testing.T) {
	c := start(t)
	c.write(".lobsterrc.yaml", "commands:\n  ado.pr.monitor:\n    description: watch a pull request\n    flags:\n      pr: {type: int, required: true}\n")
	text := "steps:\n  - id: a\n    pipeline: ado.pr.monitor --pr 7\n"
	u := c.open("w.lobster", text)

	var h protocol.Hover
	c.call("textDocument/hover", docPos(u, at(t, text, "ado.pr", 1, 1)), &h)
	if !strings.Contains(h.Contents.Value, "**ado.pr.monitor** — watch a pull request") || !strings.Contains(h.Contents.Value, "project configuration") {
		t.Errorf("hover on a host command: %q", h.Contents.Value)
	}
	h = protocol.Hover{}
	c.call("textDocument/hover", docPos(u, at(t, text, "--pr", 1, 3)), &h)
	if !strings.Contains(h.Contents.Value, "**--pr** (int) of `ado.pr.monitor`") {
		t.Errorf("hover on a host command's flag: %q", h.Contents.Value)
	}

	var list protocol.CompletionList
	c.call("textDocument/completion", docPos(u, at(t, text, "ado.pr", 1, 0)), &list)
	if !slices.ContainsFunc(list.Items, func(it protocol.CompletionItem) bool { return it.Label == "ado.pr.monitor" }) {
		t.Errorf("completion of commands lacks the host command: %d items", len(list.Items))
	}
	list = protocol.CompletionList{}
	c.call("textDocument/completion", docPos(u, at(t, text, "--pr", 1, 0)), &list)
	if !slices.ContainsFunc(list.Items, func(it protocol.CompletionItem) bool { return it.Label == "--pr" }) {
		t.Errorf("completion of the host command's flags: %+v", list.Items)
	}
}
