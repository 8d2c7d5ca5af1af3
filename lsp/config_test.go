package lsp

import (
	"slices"
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
