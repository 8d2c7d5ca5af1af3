package lsp

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

func TestDefinition(t *testing.T) {
	c, u := openFlow(t)
	tests := []struct {
		name string
		pos  protocol.Position
		want string // text at the definition
		line int
	}{
		{"step ref", at(t, flow, "$build.stdout", 1, 3), "build", 10},
		{"ref field", at(t, flow, "$build.json.ok", 1, 9), "build", 10},
		{"arg ref", at(t, flow, "${target}", 1, 4), "target", 2},
		{"arg env", at(t, flow, "LOBSTER_ARG_TARGET", 1, 3), "target", 2},
		{"stdin ref", at(t, flow, "$test.stdout", 1, 1), "test", 12},
		{"loop var", at(t, flow, "$item.json", 1, 2), "for_each", 24},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var locs []protocol.Location
			c.call("textDocument/definition", docPos(u, tt.pos), &locs)
			if len(locs) != 1 {
				t.Fatalf("locations %+v", locs)
			}
			if locs[0].URI != u || textOf(flow, locs[0].Range) != tt.want || int(locs[0].Range.Start.Line) != tt.line {
				t.Errorf("definition %v covers %q, want %q on line %d", locs[0].Range, textOf(flow, locs[0].Range), tt.want, tt.line)
			}
		})
	}
}

func TestDefinitionChildWorkflow(t *testing.T) {
	c := start(t)
	child := "args:\n  env_name:\n    default: x\nsteps:\n  - id: c\n    run: echo ${env_name}\n"
	if err := os.WriteFile(filepath.Join(c.dir, "child.lobster"), []byte(child), 0o666); err != nil {
		t.Fatal(err)
	}
	text := "steps:\n  - id: p\n    workflow: child.lobster\n    workflow_args:\n      env_name: prod\n"
	u := c.open("parent.lobster", text)
	childURI := uri.File(filepath.Join(c.dir, "child.lobster"))
	var locs []protocol.Location
	c.call("textDocument/definition", docPos(u, at(t, text, "child.lobster", 1, 2)), &locs)
	if len(locs) != 1 || locs[0].URI != childURI {
		t.Fatalf("definition of the workflow path: %+v", locs)
	}
	c.call("textDocument/definition", docPos(u, at(t, text, "env_name:", 1, 2)), &locs)
	if len(locs) != 1 || locs[0].URI != childURI || locs[0].Range != rng(1, 2, 1, 10) {
		t.Fatalf("definition of a workflow_args key: %+v", locs)
	}
	var links []protocol.DocumentLink
	c.call("textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": u}}, &links)
	if len(links) != 1 || links[0].Target != childURI || textOf(text, links[0].Range) != "child.lobster" {
		t.Fatalf("document links: %+v", links)
	}
}

func refTexts(t *testing.T, text string, locs []protocol.Location) []string {
	var out []string
	for _, l := range locs {
		out = append(out, textOf(text, l.Range)+"@"+itoa(int(l.Range.Start.Line)))
	}
	return out
}

func TestReferences(t *testing.T) {
	c, u := openFlow(t)
	var locs []protocol.Location
	params := docPos(u, at(t, flow, "id: build", 1, 5))
	params["context"] = map[string]any{"includeDeclaration": true}
	c.call("textDocument/references", params, &locs)
	got := refTexts(t, flow, locs)
	want := []string{"build@10", "build@15", "build@16", "build@16", "build@24"}
	if !slices.Equal(got, want) {
		t.Errorf("references of build: %v, want %v", got, want)
	}
	// Without the declaration, from a reference; an arg's references
	// include its LOBSTER_ARG_ spelling.
	params = docPos(u, at(t, flow, "${target}", 1, 3))
	params["context"] = map[string]any{"includeDeclaration": false}
	c.call("textDocument/references", params, &locs)
	got = refTexts(t, flow, locs)
	want = []string{"target@11", "TARGET@14", "target@21"}
	if !slices.Equal(got, want) {
		t.Errorf("references of target: %v, want %v", got, want)
	}
	var hl []protocol.DocumentHighlight
	c.call("textDocument/documentHighlight", docPos(u, at(t, flow, "$test.stdout", 1, 2)), &hl)
	if len(hl) != 2 || hl[0].Kind != protocol.DocumentHighlightKindWrite || hl[1].Kind != protocol.DocumentHighlightKindRead {
		t.Errorf("highlights %+v", hl)
	}
}

