package lsp

import (
	"errors"
	"fmt"
	"maps"
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

// The files of the cross-file rename tests: a child with the arg region
// (declared, as ${region} and as LOBSTER_ARG_REGION), two callers (one in
// a subdirectory), and a caller of another file passing a key of the same
// name.
const (
	renChild  = "args:\n  region:\n    default: eu\n  size: {}\nsteps:\n  - id: c\n    run: echo ${region} $LOBSTER_ARG_REGION ${size}\n"
	renP1     = "steps:\n  - id: a\n    workflow: child.lobster\n    workflow_args:\n      region: us\n      size: \"2\"\n  - id: b\n    workflow: ./child.lobster\n    workflow_args: {region: eu}\n"
	renP2     = "steps:\n  - id: p\n    workflow: ../child.lobster\n    workflow_args:\n      region: $x.stdout\n"
	renOther  = "steps:\n  - id: o\n    workflow: other.lobster\n    workflow_args:\n      region: us\n"
	renOtherC = "args:\n  region: {}\nsteps:\n  - id: c\n    run: echo ${region}\n"
)

// openRenameFiles writes the files; the child is opened only when
// openChild is set.
func openRenameFiles(t *testing.T, c *client, openChild bool) (child, p1, p2, other protocol.DocumentURI) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(c.dir, "sub"), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(c.dir, "other.lobster"), []byte(renOtherC), 0o666); err != nil {
		t.Fatal(err)
	}
	if openChild {
		child = c.open("child.lobster", renChild)
	} else if err := os.WriteFile(filepath.Join(c.dir, "child.lobster"), []byte(renChild), 0o666); err != nil {
		t.Fatal(err)
	}
	return child, c.open("p1.lobster", renP1), c.open("sub/p2.lobster", renP2), c.open("other-caller.lobster", renOther)
}

var (
	renChildWant = "args:\n  zone:\n    default: eu\n  size: {}\nsteps:\n  - id: c\n    run: echo ${zone} $LOBSTER_ARG_ZONE ${size}\n"
	renP1Want    = strings.NewReplacer("      region: us", "      zone: us", "{region: eu}", "{zone: eu}").Replace(renP1)
	renP2Want    = strings.Replace(renP2, "region:", "zone:", 1)
)

// TestRenameChildArgUpdatesCallers renames an arg in the child: the
// workflow_args keys of the open documents that run the child follow.
func TestRenameChildArgUpdatesCallers(t *testing.T) {
	c := start(t)
	child, p1, p2, other := openRenameFiles(t, c, true)
	var r protocol.Range
	c.call("textDocument/prepareRename", docPos(child, at(t, renChild, "${region}", 1, 3)), &r)
	if r != rng(6, 16, 6, 22) {
		t.Errorf("prepareRename range %v", r)
	}
	var we protocol.WorkspaceEdit
	params := docPos(child, at(t, renChild, "${region}", 1, 3))
	params["newName"] = "zone"
	c.call("textDocument/rename", params, &we)
	if got := we.Changes[p1]; len(got) != 2 || got[0].Range != rng(4, 6, 4, 12) || got[1].Range != rng(8, 20, 8, 26) {
		t.Errorf("edits of p1: %+v", got)
	}
	checkRenamedCallers(t, we, child, p1, p2, other)
}

// checkRenamedCallers checks the workspace edit of renaming region to zone
// in the files of openRenameFiles: the child and the two callers change,
// the caller of another file does not.
func checkRenamedCallers(t *testing.T, we protocol.WorkspaceEdit, child, p1, p2, other protocol.DocumentURI) {
	t.Helper()
	if len(we.Changes) != 3 || we.Changes[other] != nil {
		t.Errorf("documents changed: %v", slices.Collect(maps.Keys(we.Changes)))
	}
	for _, tt := range []struct {
		u          protocol.DocumentURI
		text, want string
	}{{child, renChild, renChildWant}, {p1, renP1, renP1Want}, {p2, renP2, renP2Want}} {
		if got := applyEdits(t, tt.text, we.Changes[tt.u]); got != tt.want {
			t.Errorf("%s after rename:\n%s\nwant:\n%s", tt.u, got, tt.want)
		}
	}
}

// TestRenameWorkflowArgKey renames a workflow_args key: the child's arg is
// renamed in the child file (not open: edited on disk), with the keys of
// every open caller.
func TestRenameWorkflowArgKey(t *testing.T) {
	c := start(t)
	_, p1, p2, other := openRenameFiles(t, c, false)
	childURI := c.uri("child.lobster")
	pos := at(t, renP2, "region:", 1, 2)
	var r protocol.Range
	c.call("textDocument/prepareRename", docPos(p2, pos), &r)
	if r != rng(4, 6, 4, 12) {
		t.Errorf("prepareRename range %v", r)
	}
	var we protocol.WorkspaceEdit
	params := docPos(p2, pos)
	params["newName"] = "zone"
	c.call("textDocument/rename", params, &we)
	checkRenamedCallers(t, we, childURI, p1, p2, other)
}

// TestRenameWorkflowArgKeyOpenChild edits the child's editor buffer, which
// differs from the file on disk.
func TestRenameWorkflowArgKeyOpenChild(t *testing.T) {
	c := start(t)
	_, p1, _, _ := openRenameFiles(t, c, false)
	buffer := "# edited\n" + renChild
	child := c.uri("child.lobster")
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: child, LanguageID: "lobster", Version: 1, Text: buffer,
	}})
	var we protocol.WorkspaceEdit
	params := docPos(p1, at(t, renP1, "{region", 1, 3))
	params["newName"] = "zone"
	c.call("textDocument/rename", params, &we)
	if got := applyEdits(t, buffer, we.Changes[child]); got != "# edited\n"+renChildWant {
		t.Errorf("child after rename:\n%s", got)
	}
	if got := applyEdits(t, renP1, we.Changes[p1]); got != renP1Want {
		t.Errorf("p1 after rename:\n%s", got)
	}
}

