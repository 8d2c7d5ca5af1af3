//go:build unix

package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/state"
)

// TestOnStep follows a run through its events: started, skipped, a failure
// that on_error continues past, a sub-workflow reported as one step, and
// the pause at an approval gate.
func TestOnStep(t *testing.T) {
	dir := t.TempDir()
	child := "steps:\n  - id: inner\n    run: echo inner\n"
	if err := os.WriteFile(dir+"/child.lobster", []byte(child), 0o600); err != nil {
		t.Fatal(err)
	}
	src := `steps:
  - id: a
    run: echo a
  - id: b
    run: echo b
    when: false
  - id: c
    run: exit 3
    on_error: continue
  - id: d
    workflow: ./child.lobster
  - id: gate
    run: echo ok
    approval: required
  - id: after
    run: echo never
`
	path := dir + "/w.lobster"
	f, _ := parser.Parse(path, []byte(src))
	var got []string
	res, err := Run(context.Background(), f, Options{
		Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}, FilePath: path, StateDir: dir + "/state",
		OnStep: func(e StepEvent) {
			s := fmt.Sprintf("%d/%d %s %s", e.Index, e.Total, e.ID, e.Phase)
			if e.Err != nil {
				s += " (failed)"
			}
			if e.Gate != "" {
				s += " (" + e.Gate + ")"
			}
			got = append(got, s)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != "needs_approval" {
		t.Errorf("status %s, want needs_approval", res.Status)
	}
	want := []string{
		"0/6 a started", "0/6 a finished",
		"1/6 b skipped",
		"2/6 c started", "2/6 c finished (failed)",
		"3/6 d started", "3/6 d finished",
		"4/6 gate started", "4/6 gate finished", "4/6 gate waiting (approval)", "4/6 gate paused (approval)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestApprovalRequestRebuilt: the request rebuilt from a pause's state is
// the one the pause's envelope showed.
func TestApprovalRequestRebuilt(t *testing.T) {
	dir := t.TempDir()
	src := `steps:
  - id: build
    run: echo 2
  - id: gate
    run: printf 'deploy v2'
    approval:
      prompt: Ship it?
      required_approver: alice
  - id: after
    run: echo done
`
	path := dir + "/w.lobster"
	f, _ := parser.Parse(path, []byte(src))
	res, key := runToApproval(t, f, Options{
		Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}, FilePath: path, StateDir: dir + "/state",
	})
	rs, err := LoadResume(context.Background(), &state.Store{Dir: dir + "/state"}, key)
	if err != nil {
		t.Fatal(err)
	}
	want := res.RequiresApproval
	want.Delete("resumeToken")
	want.Delete("approvalId")
	got := rs.ApprovalRequest(f)
	if got == nil || jsvalue.Stringify(got, "") != jsvalue.Stringify(want, "") {
		t.Errorf("rebuilt %s\nwant    %s", jsvalue.Stringify(got, ""), jsvalue.Stringify(want, ""))
	}
	other, _ := parser.Parse(path, []byte("steps:\n  - id: x\n    run: echo\n"))
	if rs.ApprovalRequest(other) != nil {
		t.Error("a request for a file without the gate's step")
	}
}

// runToApproval runs f, which must pause at an approval, and returns the
// pause's result and the state key of its token.
func runToApproval(t *testing.T, f *ast.File, opts Options) (envelope.Result, string) {
	t.Helper()
	res, err := Run(context.Background(), f, opts)
	if err != nil || res.RequiresApproval == nil {
		t.Fatalf("run: %v %+v", err, res)
	}
	token, _ := res.RequiresApproval.Get("resumeToken")
	tok, err := state.DecodeToken(token.(string))
	if err != nil {
		t.Fatal(err)
	}
	return res, tok.StateKey
}

// TestOnStepRetriesAndWaits: a failed attempt that is retried, and a gate
// that a terminal answers, are reported with their details.
func TestOnStepRetriesAndWaits(t *testing.T) {
	dir := t.TempDir()
	src := `steps:
  - id: flaky
    run: test -f "$HOME/once" || { touch "$HOME/once"; echo nope >&2; exit 1; }
    retry: {max: 3, delay_ms: 5}
  - id: ask
    input: {prompt: Name?, responseSchema: {type: string}}
`
	path := dir + "/w.lobster"
	f, _ := parser.Parse(path, []byte(src))
	var got []string
	res, err := Run(context.Background(), f, Options{
		Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}, FilePath: path, StateDir: dir + "/state",
		Terminal: &Terminal{In: bufio.NewReader(strings.NewReader("\"ann\"\n")), Out: io.Discard},
		OnStep: func(e StepEvent) {
			s := fmt.Sprintf("%d/%d %s %s", e.Index, e.Total, e.ID, e.Phase)
			if e.Phase == StepRetrying {
				s += fmt.Sprintf(" %d/%d %v: %v", e.Attempt, e.MaxAttempts, e.Delay, e.Err)
			}
			if e.Gate != "" {
				s += " (" + e.Gate + ")"
			}
			got = append(got, s)
		},
	})
	if err != nil || res.Status != "ok" {
		t.Fatalf("%v %v", res.Status, err)
	}
	want := []string{
		"0/2 flaky started", "0/2 flaky retrying 1/3 5ms: workflow command failed (1): nope", "0/2 flaky finished",
		"1/2 ask started", "1/2 ask waiting (input)", "1/2 ask finished",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