// applyEdits applies a workspace edit's changes to text (test side).
func applyEdits(t *testing.T, text string, edits []protocol.TextEdit) string {
	t.Helper()
	slices.SortFunc(edits, func(a, b protocol.TextEdit) int {
		return offsetOf(text, b.Range.Start) - offsetOf(text, a.Range.Start)
	})
	for _, e := range edits {
		s, end := offsetOf(text, e.Range.Start), offsetOf(text, e.Range.End)
		text = text[:s] + e.NewText + text[end:]
	}
	return text
}

func TestRenameStep(t *testing.T) {
	c, u := openFlow(t)
	var r protocol.Range
	c.call("textDocument/prepareRename", docPos(u, at(t, flow, "$build.json.ok", 1, 1)), &r)
	if textOf(flow, r) != "build" {
		t.Errorf("prepareRename range covers %q", textOf(flow, r))
	}
	var we protocol.WorkspaceEdit
	params := docPos(u, at(t, flow, "$build.json.ok", 1, 1))
	params["newName"] = "compile"
	c.call("textDocument/rename", params, &we)
	got := applyEdits(t, flow, we.Changes[u])
	want := strings.ReplaceAll(flow, "build.", "compile.")
	want = strings.Replace(want, "id: build", "id: compile", 1)
	if got != want {
		t.Errorf("after rename:\n%s\nwant:\n%s", got, want)
	}
}

func TestRenameArg(t *testing.T) {
	c, u := openFlow(t)
	var we protocol.WorkspaceEdit
	params := docPos(u, at(t, flow, "LOBSTER_ARG_TARGET", 1, 13))
	params["newName"] = "deploy-env"
	c.call("textDocument/rename", params, &we)
	got := applyEdits(t, flow, we.Changes[u])
	want := strings.NewReplacer("  target:", "  deploy-env:", "${target}", "${deploy-env}", "LOBSTER_ARG_TARGET", "LOBSTER_ARG_DEPLOY_ENV").Replace(flow)
	if got != want {
		t.Errorf("after rename:\n%s\nwant:\n%s", got, want)
	}
}

func TestRenameRefused(t *testing.T) {
	c, u := openFlow(t)
	var r protocol.Range
	for _, p := range []protocol.Position{
		at(t, flow, "make build", 1, 1), // shell text
		at(t, flow, "on_error", 1, 1),   // a key
		at(t, flow, "$item.json", 1, 2), // a loop variable
	} {
		err := c.callErr("textDocument/prepareRename", docPos(u, p), &r)
		var je *jsonrpc2.Error
		if !errors.As(err, &je) {
			t.Errorf("prepareRename at %v: %v, want an error", p, err)
		}
	}
	var we protocol.WorkspaceEdit
	params := docPos(u, at(t, flow, "id: build", 1, 5))
	params["newName"] = "test"
	if err := c.callErr("textDocument/rename", params, &we); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Errorf("rename to an existing id: %v", err)
	}
	params["newName"] = "a b"
	if err := c.callErr("textDocument/rename", params, &we); err == nil {
		t.Errorf("rename to %q succeeded", "a b")
	}
	params = docPos(u, at(t, flow, "${target}", 1, 3))
	params["newName"] = "--"
	if err := c.callErr("textDocument/rename", params, &we); err == nil || !strings.Contains(err.Error(), "LOBSTER_ARG_") {
		t.Errorf("rename of an arg read as LOBSTER_ARG_TARGET to %q: %v", "--", err)
	}
}
