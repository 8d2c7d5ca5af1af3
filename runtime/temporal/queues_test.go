//go:build unix

package temporal

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	sdk "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/engine"
)

// workers is a test environment whose activities run on the worker
// serving the task queue they were scheduled on, as on a Temporal
// service: a worker is the Activities of the queue it serves (each with
// its own environment), and an activity scheduled on a queue no worker
// serves fails the test. The test environment itself has one registry for
// every queue.
type workers struct {
	t     *testing.T
	env   *testsuite.TestWorkflowEnvironment
	mu    sync.Mutex
	ran   []string // step@queue of each command, load@queue of each file read
	serve map[string]*Activities
}

func newWorkers(t *testing.T, runQueue string, serve map[string]*Activities) *workers {
	var s testsuite.WorkflowTestSuite
	s.SetLogger(sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	w := &workers{t: t, env: s.NewTestWorkflowEnvironment(), serve: serve}
	w.env.SetDataConverter(DataConverter())
	w.env.SetTestTimeout(5 * time.Minute)
	w.env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: DeadlockDetectionTimeout})
	w.env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: WorkflowIDPrefix + "queues", TaskQueue: runQueue})
	RegisterWorkflows(w.env)
	w.env.RegisterActivityWithOptions(func(ctx context.Context, in *commandInput) (*commandOutput, error) {
		a, err := w.worker(ctx, in.ID)
		if err != nil {
			return nil, err
		}
		return a.Command(ctx, in)
	}, activity.RegisterOptions{Name: commandActivity})
	w.env.RegisterActivityWithOptions(func(ctx context.Context, path string) (*engine.Loaded, error) {
		a, err := w.worker(ctx, "load")
		if err != nil {
			return nil, err
		}
		return a.Load(ctx, path)
	}, activity.RegisterOptions{Name: loadActivity})
	return w
}

// worker is the Activities of the queue ctx's activity was scheduled on.
func (w *workers) worker(ctx context.Context, what string) (*Activities, error) {
	q := activity.GetInfo(ctx).TaskQueue
	w.mu.Lock()
	w.ran = append(w.ran, what+"@"+q)
	w.mu.Unlock()
	a := w.serve[q]
	if a == nil {
		w.t.Errorf("%s was scheduled on task queue %q, which no worker serves", what, q)
		return nil, sdk.NewNonRetryableApplicationError("no worker serves "+q, "test", nil)
	}
	return a, nil
}

