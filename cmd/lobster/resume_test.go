//go:build unix

package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// lobsterIn runs the lobster command (testscript.Main puts it on PATH) in
// dir with the state in dir/.state and extra environment.
func lobsterIn(t *testing.T, dir string, env []string, args ...string) (stdout string, code int) {
	t.Helper()
	cmd := exec.Command("lobster", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "LOBSTER_STATE_DIR="+filepath.Join(dir, ".state"), "GORACE=atexit_sleep_ms=0"), env...)
	stdout, _, code = runProgram(t, cmd)
	return stdout, code
}

// runProgram runs cmd and returns its standard output, standard error and
// exit code; a failure to start it fails the test.
func runProgram(t *testing.T, cmd *exec.Cmd) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// pause runs the workflow in tool mode and returns its resume token.
func pause(t *testing.T, dir, file string) string {
	t.Helper()
	out, code := lobsterIn(t, dir, nil, "run", "--mode", "tool", file)
	var env struct {
		Status           string
		RequiresApproval struct{ ResumeToken string }
	}
	if code != 0 || json.Unmarshal([]byte(out), &env) != nil || env.Status != "needs_approval" {
		t.Fatalf("run did not pause (exit %d):\n%s", code, out)
	}
	return env.RequiresApproval.ResumeToken
}

const gatedEffect = `steps:
  - id: gate
    approval: Go?
  - id: effect
    run: echo once >> effects; sleep 0.2
`

// TestConcurrentResumesRunOnce resumes one token from several processes at
// once: exactly one continues the run, its side effect happens once, and
// the others are told the state is gone.
func TestConcurrentResumesRunOnce(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "w.lobster"), []byte(gatedEffect), 0o644)
	token := pause(t, dir, "w.lobster")
	const n = 6
	var wg sync.WaitGroup
	codes := make([]int, n)
	outs := make([]string, n)
	for i := range n {
		wg.Go(func() { outs[i], codes[i] = lobsterIn(t, dir, nil, "resume", "--token", token, "--approve", "yes") })
	}
	wg.Wait()
	ok := 0
	for i := range n {
		switch {
		case codes[i] == 0:
			ok++
		case codes[i] == 2 && strings.Contains(outs[i], "Workflow resume state not found"):
		default:
			t.Errorf("resume %d: exit %d\n%s", i, codes[i], outs[i])
		}
	}
	effects, _ := os.ReadFile(filepath.Join(dir, "effects"))
	if ok != 1 || string(effects) != "once\n" {
		t.Errorf("%d resumes continued, effects %q; want exactly one", ok, effects)
	}
}

// TestResumeRefusesChangedWorkflow is deliberate difference 6: a file
// edited since the pause is not resumed unless --allow-changed is given,
// and the refusal names the changed steps and leaves the token usable.
func TestResumeRefusesChangedWorkflow(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "w.lobster")
	os.WriteFile(file, []byte(gatedEffect), 0o644)
	token := pause(t, dir, "w.lobster")
	// A comment and new quoting change nothing; a new command does.
	os.WriteFile(file, []byte("# reviewed\n"+gatedEffect), 0o644)
	os.WriteFile(file, []byte(strings.Replace(gatedEffect, "echo once", "echo changed", 1)+"  - id: extra\n    run: \"true\"\n"), 0o644)
	out, code := lobsterIn(t, dir, nil, "resume", "--token", token, "--approve", "yes")
	if code != 2 || !strings.Contains(out, "steps changed: effect; steps added: extra") || !strings.Contains(out, "--allow-changed") {
		t.Fatalf("changed file: exit %d\n%s", code, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "effects")); err == nil {
		t.Fatal("a step ran")
	}
	out, code = lobsterIn(t, dir, nil, "resume", "--token", token, "--approve", "yes", "--allow-changed")
	effects, _ := os.ReadFile(filepath.Join(dir, "effects"))
	if code != 0 || string(effects) != "changed\n" {
		t.Fatalf("--allow-changed: exit %d, effects %q\n%s", code, effects, out)
	}
}

func TestResumeIgnoresCosmeticEdits(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "w.lobster")
	os.WriteFile(file, []byte(gatedEffect), 0o644)
	token := pause(t, dir, "w.lobster")
	os.WriteFile(file, []byte("# reviewed\n"+strings.Replace(gatedEffect, "approval: Go?", "approval: \"Go?\"  # asked", 1)), 0o644)
	if out, code := lobsterIn(t, dir, nil, "resume", "--token", token, "--approve", "yes"); code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

