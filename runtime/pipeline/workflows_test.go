package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeGh puts a fake gh first on PATH: it prints a pull request, the
// second version when FAKE_GH=v2, its arguments when FAKE_GH=args.
func fakeGh(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	script := `#!/bin/sh
case "$FAKE_GH" in
  fail) echo "no such pr" >&2; exit 1;;
  text) echo "nope";;
  args) printf '{"argv":"%s"}\n' "$*";;
  v2) echo '{"number":1,"title":"New  title","url":"https://x/pr/1","state":"OPEN","isDraft":false,"author":{"login":"ada"},"updatedAt":"2026-02-01T00:00:00Z"}';;
  *) echo '{"number":1,"title":"Fix it","url":"https://x/pr/1","state":"OPEN","isDraft":false,"author":{"login":"ada"},"updatedAt":"2026-01-01T00:00:00Z"}';;
esac
`
	if err := os.WriteFile(filepath.Join(dir, "gh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
}

func TestWorkflowsRun(t *testing.T) {
	fakeGh(t)
	stateDir := t.TempDir()
	env := func(mode string) *Env {
		return &Env{Mode: Human, StateDir: stateDir, Environ: append(os.Environ(), "FAKE_GH="+mode)}
	}
	run := `workflows.run github.pr.monitor --args-json '{"repo":"o/r","pr":1}'`
	checkEnv(t, env("args"), run+" | pick prSnapshot", `[]`,
		`[{"prSnapshot":{"argv":"pr view 1 --repo o/r --json number,title,url,state,isDraft,mergeable,reviewDecision,author,baseRefName,headRefName,updatedAt"}}]`)
	os.Remove(filepath.Join(stateDir, "github.pr_o_r_1.json"))

	checkEnv(t, env("v1"), run+" | pick changed,key", `[]`, `[{"changed":true,"key":"github.pr:o/r#1"}]`)
	checkEnv(t, env("v1"), run+" | pick changed,summary", `[]`, `[{"changed":false,"summary":{"changedFields":[],"changes":{}}}]`)
	checkEnv(t, env("v2"), run+" | pick summary", `[]`,
		`[{"summary":{"changedFields":["title","updatedAt"],"changes":{"title":{"from":"Fix it","to":"New  title"},"updatedAt":{"from":"2026-01-01T00:00:00Z","to":"2026-02-01T00:00:00Z"}}}}]`)
	checkEnv(t, env("v2"), `workflows.run --name github.pr.monitor --args-json '{"repo":"o/r","pr":"1","changesOnly":true}'`, `[]`,
		`[{"kind":"github.pr.monitor","repo":"o/r","prNumber":1,"key":"github.pr:o/r#1","changed":false,"suppressed":true}]`)
	checkEnv(t, env("v1"), `workflows.run --name github.pr.monitor.notify --args-json '{"repo":"o/r","pr":1}' | map --unwrap message`, `[]`,
		`["PR updated: o/r#1: Fix it (title, updatedAt). https://x/pr/1"]`)
	checkEnv(t, env("v1"), `workflows.run --name github.pr.monitor.notify --args-json '{"repo":"o/r","pr":1}'`, `[]`,
		`[{"kind":"github.pr.monitor.notify","suppressed":true}]`)
	checkEnv(t, env("v2"), `workflows.run --name github.pr.monitor.notify --args-json '{"repo":"o/r","pr":1,"key":"fresh"}' | map --unwrap message`, `[]`,
		`["PR updated: o/r#1: New title (number, title, url, state, isDraft, mergeable, reviewDecision, updatedAt, baseRefName, headRefName). https://x/pr/1"]`)
	if data, err := os.ReadFile(filepath.Join(stateDir, "fresh.json")); err != nil || !strings.Contains(string(data), `"title": "New  title"`) {
		t.Errorf("snapshot %q %v", data, err)
	}
	checkEnv(t, env("fail"), run, `[]`, "error: gh failed (1): no such pr")
	checkEnv(t, env("text"), run, `[]`, "error: gh returned non-JSON output")
	checkEnv(t, env("v1"), `workflows.run github.pr.monitor --args-json '{"repo":"o/r"}'`, `[]`, "error: github.pr.monitor requires args.repo and args.pr")
	checkEnv(t, env("v1"), "workflows.run nope", `[]`, "error: Unknown workflow: nope")
	checkEnv(t, env("v1"), "workflows.list | map --unwrap name", `[]`, `["github.pr.monitor","github.pr.monitor.notify"]`)
}
