//go:build unix

package temporal_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/state"
	"github.com/lobsterdev/lobster/runtime/temporal"
	"github.com/lobsterdev/lobster/runtime/temporal/temporaltest"
)

// both runs the workflow file at path on the local engine and on
// Temporal's test environment and returns each envelope (or error).
func both(t *testing.T, dir, path string, env []string) (local, onTemporal string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := parser.Parse(path, src)
	show := func(res envelope.Result, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		return jsvalue.Stringify(envelope.Tool(res), "")
	}
	os.Remove(filepath.Join(dir, "n"))
	local = show(engine.Run(context.Background(), f, engine.Options{Env: env, FilePath: path, Dir: dir, StateDir: filepath.Join(dir, ".state")}))
	os.Remove(filepath.Join(dir, "n"))
	e := temporaltest.Engine(&temporal.Activities{Env: env})
	defer e.Close()
	onTemporal = show(e.Run(context.Background(), temporal.RunRequest{File: f, Path: path, Env: env, Dir: dir}))
	return local, onTemporal
}

// TestSameEnvelopes: the same workflows give the same envelopes on both
// engines, through every step kind and policy.
func TestSameEnvelopes(t *testing.T) {
	tests := map[string]string{
		"sequence": `
steps:
  - id: a
    run: echo '{"n":[1,2]}'
  - id: b
    run: cat
    stdin: $a.json.n
  - id: c
    run: echo "$LOBSTER_ARG_WHO got $B"
    env:
      B: $b.stdout
args:
  who: {default: you}
`,
		"parallel all and any": `
steps:
  - id: all
    parallel:
      branches:
        - id: x
          run: echo '"x"'
        - id: y
          run: echo 2
  - id: any
    parallel:
      wait: any
      branches:
        - id: fast
          run: echo fast
        - id: slow
          run: sleep 5; echo slow
  - id: show
    run: echo "$ALL $ANY"
    env:
      ALL: $all.stdout
      ANY: $any.stdout
`,
		"loop with pause": `
steps:
  - id: items
    run: echo '["a","b","c"]'
  - id: each
    for_each: $items.json
    batch_size: 2
    pause_ms: 50
    steps:
      - id: up
        run: echo "$ITEM" | tr a-z A-Z
        env:
          ITEM: $item.stdout
`,
		"on_error and retry": `
steps:
  - id: flaky
    run: n=$(cat n 2>/dev/null || echo 0); n=$((n+1)); echo $n > n; [ $n -ge 2 ] && echo '{"tries":'$n'}' || exit 3
    retry: {max: 3, delay_ms: 5, backoff: exponential}
  - id: bad
    run: echo nope >&2; exit 4
    on_error: continue
  - id: report
    run: echo "$E"
    env:
      E: $bad.errorMessage
`,
		"timeout": `
steps:
  - id: slow
    run: sleep 5
    timeout_ms: 200
`,
		"parallel timeout": `
steps:
  - id: p
    parallel:
      timeout_ms: 200
      branches:
        - id: s
          run: sleep 5
`,
		"sub-workflow": `
steps:
  - id: sub
    workflow: child.lobster
    workflow_args: {n: 3}
  - id: after
    run: echo "child said $C"
    env:
      C: $sub.json.said
`,
		"cost limit": `
cost_limit: {max_usd: 0.001, action: stop}
steps:
  - id: llm
    run: echo '{"model":"gpt-4o","usage":{"input_tokens":1000}}'
  - id: never
    run: echo no
`,
		"condition skips": `
steps:
  - id: a
    run: echo '{"ok":false}'
  - id: b
    run: echo ran
    when: $a.json.ok
`,
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "child.lobster"), []byte(`
args:
  n: {default: 1}
steps:
  - id: c
    run: printf '{"said":"%s"}' "$LOBSTER_ARG_N"
`), 0o644)
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	for name, src := range tests {
		t.Run(strings.ReplaceAll(name, " ", "-"), func(t *testing.T) {
			os.Remove(filepath.Join(dir, "n"))
			path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".lobster")
			os.WriteFile(path, []byte(src), 0o644)
			local, onTemporal := both(t, dir, path, env)
			os.Remove(filepath.Join(dir, "n"))
			if local != onTemporal {
				t.Errorf("local:    %s\ntemporal: %s", local, onTemporal)
			}
		})
	}
}

// TestJanitor: lobster state list shows the runs paused on Temporal, with
// what a local list shows of them; prune --older-than cancels the ones
// paused longer, and only those.
func TestJanitor(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gate.lobster")
	os.WriteFile(path, []byte(`
steps:
  - id: build
    run: echo built
  - id: confirm
    approval: {prompt: Ship it?}
`), 0o644)
	f, _ := parser.Parse(path, mustRead(t, path))
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	e := temporaltest.Engine(&temporal.Activities{Env: env})
	defer e.Close()
	ctx := context.Background()
	res, err := e.Run(ctx, temporal.RunRequest{File: f, Path: path, Env: env, Dir: dir})
	if err != nil || res.Status != envelope.StatusNeedsApproval {
		t.Fatalf("run: %+v %v", res, err)
	}
	j := e.Janitor()
	paused, err := j.Paused(ctx, time.Now())
	if err != nil || len(paused) != 1 {
		t.Fatalf("paused: %+v %v", paused, err)
	}
	p := paused[0]
	id, _ := res.RequiresApproval.Get("approvalId")
	token, _ := res.RequiresApproval.Get("resumeToken")
	if p.Waiting != "approval" || p.Step != "confirm" || p.Workflow != path || p.ApprovalID != id ||
		p.Token != token || p.Kind != state.KindWorkflow || p.CreatedAt.IsZero() {
		t.Errorf("paused run: %+v\nrun: %s", p, jsvalue.Stringify(res.RequiresApproval, ""))
	}
	removed, err := j.Prune(ctx, state.PruneOptions{OlderThan: time.Hour, Now: p.CreatedAt.Add(time.Minute)})
	if err != nil || len(removed) != 0 {
		t.Fatalf("prune of a young run: %+v %v", removed, err)
	}
	later := p.CreatedAt.Add(2 * time.Hour)
	removed, err = j.Prune(ctx, state.PruneOptions{OlderThan: time.Hour, Now: later, DryRun: true})
	if err != nil || len(removed) != 1 {
		t.Fatalf("dry run: %+v %v", removed, err)
	}
	if paused, _ := j.Paused(ctx, later); len(paused) != 1 {
		t.Fatalf("a dry run cancelled: %+v", paused)
	}
	removed, err = j.Prune(ctx, state.PruneOptions{OlderThan: time.Hour, Now: later})
	if err != nil || len(removed) != 1 || removed[0].What != state.WhatPausedRun || !strings.HasPrefix(removed[0].File, temporal.WorkflowIDPrefix) {
		t.Fatalf("prune: %+v %v", removed, err)
	}
	if paused, err := j.Paused(ctx, later); err != nil || len(paused) != 0 {
		t.Fatalf("after prune: %+v %v", paused, err)
	}
	if _, err := e.Resume(ctx, temporal.Resume{Token: p.Token, Approve: ptr(true)}); err == nil {
		t.Error("a pruned run resumed")
	}
}

func mustRead(t *testing.T, path string) []byte {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func ptr[T any](v T) *T { return &v }