func TestRenameWorkflowArgKeyRefused(t *testing.T) {
	c := start(t)
	_, p1, _, _ := openRenameFiles(t, c, true)
	text := "steps:\n  - id: x\n    run: echo child\n  - id: dyn\n    workflow: $x.stdout.lobster\n    workflow_args:\n      region: us\n  - id: gone\n    workflow: missing.lobster\n    workflow_args:\n      region: us\n  - id: odd\n    workflow: child.lobster\n    workflow_args:\n      colour: red\n"
	u := c.open("refused.lobster", text)
	var r protocol.Range
	for _, tt := range []struct{ at, want string }{
		{"region: us", "known only at run time"},
		{"region: us\n  - id: odd", "cannot be read"},
	} {
		err := c.callErr("textDocument/prepareRename", docPos(u, at(t, text, tt.at, 1, 1)), &r)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("prepareRename at %q: %v, want %q", tt.at, err, tt.want)
		}
	}
	// A name the child has already.
	var we protocol.WorkspaceEdit
	params := docPos(p1, at(t, renP1, "region: us", 1, 1))
	params["newName"] = "size"
	if err := c.callErr("textDocument/rename", params, &we); err == nil || !strings.Contains(err.Error(), `has an arg named "size" already`) {
		t.Errorf("rename to size: %v", err)
	}
	// A key the child does not declare: only the key.
	params = docPos(u, at(t, text, "colour", 1, 1))
	params["newName"] = "color"
	c.call("textDocument/rename", params, &we)
	if len(we.Changes) != 1 || applyEdits(t, text, we.Changes[u]) != strings.Replace(text, "colour", "color", 1) {
		t.Errorf("rename of an undeclared key: %+v", we.Changes)
	}
	// A value inside workflow_args is no key of it.
	if err := c.callErr("textDocument/prepareRename", docPos(p1, at(t, renP1, "region: us", 1, 9)), &r); err == nil {
		t.Errorf("prepareRename on a value: %v", r)
	}
}

// TestCallersInTheWorkspace: the callers of a child that are not open are
// found under the workspace folder, for rename and for references, from
// the child's arg and from a workflow_args key.
func TestCallersInTheWorkspace(t *testing.T) {
	c := startInWorkspace(t)
	child := c.open("child.lobster", renChild)
	p1 := c.write("p1.lobster", renP1)
	p2 := c.write("sub/p2.lobster.yml", renP2)
	c.write("other.lobster", renOtherC)
	other := c.write("other-caller.lobster", renOther)
	c.write("node_modules/x/p3.lobster", renP1) // not searched
	c.write(".hidden/p4.lobster", renP1)        // not searched

	var we protocol.WorkspaceEdit
	params := docPos(child, at(t, renChild, "${region}", 1, 3))
	params["newName"] = "zone"
	c.call("textDocument/rename", params, &we)
	checkRenamedCallers(t, we, child, p1, p2, other)

	locations := func(u protocol.DocumentURI, text, near string, includeDecl bool) []string {
		params := docPos(u, at(t, text, near, 1, 3))
		params["context"] = map[string]any{"includeDeclaration": includeDecl}
		var locs []protocol.Location
		c.call("textDocument/references", params, &locs)
		var out []string
		for _, l := range locs {
			out = append(out, fmt.Sprintf("%s:%d:%d", filepath.Base(string(l.URI)), l.Range.Start.Line, l.Range.Start.Character))
		}
		slices.Sort(out)
		return out
	}
	want := []string{"child.lobster:1:2", "child.lobster:6:16", "child.lobster:6:37", "p1.lobster:4:6", "p1.lobster:8:20", "p2.lobster.yml:4:6"}
	if got := locations(child, renChild, "${region}", true); !slices.Equal(got, want) {
		t.Errorf("references of the child's arg: %v, want %v", got, want)
	}
	c.open("p1.lobster", renP1)
	if got := locations(p1, renP1, "{region", false); !slices.Equal(got, slices.Delete(slices.Clone(want), 0, 1)) {
		t.Errorf("references of a workflow_args key: %v, want %v", got, want[1:])
	}
}

// TestCallersInJSONFiles: a caller written in JSON (*.lobster.json, a
// workflow file by the rule every tool shares) is found under the
// workspace folder; a .json file that the rule leaves out is not.
func TestCallersInJSONFiles(t *testing.T) {
	c := startInWorkspace(t)
	child := c.open("child.lobster", renChild)
	c.write("p.lobster.json", `{"steps": [{"id": "a", "workflow": "child.lobster", "workflow_args": {"region": "us"}}]}`)
	c.write("data.json", `{"steps": [{"id": "a", "workflow": "child.lobster", "workflow_args": {"region": "us"}}]}`)
	params := docPos(child, at(t, renChild, "${region}", 1, 3))
	params["context"] = map[string]any{"includeDeclaration": false}
	var locs []protocol.Location
	c.call("textDocument/references", params, &locs)
	var got []string
	for _, l := range locs {
		got = append(got, fmt.Sprintf("%s:%d:%d", filepath.Base(string(l.URI)), l.Range.Start.Line, l.Range.Start.Character))
	}
	slices.Sort(got)
	want := []string{"child.lobster:6:16", "child.lobster:6:37", "p.lobster.json:0:71"}
	if !slices.Equal(got, want) {
		t.Errorf("references: %v, want %v", got, want)
	}
}
