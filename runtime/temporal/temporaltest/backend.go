// Package temporaltest runs the runs of a temporal.Engine in Temporal's
// in-process test environment (go.temporal.io/sdk/testsuite), for tests
// that need no Temporal service: the workflow code, the activities and
// the child workflows run in this process, and timers skip ahead.
package temporaltest

import (
	"context"
	"io"
	"log/slog"
	"sort"
	"strings"
	"sync"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/state"
	"github.com/lobsterdev/lobster/runtime/temporal"
)

// The environment's event loop is not safe for other goroutines: it takes
// their calls from a pump, a delayed callback that comes back after at
// least pumpEvery. Its clock moves only by its timers (and skips ahead when
// nothing runs): while activities run, the pump's next wait is the wall
// time its last one took, so that workflow timers (a loop's timeout) keep
// pace with the processes the activities run.
const (
	pumpEvery  = time.Millisecond
	pumpAtMost = 50 * time.Millisecond
)

// A Backend is a temporal.Backend whose runs each have their own test
// environment.
type Backend struct {
	suite testsuite.WorkflowTestSuite
	acts  *temporal.Activities

	mu        sync.Mutex
	runs      map[string]*run   // by workflow id
	approvals map[string]string // approval id → workflow id
}

// New is a backend whose activities are a's.
func New(a *temporal.Activities) *Backend {
	b := &Backend{acts: a, runs: map[string]*run{}, approvals: map[string]string{}}
	b.suite.SetLogger(sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	return b
}

// Engine is an engine over a new backend with activities a.
func Engine(a *temporal.Activities) *temporal.Engine {
	return temporal.NewEngine(New(a), temporal.Config{})
}

// run is one run's environment and the goroutine that executes it.
type run struct {
	env   *testsuite.TestWorkflowEnvironment
	calls chan func()   // to run on the environment's event loop
	done  chan struct{} // closed when the workflow ended
	last  time.Time     // when the pump last ran (wall clock)
}

// pump runs the calls waiting for the event loop, then comes back later.
func (r *run) pump() {
	for {
		select {
		case f := <-r.calls:
			f()
		default:
			now := time.Now()
			wait := pumpEvery
			if !r.last.IsZero() {
				wait = min(max(now.Sub(r.last), pumpEvery), pumpAtMost)
			}
			r.last = now
			r.env.RegisterDelayedCallback(r.pump, wait)
			return
		}
	}
}

// do runs f on the event loop; false when the run ended first.
func (r *run) do(ctx context.Context, f func()) bool {
	select {
	case r.calls <- f:
		return true
	case <-r.done:
		return false
	case <-ctx.Done():
		return false
	}
}

// updateCallbacks receive an update's fate.
type updateCallbacks struct{ result chan completed }

type completed struct {
	out *temporal.Outcome
	err error
}

func (u *updateCallbacks) Accept()          {}
func (u *updateCallbacks) Reject(err error) { u.result <- completed{err: err} }
func (u *updateCallbacks) Complete(v any, err error) {
	if err != nil {
		u.result <- completed{err: err}
		return
	}
	out, ok := v.(*temporal.Outcome)
	if !ok {
		out = &temporal.Outcome{}
		if ev, isEncoded := v.(converter.EncodedValue); isEncoded {
			ev.Get(out)
		}
	}
	u.result <- completed{out: out}
}

// update sends an update and waits for its outcome. When the run ends
// first, a watch's outcome is the workflow's result; a resume found no
// gate.
func (r *run) update(ctx context.Context, name string, arg any) (*temporal.Outcome, error) {
	cb := &updateCallbacks{result: make(chan completed, 1)}
	r.do(ctx, func() { r.env.UpdateWorkflow(name, "", cb, arg) })
	select {
	case c := <-cb.result:
		return c.out, c.err
	case <-r.done:
		select {
		case c := <-cb.result:
			return c.out, c.err
		default:
		}
		if name != "lobster.watch" {
			return nil, engine.KindError(engine.StateNotFoundKind, "Workflow resume state not found")
		}
		var out temporal.Outcome
		if err := r.env.GetWorkflowResult(&out); err != nil {
			return nil, err
		}
		return &out, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (b *Backend) Start(ctx context.Context, workflowID, taskQueue string, in *temporal.RunInput) (*temporal.Outcome, error) {
	env := b.suite.NewTestWorkflowEnvironment()
	env.SetStartWorkflowOptions(client.StartWorkflowOptions{ID: workflowID, TaskQueue: taskQueue})
	env.SetDataConverter(temporal.DataConverter())
	env.SetTestTimeout(time.Hour)
	// As a worker's (temporal.DeadlockDetectionTimeout): a loaded
	// machine, or the race detector, is not a deadlock.
	env.SetWorkerOptions(worker.Options{DeadlockDetectionTimeout: temporal.DeadlockDetectionTimeout})
	temporal.Register(env, b.acts)
	env.SetOnChildWorkflowStartedListener(func(info *workflow.Info, _ workflow.Context, _ converter.EncodedValues) {
		if id, ok := strings.CutPrefix(info.WorkflowExecution.ID, "lobster-approval-"); ok {
			b.mu.Lock()
			b.approvals[id] = workflowID
			b.mu.Unlock()
		}
	})
	forget := func(info *workflow.Info) {
		if id, ok := strings.CutPrefix(info.WorkflowExecution.ID, "lobster-approval-"); ok {
			b.mu.Lock()
			delete(b.approvals, id)
			b.mu.Unlock()
		}
	}
	env.SetOnChildWorkflowCompletedListener(func(info *workflow.Info, _ converter.EncodedValue, _ error) { forget(info) })
	env.SetOnChildWorkflowCanceledListener(func(info *workflow.Info) { forget(info) })
	r := &run{env: env, calls: make(chan func()), done: make(chan struct{})}
	b.mu.Lock()
	b.runs[workflowID] = r
	b.mu.Unlock()
	env.RegisterDelayedCallback(r.pump, 0)
	go func() {
		defer close(r.done)
		env.ExecuteWorkflow(temporal.WorkflowName, in)
	}()
	return r.update(ctx, "lobster.watch", 0)
}

func (b *Backend) Resume(ctx context.Context, workflowID string, req *temporal.ResumeRequest) (*temporal.Outcome, error) {
	b.mu.Lock()
	r := b.runs[workflowID]
	b.mu.Unlock()
	if r == nil {
		return nil, engine.KindError(engine.StateNotFoundKind, "Workflow resume state not found")
	}
	select {
	case <-r.done:
		return nil, engine.KindError(engine.StateNotFoundKind, "Workflow resume state not found")
	default:
	}
	return r.update(ctx, "lobster.resume", req)
}

func (b *Backend) RunOf(_ context.Context, approvalID string) (string, error) {
	b.mu.Lock()
	id, ok := b.approvals[approvalID]
	r := b.runs[id]
	b.mu.Unlock()
	if ok {
		select {
		case <-r.done:
		default:
			return id, nil
		}
	}
	return "", &state.ApprovalNotFoundError{ID: approvalID}
}

func (b *Backend) Paused(ctx context.Context, workflowID string) (*temporal.Outcome, error) {
	b.mu.Lock()
	r := b.runs[workflowID]
	b.mu.Unlock()
	if r == nil {
		return nil, nil
	}
	var out *temporal.Outcome
	var err error
	got := make(chan struct{})
	if !r.do(ctx, func() {
		defer close(got)
		var v converter.EncodedValue
		if v, err = r.env.QueryWorkflow("lobster.pause"); err == nil {
			err = v.Get(&out)
		}
	}) {
		return nil, ctx.Err()
	}
	select {
	case <-got:
		return out, err
	case <-r.done:
		return nil, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (b *Backend) List(ctx context.Context) ([]temporal.Listed, error) {
	b.mu.Lock()
	ids := make([]string, 0, len(b.runs))
	for id := range b.runs {
		ids = append(ids, id)
	}
	b.mu.Unlock()
	sort.Strings(ids)
	var out []temporal.Listed
	for _, id := range ids {
		b.mu.Lock()
		r := b.runs[id]
		b.mu.Unlock()
		var st temporal.Status
		var err error
		got := make(chan struct{})
		if !r.do(ctx, func() {
			defer close(got)
			var v converter.EncodedValue
			if v, err = r.env.QueryWorkflow("lobster.status"); err == nil {
				err = v.Get(&st)
			}
		}) {
			continue
		}
		select {
		case <-got:
		case <-r.done:
			continue
		}
		if err == nil {
			out = append(out, temporal.Listed{WorkflowID: id, Status: st})
		}
	}
	return out, nil
}

// Close cancels the runs that have not ended and waits for them.
func (b *Backend) Close() {
	b.mu.Lock()
	runs := make([]*run, 0, len(b.runs))
	for _, r := range b.runs {
		runs = append(runs, r)
	}
	b.mu.Unlock()
	for _, r := range runs {
		r.do(context.Background(), r.env.CancelWorkflow)
	}
	for _, r := range runs {
		<-r.done
	}
}
