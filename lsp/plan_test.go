package lsp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

const planned = `args:
  target:
    default: prod
steps:
  - id: build
    run: make ${target}
  - id: ship
    run: ./ship.sh
    approval: Ship?
`

func TestCodeLenses(t *testing.T) {
	c := start(t)
	u := c.open("p.lobster", planned)
	var lenses []protocol.CodeLens
	c.call("textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": u}}, &lenses)
	var got []string
	for _, l := range lenses {
		got = append(got, itoa(int(l.Range.Start.Line))+" "+l.Command.Title+" "+l.Command.Command)
	}
	want := "0 Plan (file) lobster.plan|0 Plan diff (file) lobster.planDiff|4 Plan lobster.plan|4 Plan diff lobster.planDiff|6 Plan lobster.plan|6 Plan diff lobster.planDiff"
	if strings.Join(got, "|") != want {
		t.Errorf("lenses:\n%s\nwant:\n%s", strings.Join(got, "|"), want)
	}
}

func execPlan(t *testing.T, c *client, command string, args map[string]any) planResult {
	t.Helper()
	var res planResult
	c.call("workspace/executeCommand", map[string]any{"command": command, "arguments": []any{args}}, &res)
	return res
}

func TestPlanCommand(t *testing.T) {
	c := startWith(t, map[string]any{"window": map[string]any{"showDocument": map[string]any{"support": true}}})
	u := c.open("p.lobster", planned)
	res := execPlan(t, c, "lobster.plan", map[string]any{"uri": u})
	for _, w := range []string{"1. build [shell]\n   run: make prod\n", "2. ship [shell]\n   run: ./ship.sh\n   approval: Ship?\n"} {
		if !strings.Contains(res.Text, w) {
			t.Errorf("plan lacks %q:\n%s", w, res.Text)
		}
	}
	// The plan was written to a file and shown.
	if res.URI == "" || len(c.shown) != 1 || c.shown[0] != string(res.URI) {
		t.Fatalf("shown %v, result uri %q", c.shown, res.URI)
	}
	if data, err := os.ReadFile(uriPath(string(res.URI))); err != nil || string(data) != res.Text {
		t.Errorf("shown file: %v %q", err, data)
	}
	// Args as a JSON object or as a string, and one step.
	res = execPlan(t, c, "lobster.plan", map[string]any{"uri": u, "step": "build", "args": map[string]any{"target": "qa"}})
	if !strings.Contains(res.Text, "run: make qa") || strings.Contains(res.Text, "ship") {
		t.Errorf("plan of build with args:\n%s", res.Text)
	}
	res = execPlan(t, c, "lobster.plan", map[string]any{"uri": u, "args": `{"target":"dev"}`})
	if !strings.Contains(res.Text, "run: make dev") {
		t.Errorf("plan with string args:\n%s", res.Text)
	}
	var bad planResult
	if err := c.callErr("workspace/executeCommand", map[string]any{"command": "lobster.plan", "arguments": []any{map[string]any{"uri": u, "args": "[1]"}}}, &bad); err == nil {
		t.Errorf("args that are not an object were accepted")
	}
}

func TestPlanDiffCommand(t *testing.T) {
	c := start(t)
	u := c.open("p.lobster", planned)
	// Commit the file, save a change, and make another in the editor.
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", c.dir, "-c", "user.email=t@t", "-c", "user.name=t"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "p.lobster")
	git("commit", "-q", "-m", "x")
	saved := strings.Replace(planned, "./ship.sh", "./ship.sh --fast", 1)
	if err := os.WriteFile(filepath.Join(c.dir, "p.lobster"), []byte(saved), 0o666); err != nil {
		t.Fatal(err)
	}
	c.change(u, map[string]any{"text": strings.Replace(saved, "default: prod", "default: staging", 1)})
	res := execPlan(t, c, "lobster.planDiff", map[string]any{"uri": u})
	for _, w := range []string{
		"(saved file)\n", "(editor)\n",
		"-args: {\"target\":\"prod\"}\n+args: {\"target\":\"staging\"}\n",
		"-   run: make prod\n+   run: make staging\n",
		"(git HEAD)\n",
		"-   run: ./ship.sh\n+   run: ./ship.sh --fast\n",
	} {
		if !strings.Contains(res.Text, w) {
			t.Errorf("plan diff lacks %q:\n%s", w, res.Text)
		}
	}
	if res.URI != "" {
		t.Errorf("shown although the client cannot show documents: %q", res.URI)
	}
	// One step: the ship step did not change since it was saved.
	res = execPlan(t, c, "lobster.planDiff", map[string]any{"uri": u, "step": "ship"})
	if !strings.Contains(res.Text, "# the plan is the same as the saved file\n") {
		t.Errorf("plan diff of ship:\n%s", res.Text)
	}
}

// TestPlanDespiteCheckerErrors: the plan of a file with checker errors is
// shown (the editor shows the errors as diagnostics); a file the reference
// cannot load has no plan, and the command says why.
func TestPlanDespiteCheckerErrors(t *testing.T) {
	c := start(t)
	u := c.open("bad.lobster", "steps:\n  - id: a\n    run: cat\n    stdin: $nope.stdout\n")
	c.waitDiags(u, func(p protocol.PublishDiagnosticsParams) bool {
		return len(p.Diagnostics) > 0 && p.Diagnostics[0].Code == "unknown-step-ref"
	})
	res := execPlan(t, c, "lobster.plan", map[string]any{"uri": u})
	if !strings.Contains(res.Text, "1. a [shell]\n   run: cat\n") {
		t.Errorf("plan of a file with checker errors:\n%s", res.Text)
	}
	u = c.open("noid.lobster", "steps:\n  - name: a\n    run: echo a\n")
	var bad planResult
	err := c.callErr("workspace/executeCommand", map[string]any{"command": "lobster.plan", "arguments": []any{map[string]any{"uri": u}}}, &bad)
	if err == nil || !strings.Contains(err.Error(), "the reference cannot load the file, so it has no plan: 2:5:") || !strings.Contains(err.Error(), "[missing-id]") {
		t.Errorf("plan of a file the reference rejects: %v, %q", err, bad.Text)
	}
}
