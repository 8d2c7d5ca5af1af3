package lsp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

const typo = `steps:
  - id: build
    run: make build
  - id: deploy
    run: ./deploy.sh "$biuld.stdout"
`

func TestDiagnosticsOnOpen(t *testing.T) {
	c := start(t)
	u := c.open("deploy.lobster", typo)
	p := c.waitDiags(u, hasCode("unknown-step-ref"))
	if p.Version != 1 {
		t.Errorf("version = %d, want 1", p.Version)
	}
	var d protocol.Diagnostic
	for _, x := range p.Diagnostics {
		if x.Code == "unknown-step-ref" {
			d = x
		}
	}
	if got := textOf(typo, d.Range); got != "biuld" {
		t.Errorf("range covers %q, want %q", got, "biuld")
	}
	if d.Severity != protocol.DiagnosticSeverityError || d.Source != "lobster" {
		t.Errorf("severity %v source %q", d.Severity, d.Source)
	}
	if d.CodeDescription == nil || !strings.HasSuffix(string(d.CodeDescription.Href), "docs/diagnostics.md#unknown-step-ref") {
		t.Errorf("codeDescription = %+v", d.CodeDescription)
	}
}

func TestDiagnosticsRelatedInformation(t *testing.T) {
	c := start(t)
	text := "steps:\n  - id: a\n    run: echo 1\n  - id: a\n    run: echo 2\n"
	u := c.open("dup.lobster", text)
	p := c.waitDiags(u, hasCode("duplicate-id"))
	for _, d := range p.Diagnostics {
		if d.Code != "duplicate-id" {
			continue
		}
		if len(d.RelatedInformation) == 0 {
			t.Fatalf("duplicate-id has no related information: %+v", d)
		}
		ri := d.RelatedInformation[0]
		if ri.Location.URI != u || ri.Location.Range.Start.Line != 1 {
			t.Errorf("related location %+v, want line 1 of %s", ri.Location, u)
		}
	}
}

func TestDiagnosticsIncrementalEditsAndVersions(t *testing.T) {
	c := start(t)
	u := c.open("deploy.lobster", typo)
	c.waitDiags(u, hasCode("unknown-step-ref"))
	// Fix the typo with an incremental edit: "biuld" is at line 4, 23..28.
	v := c.change(u, edit(4, 23, 4, 28, "build"))
	p := c.waitVersion(u, v)
	if hasCode("unknown-step-ref")(p) {
		t.Errorf("version %d still reports the typo: %v", v, codes(p.Diagnostics))
	}
	// Insert at 0:0 (not a whole-document change).
	v = c.change(u, edit(0, 0, 0, 0, "# comment\n"))
	p = c.waitVersion(u, v)
	if fmt.Sprint(codes(p.Diagnostics)) != "[step-output-spliced-into-shell]" || p.Diagnostics[0].Range.Start.Line != 5 {
		t.Errorf("after inserting a line: %s", dumpDiags([]protocol.PublishDiagnosticsParams{p}))
	}
	// A whole-document change.
	v = c.change(u, map[string]any{"text": typo})
	p = c.waitVersion(u, v)
	if !hasCode("unknown-step-ref")(p) {
		t.Errorf("whole-document change not applied: %v", codes(p.Diagnostics))
	}
	// Several changes in one notification apply in order.
	v = c.change(u, edit(4, 23, 4, 28, "bld"), edit(4, 24, 4, 24, "ui"))
	p = c.waitVersion(u, v)
	if hasCode("unknown-step-ref")(p) {
		t.Errorf("ordered changes: %v", codes(p.Diagnostics))
	}
}

// TestDiagnosticsNonASCII edits a file with CJK and emoji through UTF-16
// positions and checks the published ranges.
func TestDiagnosticsNonASCII(t *testing.T) {
	c := start(t)
	text := "name: 漢字😀\nsteps:\n  - id: b\n    run: echo \"😀 $biuld.stdout\"\n"
	u := c.open("cjk.lobster", text)
	p := c.waitDiags(u, hasCode("unknown-step-ref"))
	for _, d := range p.Diagnostics {
		if d.Code == "unknown-step-ref" {
			if got := textOf(text, d.Range); got != "biuld" {
				t.Errorf("range %v covers %q, want biuld", d.Range, got)
			}
			// "    run: echo \"" is 15 units, the emoji 2, the space 1, '$' 1.
			if d.Range.Start.Character != 19 {
				t.Errorf("start character %d, want 19", d.Range.Start.Character)
			}
		}
	}
	// Replace the emoji, then the typo (whose position moved one unit
	// left), through UTF-16 positions.
	v := c.change(u, edit(3, 15, 3, 17, "漢"), edit(3, 18, 3, 23, "b"))
	p = c.waitVersion(u, v)
	if hasCode("unknown-step-ref")(p) {
		t.Errorf("after the edit: %v", codes(p.Diagnostics))
	}
	want := "name: 漢字😀\nsteps:\n  - id: b\n    run: echo \"漢 $b.stdout\"\n"
	if got := string(c.serverText(u)); got != want {
		t.Errorf("server text:\n%s\nwant:\n%s", got, want)
	}
}