// TestReadmeRoundTrip follows the README: examples/deploy.lobster pauses
// at its approval, a resume without the required approver is refused, and
// ann's approval finishes the run.
func TestReadmeRoundTrip(t *testing.T) {
	example, err := filepath.Abs("../../examples/deploy.lobster")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, code := lobsterIn(t, dir, nil, "run", "--mode", "tool", example, "--args-json", `{"target":"prod"}`)
	var env struct {
		Status           string
		RequiresApproval struct {
			ApprovalID string
			Items      []map[string]any
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &env) != nil || env.Status != "needs_approval" || len(env.RequiresApproval.ApprovalID) != 8 {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	if out, code = lobsterIn(t, dir, nil, "resume", "--id", env.RequiresApproval.ApprovalID, "--approve", "yes"); code != 2 || !strings.Contains(out, "requires approver identity") {
		t.Fatalf("resume without approver: exit %d\n%s", code, out)
	}
	out, code = lobsterIn(t, dir, []string{"LOBSTER_APPROVAL_APPROVED_BY=ann"}, "resume", "--id", env.RequiresApproval.ApprovalID, "--approve", "yes")
	if code != 0 || !strings.Contains(out, `"deployed app-prod, approved by ann\n"`) {
		t.Fatalf("resume: exit %d\n%s", code, out)
	}
}

// TestResumeKeyAlias: a token whose state key is spelled workflow-resume_
// resumes the state written as workflow_resume_ (the reference accepts
// both), and nothing is left under either name.
func TestResumeKeyAlias(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "w.lobster"), []byte(gatedEffect), 0o644)
	token := pause(t, dir, "w.lobster")
	data, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		t.Fatal(err)
	}
	alias := base64.RawURLEncoding.EncodeToString(bytes.Replace(data, []byte("workflow_resume_"), []byte("workflow-resume_"), 1))
	if out, code := lobsterIn(t, dir, nil, "resume", "--token", alias, "--approve", "yes"); code != 0 {
		t.Fatalf("exit %d\n%s", code, out)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".state", "workflow*")); len(left) != 0 {
		t.Errorf("states left: %v", left)
	}
}

// TestForgedTokens: tokens lobster never issued name no state: an invented
// key, a key that tries to leave the state directory, and a pipeline token
// for a workflow state are all refused without touching anything.
func TestForgedTokens(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "w.lobster"), []byte(gatedEffect), 0o644)
	pause(t, dir, "w.lobster")
	os.WriteFile(filepath.Join(dir, "secret.json"), []byte(`{"filePath":"w.lobster","resumeAtIndex":2,"steps":{}}`), 0o644)
	for _, key := range []string{"workflow_resume_00000000-0000-4000-8000-000000000000", "../secret", "/etc/passwd"} {
		payload, _ := json.Marshal(map[string]any{"protocolVersion": 1, "v": 1, "kind": "workflow-file", "stateKey": key})
		token := base64.RawURLEncoding.EncodeToString(payload)
		out, code := lobsterIn(t, dir, nil, "resume", "--token", token, "--approve", "yes")
		if code != 2 || !strings.Contains(out, "Workflow resume state not found") {
			t.Errorf("key %q: exit %d\n%s", key, code, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "effects")); err == nil {
		t.Error("a forged token ran a step")
	}
}

// forge is a token for key, of kind.
func forge(kind, key string) string {
	payload, _ := json.Marshal(map[string]any{"protocolVersion": 1, "v": 1, "kind": kind, "stateKey": key})
	return base64.RawURLEncoding.EncodeToString(payload)
}

