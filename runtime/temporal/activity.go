package temporal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/converter"
	sdk "go.temporal.io/sdk/temporal"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/proc"
)

// Activities are what a worker does for runs: run a step's command, read
// a sub-workflow file.
type Activities struct {
	// Env is the worker's environment, under each command's own; nil is
	// the worker process's.
	Env []string
	// StateDir is where pipeline commands keep state on this worker.
	StateDir string
	// Log receives the worker's own lines (a command that failed); nil
	// discards them.
	Log io.Writer
	// MaxPayload is the largest result a command may return, encoded, in
	// bytes; 0 is DefaultMaxPayload.
	MaxPayload int
	// Converter encodes results to measure them; nil is DataConverter().
	Converter converter.DataConverter
}

// DefaultMaxPayload keeps a command's result under Temporal's default
// payload limit (2 MiB), with room for the event around it.
const DefaultMaxPayload = 2_000_000

// Command runs one command of a step (engine.Perform) on this worker,
// heartbeating while it runs.
func (a *Activities) Command(ctx context.Context, in *commandInput) (*commandOutput, error) {
	var effect, dispatched atomic.Bool
	now := func() progress { return progress{Effect: effect.Load(), Dispatched: dispatched.Load()} }
	stop := heartbeat(ctx, activity.GetInfo(ctx).HeartbeatTimeout, now)
	defer stop()
	if in.TimeoutMs > 0 {
		// The step's own timeout kills its processes at once, with the
		// reference's message, as a local run does.
		var cancel context.CancelFunc
		cause := proc.KillNow(fmt.Errorf("Step '%s' timed out after %dms", in.ID, in.TimeoutMs))
		ctx, cancel = context.WithTimeoutCause(ctx, time.Duration(in.TimeoutMs)*time.Millisecond, cause)
		defer cancel()
	}
	cmd := &engine.Command{ID: in.ID, Kind: in.Kind, Text: in.Text, Stdin: value(in.Stdin), Env: in.Env, Dir: in.Dir,
		MaxOutput: in.MaxOutput, TopLevel: in.TopLevel}
	if k := in.Continue; k != nil {
		items, _ := value(k.Items).([]any)
		cmd.Continue = &engine.Continuation{Stage: k.Stage, Items: items, Response: value(k.Response)}
	}
	env := a.Env
	if env == nil {
		env = os.Environ()
	}
	var log bytes.Buffer
	llm := &engine.Tally{}
	llm.Seed(cmd.Stdin, in.StdinAnswers)
	rec, err := engine.Perform(ctx, cmd, engine.Host{Env: env, Dir: in.BaseDir, Stderr: &log, StateDir: a.StateDir,
		BeforeEffect: func() error { effect.Store(true); return nil },
		Dispatch: func() {
			// Told at once: if this worker is lost now, the workflow
			// still learns that the request went (failure).
			dispatched.Store(true)
			activity.RecordHeartbeat(ctx, now())
		},
		LLM: llm})
	var asked *engine.Suspension
	switch {
	case errors.As(err, &asked):
		return &commandOutput{Log: log.String(), Effect: effect.Load(), Dispatched: dispatched.Load(), Tally: tallyOf(llm.Report(nil)), Suspended: &suspended{Stages: &JSON{nonNil(asked.Stages)}, Stage: asked.Stage, Items: &JSON{nonNil(asked.Items)},
			Request: optional(asObject(asked.Request)), CommandInput: optional(asObject(asked.CommandInput))}}, nil
	case err != nil:
		// The workflow decides whether there is another attempt.
		fmt.Fprintf(a.log(), "%s: step '%s' failed: %s\n", activity.GetInfo(ctx).WorkflowExecution.ID, in.ID, err)
		return nil, sdk.NewApplicationErrorWithOptions(err.Error(), engine.ErrorKind(err), sdk.ApplicationErrorOptions{NonRetryable: true,
			Details: []any{failureDetails{Log: log.String(), Effect: effect.Load(), Dispatched: dispatched.Load(), Tally: tallyOf(llm.Report(nil))}}})
	}
	out := &commandOutput{Record: &JSON{rec}, Log: log.String(), Effect: effect.Load(), Dispatched: dispatched.Load(), Tally: tallyOf(llm.Report(rec))}
	if err := a.fits(in.ID, out); err != nil {
		return nil, err
	}
	return out, nil
}

// fits refuses a result too big for a Temporal payload, with a clear
// error instead of the service's refusal.
func (a *Activities) fits(id string, out *commandOutput) error {
	dc := a.Converter
	if dc == nil {
		dc = DataConverter()
	}
	limit := a.MaxPayload
	if limit <= 0 {
		limit = DefaultMaxPayload
	}
	p, err := dc.ToPayload(out)
	if err != nil {
		return err
	}
	if size := len(p.GetData()); size > limit {
		return sdk.NewApplicationErrorWithOptions(
			fmt.Sprintf("Step '%s' output is %d bytes encoded, over the %d bytes a Temporal payload may hold here; make the step print less (or raise lobster worker --max-payload up to the service's limit)", id, size, limit),
			engine.FailedKind, sdk.ApplicationErrorOptions{NonRetryable: true})
	}
	return nil
}

// Load reads and checks a sub-workflow file on this worker.
func (a *Activities) Load(ctx context.Context, path string) (*engine.Loaded, error) {
	l, err := engine.LoadWorkflow(path)
	if err != nil {
		return nil, sdk.NewApplicationErrorWithOptions(err.Error(), engine.ErrorKind(err), sdk.ApplicationErrorOptions{NonRetryable: true})
	}
	return l, nil
}

func (a *Activities) log() io.Writer {
	if a.Log == nil {
		return io.Discard
	}
	return a.Log
}

// progress is what a command had done by its last heartbeat: the details
// of its heartbeats, which the workflow reads when its worker is lost.
type progress struct {
	Effect     bool
	Dispatched bool
}

// heartbeat records the activity's heartbeat, with what the command has
// done (now), until stop, often enough for timeout (which Temporal sets
// from the workflow's options).
func heartbeat(ctx context.Context, timeout time.Duration, now func() progress) (stop func()) {
	if timeout <= 0 {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(max(timeout/4, 50*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				activity.RecordHeartbeat(ctx, now())
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

func nonNil(items []any) []any {
	if items == nil {
		return []any{}
	}
	return items
}

// asObject is o as a value: Undefined for a nil object.
func asObject(o *jsvalue.Object) any {
	if o == nil {
		return jsvalue.Undefined
	}
	return o
}