// TestDiagnosticsLatestVersionWins sends an edit storm and expects the last
// publication to be of the last version, and no publication of a version
// older than one already published.
func TestDiagnosticsLatestVersionWins(t *testing.T) {
	c := start(t)
	u := c.open("storm.lobster", typo)
	var v int32
	for i := 0; i < 200; i++ {
		v = c.change(u, edit(0, 0, 0, 0, fmt.Sprintf("# %d\n", i)))
	}
	c.waitVersion(u, v)
	ps := c.published(u)
	last := uint32(0)
	for _, p := range ps {
		if p.Version < last {
			t.Errorf("version %d published after %d", p.Version, last)
		}
		last = p.Version
	}
	if len(ps) > 100 {
		t.Errorf("%d publications for 200 changes: not debounced", len(ps))
	}
}

func TestDiagnosticsClearedOnClose(t *testing.T) {
	c := start(t)
	u := c.open("close.lobster", typo)
	c.waitDiags(u, hasCode("unknown-step-ref"))
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": u}})
	c.waitDiags(u, func(p protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
}

// TestDiagnosticsChildWorkflow re-checks an open parent when its open child
// changes: the child's buffer is read, not the file on disk.
func TestDiagnosticsChildWorkflow(t *testing.T) {
	c := start(t)
	child := c.open("child.lobster", "args:\n  target:\n    default: x\nsteps:\n  - id: c\n    run: echo ${target}\n")
	parent := c.open("parent.lobster", "steps:\n  - id: p\n    workflow: child.lobster\n    workflow_args:\n      target: prod\n")
	p := c.waitVersion(parent, 1)
	if hasCode("workflow-args-undeclared")(p) {
		t.Fatalf("parent: %v", codes(p.Diagnostics))
	}
	c.change(child, map[string]any{"text": "steps:\n  - id: c\n    run: echo hi\n"})
	c.waitDiags(parent, hasCode("workflow-args-undeclared"))
}

// TestDiagnosticsChildRelatedUnsaved: a related location in an open child
// is placed in the child's buffer, the text the checker read, not in the
// file on disk. Two unsaved lines at the top of the child move "arg
// declared here" two lines down.
func TestDiagnosticsChildRelatedUnsaved(t *testing.T) {
	c := start(t)
	child := c.open("child.lobster", "args:\n  target:\n    default: x\nsteps:\n  - id: c\n    run: echo ${target}\n")
	parent := c.open("parent.lobster", "steps:\n  - id: p\n    workflow: child.lobster\n    workflow_args:\n      targte: prod\n")
	related := func(name string) func(protocol.PublishDiagnosticsParams) bool {
		return func(p protocol.PublishDiagnosticsParams) bool {
			for _, d := range p.Diagnostics {
				for _, ri := range d.RelatedInformation {
					if strings.Contains(ri.Message, `"`+name+`"`) {
						return true
					}
				}
			}
			return false
		}
	}
	check := func(p protocol.PublishDiagnosticsParams, name string, want protocol.Range) {
		t.Helper()
		for _, d := range p.Diagnostics {
			for _, ri := range d.RelatedInformation {
				if strings.Contains(ri.Message, `"`+name+`"`) && (ri.Location.URI != child || ri.Location.Range != want) {
					t.Errorf("%q: related location %v, want %v of %s", ri.Message, ri.Location, want, child)
				}
			}
		}
	}
	check(c.waitDiags(parent, related("target")), "target", rng(1, 2, 1, 8))
	// Unsaved: two comment lines on top, the arg renamed so that the
	// parent's new finding can be told from the old one.
	c.change(child, map[string]any{"text": "# one\n# two\nargs:\n  targe:\n    default: x\nsteps:\n  - id: c\n    run: echo ${targe}\n"})
	check(c.waitDiags(parent, related("targe")), "targe", rng(3, 2, 3, 7))
}

// serverText is the server's current text of a document.
func (c *client) serverText(u protocol.DocumentURI) []byte {
	c.t.Helper()
	var res struct{ Text string }
	c.call("lobster/text", map[string]any{"textDocument": map[string]any{"uri": u}}, &res)
	return []byte(res.Text)
}

// TestDiagnosticsStaleCheckStopped changes a document while its first
// version is being checked (a fake shellcheck holds that check for a
// second): the old check stops with the context's error instead of running
// the rules left, and only the new version is published.
func TestDiagnosticsStaleCheckStopped(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "started")
	fake := filepath.Join(dir, "shellcheck")
	script := "#!/bin/sh\nif [ ! -e " + marker + " ]; then : > " + marker + "; sleep 1; fi\necho '{\"comments\":[]}'\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	type result struct {
		version int32
		err     error
	}
	results := make(chan result, 10)
	c := newClient(t, Options{Shellcheck: fake, afterCheck: func(_ protocol.DocumentURI, v int32, err error) {
		results <- result{v, err}
	}})
	var res map[string]any
	c.call("initialize", map[string]any{"processId": 1, "rootUri": nil, "capabilities": map[string]any{}}, &res)
	c.notify("initialized", map[string]any{})
	u := c.open("slow.lobster", typo)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("shellcheck never ran")
		}
		time.Sleep(5 * time.Millisecond)
	}
	v := c.change(u, edit(0, 0, 0, 0, "# v2\n"))
	first := <-results
	if first.version != 1 || !errors.Is(first.err, context.Canceled) {
		t.Errorf("the check of version 1 ended with %v (version %d), want context.Canceled", first.err, first.version)
	}
	second := <-results
	if second.version != v || second.err != nil {
		t.Errorf("the check of version %d ended with %v (version %d)", v, second.err, second.version)
	}
	p := c.waitVersion(u, v)
	if !hasCode("unknown-step-ref")(p) || textOf("# v2\n"+typo, p.Diagnostics[0].Range) != "biuld" || p.Diagnostics[0].Range != rng(5, 23, 5, 28) {
		t.Errorf("version %d: %s", v, dumpDiags([]protocol.PublishDiagnosticsParams{p}))
	}
	for _, p := range c.published(u) {
		if p.Version == 1 {
			t.Errorf("version 1 was published")
		}
	}
	if !strings.Contains(c.logBuf.String(), "version 1 stopped: a newer version arrived") {
		t.Errorf("log: %s", c.logBuf.String())
	}
}