// TestResumeKeysByKind: a paused run's approval index, named by a forged
// token, can be neither cancelled nor resumed (exit 2, the index kept, the
// run still approvable by id); a spent token or id, a claimed state's
// tombstone, is refused with exit 2 as well, and cancelling it changes
// nothing.
func TestResumeKeysByKind(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "w.lobster"), []byte(gatedEffect), 0o644)
	out, code := lobsterIn(t, dir, nil, "run", "--mode", "tool", "w.lobster")
	var env struct {
		RequiresApproval struct{ ResumeToken, ApprovalID string }
	}
	if code != 0 || json.Unmarshal([]byte(out), &env) != nil || env.RequiresApproval.ApprovalID == "" {
		t.Fatalf("run did not pause with an id (exit %d):\n%s", code, out)
	}
	token, id := env.RequiresApproval.ResumeToken, env.RequiresApproval.ApprovalID
	index := filepath.Join(dir, ".state", "approval_"+id+".json")
	for _, args := range [][]string{{"--cancel"}, {"--approve", "yes"}, {"--approve", "no"}} {
		for _, kind := range []string{"workflow-file", "pipeline-resume"} {
			out, code := lobsterIn(t, dir, nil, append([]string{"resume", "--token", forge(kind, "approval_"+id)}, args...)...)
			if code != 2 || !strings.Contains(out, "esume state not found") {
				t.Errorf("%s token for the index, %v: exit %d\n%s", kind, args, code, out)
			}
			if _, err := os.Stat(index); err != nil {
				t.Fatalf("%s token for the index, %v: the index is gone", kind, args)
			}
		}
	}
	if out, code := lobsterIn(t, dir, nil, "resume", "--id", id, "--approve", "yes"); code != 0 {
		t.Fatalf("resume by id after the forgeries: exit %d\n%s", code, out)
	}
	// Spent: the token and the id.
	for _, args := range [][]string{
		{"--token", token, "--approve", "yes"}, {"--token", token, "--cancel"},
		{"--id", id, "--approve", "yes"}, {"--id", id, "--cancel"},
	} {
		if out, code := lobsterIn(t, dir, nil, append([]string{"resume"}, args...)...); code != 2 {
			t.Errorf("replayed %v: exit %d\n%s", args, code, out)
		}
	}
	if effects, _ := os.ReadFile(filepath.Join(dir, "effects")); string(effects) != "once\n" {
		t.Errorf("effects %q, want once", effects)
	}
	// A resume killed after its claim leaves a tombstone: the token is
	// refused and a cancel changes nothing.
	token = pause(t, dir, "w.lobster")
	states, _ := filepath.Glob(filepath.Join(dir, ".state", "workflow_resume_*.json"))
	if len(states) != 1 {
		t.Fatalf("states: %v", states)
	}
	stone := `{"type":"lobster.consumed-resume-state.v1","consumedAt":"2026-12-02T05:24:11.635Z","claimId":"0a1b"}` + "\n"
	os.WriteFile(states[0], []byte(stone), 0o600)
	for _, args := range [][]string{{"--approve", "yes"}, {"--cancel"}} {
		out, code := lobsterIn(t, dir, nil, append([]string{"resume", "--token", token}, args...)...)
		if code != 2 || !strings.Contains(out, "esume state not found") {
			t.Errorf("tombstone, %v: exit %d\n%s", args, code, out)
		}
	}
	if now, _ := os.ReadFile(states[0]); string(now) != stone {
		t.Errorf("the tombstone changed:\n%s", now)
	}
}

// pauseInput runs the workflow in tool mode and returns the token of its
// input request and the saved state.
func pauseInput(t *testing.T, dir string, args ...string) (token string, saved map[string]any) {
	t.Helper()
	out, code := lobsterIn(t, dir, nil, args...)
	var env struct {
		Status        string
		RequiresInput struct{ ResumeToken string }
	}
	if code != 0 || json.Unmarshal([]byte(out), &env) != nil || env.Status != "needs_input" {
		t.Fatalf("no input pause (exit %d):\n%s", code, out)
	}
	data, _ := base64.RawURLEncoding.DecodeString(env.RequiresInput.ResumeToken)
	var tok struct{ StateKey string }
	json.Unmarshal(data, &tok)
	text, err := os.ReadFile(filepath.Join(dir, ".state", tok.StateKey+".json"))
	if err != nil || json.Unmarshal(text, &saved) != nil {
		t.Fatalf("state %s: %v", tok.StateKey, err)
	}
	return env.RequiresInput.ResumeToken, saved
}

