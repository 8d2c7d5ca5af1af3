//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
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
// standard output gets. The progress says, in one line, that the step ran
// and waits, then that it was approved.
func TestTerminalApproval(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "w.lobster", gatedDeploy)
	s := startPTY(t, dir, []string{"LOBSTER_APPROVAL_APPROVED_BY=ann"}, "run", "w.lobster")
	s.expect("\r\x1b[2K\x1b[33m⏸\x1b[m [1/2] deploy  ")
	s.expect("waiting for approval\n")
	s.expect("Approval needed: step deploy\n")
	s.expect("  Preview:\n    app-prod\n    checks passed\n")
	s.expect("  Approver: ann only; you are ann (LOBSTER_APPROVAL_APPROVED_BY)\n")
	s.expect("Deploy app-prod? [y/N] ")
	s.send("y\n")
	s.expect("\x1b[32m✓\x1b[m [1/2] deploy  approved\n")
	s.expect("\x1b[32m✓\x1b[m [2/2] ship  ")
	if code := s.wait(); code != 0 {
		t.Fatalf("exit %d:\n%s", code, s.text())
	}
	var deploy []string
	for _, l := range screenLines(s.text()) {
		if strings.Contains(l, "[1/2] deploy") {
			deploy = append(deploy, l)
		}
	}
	if len(deploy) != 2 {
		t.Errorf("the lines about deploy are %q, want 2 (waiting, approved)", deploy)
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
		want := "lobster: Workflow step deploy approval requires approver identity; set LOBSTER_APPROVAL_APPROVED_BY\n"
		if env != nil {
			want = "lobster: Workflow step deploy approval requires approver 'ann', got 'bob'\n"
		}
		if !strings.Contains(text, want) {
			t.Errorf("%v: no %q in\n%s", env, want, text)
		}
		if s.out.Len() != 0 {
			t.Errorf("%v: stdout %q", env, s.out.String())
		}
	}
}

// screenLines are the lines a terminal shows for text: of a line redrawn
// in place ("\r", erase), what was drawn last, without colours.
func screenLines(text string) []string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if i := strings.LastIndex(l, "\r"); i >= 0 {
			l = l[i+1:]
		}
		lines = append(lines, ansi.Strip(l))
	}
	return lines
}

// TestTerminalApprovalRefused: "n" stops the run at the gate, and says so.
func TestTerminalApprovalRefused(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "w.lobster", gatedDeploy)
	s := startPTY(t, dir, []string{"LOBSTER_APPROVAL_APPROVED_BY=ann"}, "run", "w.lobster")
	s.expect("Deploy app-prod? [y/N] ")
	s.send("n\n")
	s.expect("lobster: step deploy was not approved: nothing after it ran\n")
	if code := s.wait(); code != 1 {
		t.Errorf("exit %d, want 1:\n%s", code, s.text())
	}
	if text := ansi.Strip(s.text()); strings.Contains(text, "ship") || strings.Contains(text, "approved\n") {
		t.Errorf("the run went on:\n%s", text)
	}
	if s.out.Len() != 0 {
		t.Errorf("stdout %q", s.out.String())
	}
}

// TestTerminalResumeUsage: lobster resume without arguments, typed at a
// terminal, prints its usage, not the envelope a program gets.
func TestTerminalResumeUsage(t *testing.T) {
	s := startTerminal(t, t.TempDir(), nil, "resume")
	if code := s.wait(); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	text := s.text()
	if !strings.HasPrefix(text, "usage: lobster resume (--token TOKEN | --id ID) ") || !strings.HasSuffix(text, "Run \"lobster help resume\" for details.\n") || strings.Contains(text, "{") {
		t.Errorf("the terminal showed:\n%s", text)
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
	s.expect("\x1b[32m✓\x1b[m [1/2] ask  ")
	s.expect("\x1b[32m✓\x1b[m [2/2] show  ")
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

	// A step that fails: its line stays, marked, then the run's error
	// names it, with the end of its standard error.
	writeFile(t, dir, "fail.lobster", "steps:\n  - id: build\n    run: echo 'no rule to make app' >&2; exit 2\n  - id: after\n    run: echo never\n")
	s = startPTY(t, dir, nil, "run", "fail.lobster")
	s.expect("\r\x1b[2K⠋ [1/2] build  0.0s")
	s.expect("\x1b[31m✗\x1b[m [1/2] build  failed after ")
	s.expect("lobster: step build failed: its command exited with status 2\n  stderr:\n    no rule to make app\n")
	if code := s.wait(); code != 1 {
		t.Errorf("exit %d, want 1:\n%s", code, s.text())
	}
	if text := s.text(); strings.Contains(text, "[2/2]") || s.out.Len() != 0 {
		t.Errorf("the run went on; stdout %q:\n%s", s.out.String(), text)
	}

	// --progress none: nothing but the run's own log.
	os.Remove(filepath.Join(dir, "once"))
	s = startPTY(t, dir, nil, "run", "--progress", "none", "w.lobster")
	s.wait()
	if text := s.text(); text != "[RETRY] Step 'flaky' failed (attempt 1/2): workflow command failed (1): boom. Retrying in 10ms...\n" {
		t.Errorf("--progress none showed:\n%q", text)
	}
}

// TestTerminalEscapes: on a terminal, text from the file does not reach it
// as control characters: the diff of check --diff (which is byte for byte
// when piped) and the progress lines of a run show them escaped.
func TestTerminalEscapes(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "fix.lobster", "args:\n  name: {default: x}\nsteps:\n  - id: a\n    run: echo {{ name }} # \x1b]0;pwned\a \x1b[2J\rFAKE\n")
	writeFile(t, dir, "w.lobster", "steps:\n  - id: \"clear\\e[2J\\e]0;pwned\\a\"\n    run: echo hi\n")
	bad := []string{"\x1b]", "\x1b[2J", "\a", "\rFAKE"}
	for _, args := range [][]string{{"check", "--diff", "fix.lobster"}, {"run", "w.lobster"}} {
		s := startTerminal(t, dir, nil, args...)
		s.wait()
		screen := s.text()
		for _, b := range bad {
			if strings.Contains(screen, b) {
				t.Errorf("lobster %s: the terminal got %q:\n%q", strings.Join(args, " "), b, screen)
			}
		}
		want := `\x1b]0;pwned\a`
		if args[0] == "check" {
			want += ` \x1b[2J\rFAKE`
		}
		if !strings.Contains(screen, want) {
			t.Errorf("lobster %s: %q not shown:\n%s", strings.Join(args, " "), want, screen)
		}
	}
	// Text a pipeline command renders itself is escaped on a terminal.
	s := startTerminal(t, dir, nil, `exec --shell "printf 'x\033[2J\342\200\256y'" | table`)
	s.wait()
	if screen := s.text(); !strings.Contains(screen, `x\x1b[2J\u202ey`) || strings.Contains(screen, "\x1b[2J") {
		t.Errorf("table on a terminal: %q", screen)
	}
	// Piped, the diff is exact, for patch(1).
	var out bytes.Buffer
	cmd := exec.Command("lobster", "check", "--diff", "fix.lobster")
	cmd.Dir, cmd.Stdout = dir, &out
	cmd.Run()
	if !strings.Contains(out.String(), "# \x1b]0;pwned\a \x1b[2J\rFAKE\n") {
		t.Errorf("piped diff:\n%q", out.String())
	}
}