// TestDiagnosticsChildChangedOnDisk: a child workflow that is not open
// changes on disk; the client reports it (the server asked it to watch
// workflow files) and the open parent is checked again.
func TestDiagnosticsChildChangedOnDisk(t *testing.T) {
	c := newClient(t, Options{})
	c.initialize(map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}, nil)
	c.mu.Lock()
	for !slices.Contains(c.requests, "client/registerCapability") {
		c.cond.Wait()
	}
	c.mu.Unlock()
	child := c.write("child.lobster", "args:\n  target:\n    default: x\nsteps:\n  - id: c\n    run: echo ${target}\n")
	parent := c.open("parent.lobster", "steps:\n  - id: p\n    workflow: child.lobster\n    workflow_args:\n      target: prod\n")
	if p := c.waitVersion(parent, 1); hasCode("workflow-args-undeclared")(p) {
		t.Fatalf("parent: %v", codes(p.Diagnostics))
	}
	c.write("child.lobster", "steps:\n  - id: c\n    run: echo hi\n")
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": child, "type": 2}}})
	c.waitDiags(parent, hasCode("workflow-args-undeclared"))
}

// TestNoWatchWithoutDynamicRegistration: a client that cannot register
// watchers is not asked to.
func TestNoWatchWithoutDynamicRegistration(t *testing.T) {
	c := start(t)
	u := c.open("a.lobster", "steps: []\n")
	c.waitVersion(u, 1)
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.requests) != 0 {
		t.Errorf("the server sent %v", c.requests)
	}
}

// TestDiagnosticsShellcheckKept: an edit outside the shell text of a
// document runs no shellcheck: its findings on the unchanged texts are
// kept from the previous version, and published again.
func TestDiagnosticsShellcheckKept(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log.txt")
	fake := filepath.Join(dir, "shellcheck")
	script := "#!/bin/sh\necho \"$@\" >> " + log + "\n" +
		`echo '{"comments":[{"file":"0.sh","line":1,"endLine":1,"column":6,"endColumn":8,"level":"info","code":2086,"message":"Double quote."}]}'` + "\nexit 1\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, Options{Shellcheck: fake})
	var res map[string]any
	c.call("initialize", map[string]any{"processId": 1, "rootUri": nil, "capabilities": map[string]any{}}, &res)
	c.notify("initialized", map[string]any{})
	u := c.open("flow.lobster", "steps:\n  - id: a\n    run: echo $x\n")
	if p := c.waitVersion(u, 1); !hasCode("shellcheck/SC2086")(p) {
		t.Fatalf("version 1: %v", codes(p.Diagnostics))
	}
	v := c.change(u, edit(0, 0, 0, 0, "# v2\n"))
	if p := c.waitVersion(u, v); !hasCode("shellcheck/SC2086")(p) || p.Diagnostics[0].Range != rng(3, 14, 3, 16) {
		t.Errorf("version %d: %s", v, dumpDiags([]protocol.PublishDiagnosticsParams{p}))
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if runs := strings.Count(string(data), "\n"); runs != 1 {
		t.Errorf("shellcheck ran %d times for two versions of the same shell text:\n%s", runs, data)
	}
}