// TestPipelineAskState: a pipeline step that asks saves the reference's
// pipeline_command state: the stages, the stage that
// asked, the step's items; a second ask pauses again at stage 1.
func TestPipelineAskState(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "w.lobster"), []byte(`steps:
  - id: draft
    run: echo '[{"id":1}]'
  - id: choose
    pipeline: ask --prompt First | ask --prompt Second
    stdin: $draft.json
`), 0o644)
	token, saved := pauseInput(t, dir, "run", "--mode", "tool", "w.lobster")
	p, _ := saved["pipelineInput"].(map[string]any)
	if saved["inputKind"] != "pipeline_command" || saved["inputStepId"] != "choose" || saved["resumeAtIndex"] != 1.0 ||
		p["resumeAtIndex"] != 0.0 || len(p["pipeline"].([]any)) != 2 || fmt.Sprint(p["items"]) != "[map[id:1]]" {
		t.Fatalf("first state: %v", saved)
	}
	_, saved = pauseInput(t, dir, "resume", "--token", token, "--response-json", `{"decision":"approve"}`)
	if p, _ := saved["pipelineInput"].(map[string]any); p["resumeAtIndex"] != 1.0 {
		t.Fatalf("second state: %v", saved)
	}
}

// TestPipelineAskInvariants: with --allow-changed, a
// resume still refuses a pipeline or a condition that changed, runs
// nothing and keeps the token.
func TestPipelineAskInvariants(t *testing.T) {
	const wf = `steps:
  - id: gate
    run: echo '{"ok":true}'
  - id: choose
    pipeline: ask --prompt Pick | exec --shell 'echo ran >> effects'
    when: $gate.json.ok
`
	for _, tc := range []struct{ edited, want string }{
		{strings.Replace(wf, " | exec --shell 'echo ran >> effects'", "", 1), "workflow pipeline changed since input request"},
		{strings.Replace(wf, "$gate.json.ok", "$gate.json.missing", 1), "workflow input step condition changed since input request"},
	} {
		dir := t.TempDir()
		file := filepath.Join(dir, "w.lobster")
		os.WriteFile(file, []byte(wf), 0o644)
		token, _ := pauseInput(t, dir, "run", "--mode", "tool", "w.lobster")
		os.WriteFile(file, []byte(tc.edited), 0o644)
		if out, code := lobsterIn(t, dir, nil, "resume", "--token", token, "--response-json", `{"decision":"approve"}`); code != 2 || !strings.Contains(out, "steps changed: choose") {
			t.Errorf("without --allow-changed: exit %d\n%s", code, out)
		}
		out, code := lobsterIn(t, dir, nil, "resume", "--token", token, "--response-json", `{"decision":"approve"}`, "--allow-changed")
		if code != 1 || !strings.Contains(out, tc.want) {
			t.Errorf("%s: exit %d\n%s", tc.want, code, out)
		}
		if _, err := os.Stat(filepath.Join(dir, "effects")); err == nil {
			t.Errorf("%s: a step ran", tc.want)
		}
		os.WriteFile(file, []byte(wf), 0o644)
		if out, code := lobsterIn(t, dir, nil, "resume", "--token", token, "--response-json", `{"decision":"approve"}`); code != 0 {
			t.Errorf("%s: the token was spent: exit %d\n%s", tc.want, code, out)
		}
	}
}

// TestResumeRefusesChangedChild: a composed child edited since the pause
// counts as a change of the workflow (deliberate difference 6).
func TestResumeRefusesChangedChild(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "w.lobster"), []byte("steps:\n  - id: gate\n    approval: Go?\n  - id: sub\n    workflow: kids/child.lobster\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "kids"), 0o755)
	child := filepath.Join(dir, "kids", "child.lobster")
	os.WriteFile(child, []byte("steps:\n  - id: c\n    run: echo old\n"), 0o644)
	token := pause(t, dir, "w.lobster")
	os.WriteFile(child, []byte("# new\nsteps:\n  - id: c\n    run: echo new\n"), 0o644)
	out, code := lobsterIn(t, dir, nil, "resume", "--token", token, "--approve", "yes")
	if code != 2 || !strings.Contains(out, "sub-workflows changed: kids/child.lobster") {
		t.Fatalf("changed child: exit %d\n%s", code, out)
	}
	out, code = lobsterIn(t, dir, nil, "resume", "--token", token, "--approve", "yes", "--allow-changed")
	if code != 0 || !strings.Contains(out, `"new\n"`) {
		t.Fatalf("--allow-changed: exit %d\n%s", code, out)
	}
}