// TestRoutedStepsRunOnTheirQueuesWorker: with the project's routes, each
// command of a routed step (a top-level step, a pipeline, a loop's
// sub-step, a parallel branch, a sub-workflow's step) is scheduled on its
// route's task queue and runs on the worker serving it, with that worker's
// environment; every other command, and the reading of the sub-workflow's
// file, on the run's own queue.
func TestRoutedStepsRunOnTheirQueuesWorker(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".lobsterrc.yaml"), []byte(`
temporal:
  task_queue: team
  routes:
    - steps: ["train*", eval]
      task_queue: gpu
`), 0o644)
	// Each command appends its step and its worker's name to ran.log, in
	// the run's directory (not the test's).
	note := func(id string) string { return `echo "` + id + ` $WORKER" >> ran.log` }
	os.WriteFile(filepath.Join(dir, "child.lobster"), []byte(`steps:
  - id: train-child
    run: `+note("train-child")+`
  - id: report
    run: `+note("report")+`
`), 0o644)
	path := filepath.Join(dir, "w.lobster")
	src := `steps:
  - id: fetch
    run: ` + note("fetch") + `; echo '["a","b"]'
  - id: train
    pipeline: exec --shell '` + note("train") + `'
  - id: each
    for_each: $fetch.json
    steps:
      - id: train-item
        run: ` + note("train-item") + `
  - id: checks
    parallel:
      branches:
        - id: eval
          run: ` + note("eval") + `
        - id: lint
          run: ` + note("lint") + `
  - id: sub
    workflow: child.lobster
  - id: done
    run: ` + note("done") + `; echo done
`
	os.WriteFile(path, []byte(src), 0o644)
	ps := project(path)
	queue, routes := ps.queue, ps.routes
	if queue != "team" || len(routes) != 1 {
		t.Fatalf("project: %+v", ps)
	}
	worker := func(name string) *Activities {
		return &Activities{Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "WORKER=" + name}}
	}
	w := newWorkers(t, queue, map[string]*Activities{"team": worker("cpu-box"), "gpu": worker("gpu-box")})
	w.env.ExecuteWorkflow(WorkflowName, &RunInput{RunID: "queues", Path: path, Source: source.DecodeUTF8String(src),
		BaseDir: dir, Active: []string{path}, Routes: routes, TaskQueue: queue})
	var out Outcome
	if err := w.env.GetWorkflowError(); err != nil {
		t.Fatal(err)
	}
	if err := w.env.GetWorkflowResult(&out); err != nil || out.Error != "" || out.Status != "ok" {
		t.Fatalf("run: %+v %v", out, err)
	}
	log, err := os.ReadFile(filepath.Join(dir, "ran.log"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(log)), "\n")
	slices.Sort(lines)
	want := []string{"done cpu-box", "eval gpu-box", "fetch cpu-box", "lint cpu-box", "report cpu-box",
		"train gpu-box", "train-child gpu-box", "train-item gpu-box", "train-item gpu-box"}
	if !slices.Equal(lines, want) {
		t.Errorf("steps by worker:\n%s\nwant:\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	slices.Sort(w.ran)
	wantRan := []string{"done@team", "eval@gpu", "fetch@team", "lint@team", "load@team", "report@team",
		"train-child@gpu", "train-item@gpu", "train-item@gpu", "train@gpu"}
	if !slices.Equal(w.ran, wantRan) {
		t.Errorf("activities by queue: %v\nwant: %v", w.ran, wantRan)
	}
}

// updateFate is what became of an update sent in the test environment.
type updateFate struct {
	accepted bool
	rejected error
	done     bool
	out      *Outcome
	err      error
}

func (u *updateFate) Accept()          { u.accepted = true }
func (u *updateFate) Reject(err error) { u.rejected = err }
func (u *updateFate) Complete(v any, err error) {
	u.done, u.err = true, err
	if o, ok := v.(*Outcome); ok {
		u.out = o
	}
}

// TestGateChecksBeforeAccepting: a resume with no approver, the wrong
// approver, a response its schema refuses or a gate that is not the one
// waiting is rejected by the update's validator: the workflow never
// accepts it (nothing of it enters the run's history), and the gate waits
// on for the right answer.
func TestGateChecksBeforeAccepting(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.lobster")
	src := `steps:
  - id: plan
    approval:
      prompt: Apply?
      required_approver: alice
  - id: ask
    input:
      prompt: How many?
      responseSchema:
        type: object
        properties:
          n: {type: integer, minimum: 1}
        required: [n]
  - id: use
    run: echo "n=$N"
    env:
      N: $ask.response.n
`
	os.WriteFile(path, []byte(src), 0o644)
	// No command runs before the last answer: the environment's clock
	// skips to the next update while one runs.
	w := newWorkers(t, DefaultTaskQueue, map[string]*Activities{DefaultTaskQueue: {Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}}})
	yes := true
	by := func(who string) []string { return []string{"LOBSTER_APPROVAL_APPROVED_BY=" + who} }
	type send struct {
		name         string
		req          *ResumeRequest
		refusedWith  string // "" for accepted
		fate         *updateFate
		afterMinutes int
	}
	sends := []*send{
		{name: "no approver", afterMinutes: 1, req: &ResumeRequest{Gate: 1, Approve: &yes},
			refusedWith: "Workflow step plan approval requires approver identity; set LOBSTER_APPROVAL_APPROVED_BY"},
		{name: "the wrong approver", afterMinutes: 1, req: &ResumeRequest{Gate: 1, Approve: &yes, Approver: "bob", Env: by("bob")},
			refusedWith: "Workflow step plan approval requires approver 'alice', got 'bob'"},
		// The approver is the one the settings declare, which the next
		// leg records.
		{name: "an approver the settings do not declare", afterMinutes: 1, req: &ResumeRequest{Gate: 1, Approve: &yes, Approver: "alice"},
			refusedWith: "Workflow step plan approval requires approver identity; set LOBSTER_APPROVAL_APPROVED_BY"},
		{name: "another gate", afterMinutes: 1, req: &ResumeRequest{Gate: 2, Approve: &yes, Approver: "alice", Env: by("alice")},
			refusedWith: "Workflow resume state not found"},
		{name: "alice", afterMinutes: 2, req: &ResumeRequest{Gate: 1, Approve: &yes, Approver: "alice", Env: by(" alice\ufeff")}},
		{name: "the answered gate", afterMinutes: 3, req: &ResumeRequest{Gate: 1, Approve: &yes, Approver: "alice", Env: by("alice")},
			refusedWith: "Workflow resume state not found"},
		{name: "a response the schema refuses", afterMinutes: 3, req: &ResumeRequest{Gate: 2, Response: &JSON{jsvalue.Obj("n", 0.0)}},
			refusedWith: "Workflow input step ask response failed schema validation at /n: must be >= 1"},
		{name: "a response without n", afterMinutes: 3, req: &ResumeRequest{Gate: 2, Response: &JSON{jsvalue.Obj()}},
			refusedWith: "Workflow input step ask response failed schema validation at /: must have required property 'n'"},
		{name: "n=3", afterMinutes: 4, req: &ResumeRequest{Gate: 2, Response: &JSON{jsvalue.Obj("n", 3.0)}}},
	}
	for _, s := range sends {
		s.fate = &updateFate{}
		w.env.RegisterDelayedCallback(func() { w.env.UpdateWorkflow(resumeUpdate, "", s.fate, s.req) }, time.Duration(s.afterMinutes)*time.Minute)
	}
	w.env.ExecuteWorkflow(WorkflowName, &RunInput{RunID: "gates", Path: path, Source: src, BaseDir: dir, Active: []string{path}})
	var out Outcome
	if err := w.env.GetWorkflowResult(&out); err != nil || out.Status != "ok" || jsvalue.Stringify(out.Output.V, "") != `["n=3\n"]` {
		t.Fatalf("run: %+v %v", out, err)
	}
	for _, s := range sends {
		f := s.fate
		switch {
		case s.refusedWith == "" && (!f.accepted || f.rejected != nil || f.err != nil || f.out == nil):
			t.Errorf("%s: accepted %v, rejected %v, completed %v %+v", s.name, f.accepted, f.rejected, f.err, f.out)
		case s.refusedWith != "" && (f.accepted || f.rejected == nil || !strings.Contains(f.rejected.Error(), s.refusedWith)):
			t.Errorf("%s: accepted %v, rejected %v; want rejected with %q", s.name, f.accepted, f.rejected, s.refusedWith)
		}
	}
}
