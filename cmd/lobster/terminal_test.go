//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFile writes a workflow file into dir.
func writeFile(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

const gatedDeploy = `steps:
  - id: deploy
    run: printf 'app-prod\nchecks passed\n'
    approval:
      prompt: Deploy app-prod?
      required_approver: ann
  - id: ship
    run: printf 'shipped, approved by %s\n' "$WHO"
    env:
      WHO: $deploy.approvedBy
`

// TestTerminalApproval: on a terminal an approval shows its prompt,
// preview and who may approve, then asks; the answer's output is all that
// standard output gets.
func TestTerminalApproval(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "w.lobster", gatedDeploy)
	s := startPTY(t, dir, []string{"LOBSTER_APPROVAL_APPROVED_BY=ann"}, "run", "w.lobster")
	s.expect("Approval needed: step deploy\n")
	s.expect("  Preview:\n    app-prod\n    checks passed\n")
	s.expect("  Approver: ann only; you are ann (LOBSTER_APPROVAL_APPROVED_BY)\n")
	s.expect("Deploy app-prod? [y/N] ")
	s.send("y\n")
	if code := s.wait(); code != 0 {
		t.Fatalf("exit %d:\n%s", code, s.text())
	}
	if got, want := s.out.String(), "[\n  \"shipped, approved by ann\\n\"\n]\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, ".state")); len(entries) != 0 {
		t.Errorf("an interactive run wrote state: %v", entries)
	}
}

// TestTerminalApprovalChecksApproverFirst: without the approver the
// policy needs, the run stops before anyone is asked.
func TestTerminalApprovalChecksApproverFirst(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "w.lobster", gatedDeploy)
	for _, env := range [][]string{nil, {"LOBSTER_APPROVAL_APPROVED_BY=bob"}} {
		s := startPTY(t, dir, env, "run", "w.lobster")
		code := s.wait()
		text := s.text()
		if code != 1 || strings.Contains(text, "[y/N]") || !strings.Contains(text, "Approval needed: step deploy\n") {
			t.Errorf("%v: exit %d, want 1 and no question:\n%s", env, code, text)
		}
		want := "lobster: step deploy: Workflow step deploy approval requires approver identity; set LOBSTER_APPROVAL_APPROVED_BY\n"
		if env != nil {
			want = "lobster: step deploy: Workflow step deploy approval requires approver 'ann', got 'bob'\n"
		}
		if !strings.Contains(text, want) {
			t.Errorf("%v: no %q in\n%s", env, want, text)
		}
		if s.out.Len() != 0 {
			t.Errorf("%v: stdout %q", env, s.out.String())
		}
	}
}

const inputGate = `steps:
  - id: ask
    input:
      prompt: How many?
      responseSchema: {type: object, required: [count], properties: {count: {type: integer}}}
  - id: show
    run: echo "count $N"
    env:
      N: $ask.response.count
`

// TestTerminalInput: an input gate shows its schema and asks again after
// an answer that is not JSON or does not match it.
func TestTerminalInput(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "w.lobster", inputGate)
	s := startPTY(t, dir, nil, "run", "w.lobster")
	s.expect("Input needed: step ask\n")
	s.expect(`  Schema: {"type":"object","required":["count"],"properties":{"count":{"type":"integer"}}}`)
	s.expect("How many?\nEnter JSON response: ")
	s.send("three\n")
	s.expect("  Not JSON: invalid character 'h' in literal true (expecting 'r'). Try again, or Ctrl-D to cancel the run.\nEnter JSON response: ")
	s.send("{\"count\": 3.5}\n")
	s.expect("  Does not match the schema at /count: must be integer. Try again, or Ctrl-D to cancel the run.\nEnter JSON response: ")
	s.send("{\"count\": 3}\n")
	if code := s.wait(); code != 0 {
		t.Fatalf("exit %d:\n%s", code, s.text())
	}
	if got, want := s.out.String(), "[\n  \"count 3\\n\"\n]\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}
}

// TestTerminalInputCtrlD: Ctrl-D at an input gate cancels the run cleanly.
func TestTerminalInputCtrlD(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "w.lobster", inputGate)
	s := startPTY(t, dir, nil, "run", "w.lobster")
	s.expect("Enter JSON response: ")
	s.send("\x04")
	code := s.wait()
	text := s.text()
	if code != 1 || !strings.Contains(text, "lobster: cancelled at step ask: nothing after it ran\n") {
		t.Errorf("exit %d, want 1 and a cancellation:\n%s", code, text)
	}
	if s.out.Len() != 0 || strings.Contains(text, "panic") {
		t.Errorf("stdout %q\n%s", s.out.String(), text)
	}
}

const progressFlow = `steps:
  - id: fetch
    run: echo '{"n":1}'
  - id: flaky
    run: test -f once || { touch once; echo boom >&2; exit 1; }
    retry: {max: 2, delay_ms: 10}
  - id: skip
    run: echo never
    when: false
  - id: last
    run: echo done
`

// TestTerminalProgress: on a terminal each step shows a status line that
// is redrawn in place while it runs, then a line that stays; standard
// output gets the output items only.
func TestTerminalProgress(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "w.lobster", progressFlow)
	s := startPTY(t, dir, nil, "run", "w.lobster")
	s.expect("\r\x1b[2K⠋ [1/4] fetch  0.0s")
	s.expect("\x1b[32m✓\x1b[m [1/4] fetch  ")
	s.expect(" [2/4] flaky  ")
	s.expect("  attempt 1/2 failed, retrying in ")
	s.expect("[RETRY] Step 'flaky' failed (attempt 1/2): workflow command failed (1): boom. Retrying in 10ms...\n")
	s.expect("✓\x1b[m [2/4] flaky  ")
	s.expect("\x1b[2m-\x1b[m [3/4] skip  skipped\n")
	s.expect("✓\x1b[m [4/4] last  ")
	if code := s.wait(); code != 0 {
		t.Fatalf("exit %d:\n%s", code, s.text())
	}
	if got, want := s.out.String(), "[\n  \"done\\n\"\n]\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}

	// NO_COLOR: the same, without colours.
	os.Remove(filepath.Join(dir, "once"))
	s = startPTY(t, dir, []string{"NO_COLOR=1"}, "run", "w.lobster")
	s.expect("✓ [1/4] fetch  ")
	s.expect("- [3/4] skip  skipped\n")
	s.wait()
	if text := s.text(); strings.Contains(text, "\x1b[3") || strings.Contains(text, "\x1b[2m") {
		t.Errorf("colours with NO_COLOR:\n%q", text)
	}

	// --progress none: nothing but the run's own log.
	os.Remove(filepath.Join(dir, "once"))
	s = startPTY(t, dir, nil, "run", "--progress", "none", "w.lobster")
	s.wait()
	if text := s.text(); text != "[RETRY] Step 'flaky' failed (attempt 1/2): workflow command failed (1): boom. Retrying in 10ms...\n" {
		t.Errorf("--progress none showed:\n%q", text)
	}
}
