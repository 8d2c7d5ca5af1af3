package engine

import (
	"context"
	"io"
	"math/rand/v2"
	"time"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/envelope"
)

// local is the executor of a run in this process: commands are its child
// processes, waits are timers, parallel branches goroutines, and a gate
// either asks on the terminal or ends the run with its state written to
// the state directory.
type local struct {
	opts *Options // the run's (Stderr, Force, StateDir, Terminal, Resume, Now)
}

// localCtx is a scope of a local run.
type localCtx struct{ ctx context.Context }

func (c localCtx) Err() error { return context.Cause(c.ctx) }

// stdContext is the context.Context of a local scope.
func stdContext(c Ctx) context.Context { return c.(localCtx).ctx }

func (x *local) Command(ctx Ctx, c *Call) (*jsvalue.Object, error) {
	return RunAttempts(x, ctx, c, x.opts.Stderr, func(actx Ctx, cmd *Command, dispatched func()) (*jsvalue.Object, error) {
		return Perform(stdContext(actx), cmd, Host{
			Stderr: x.opts.Stderr, StateDir: x.opts.StateDir, Force: x.opts.Force, Terminal: x.opts.Terminal,
			// The claim is the run's bookkeeping, not the step's work: it
			// is not cut short by the step's timeout (only by the run's
			// cancellation), so a slow claim still spends the state.
			BeforeEffect: func() error { return x.Claim(ctx) },
			Dispatch:     dispatched,
			LLM:          c.LLM,
		})
	})
}

// RunAttempts runs the attempts of a call on x as its policy says: each
// prepares the command (c.Prepare) and hands it to perform, under the
// call's timeout; between attempts it waits the policy's delay, logs the
// retry on stderr and calls c.BeforeRetry. An attempt whose command
// dispatched a request (perform calls dispatched) is the last.
func RunAttempts(x Executor, ctx Ctx, c *Call, stderr io.Writer, perform func(actx Ctx, cmd *Command, dispatched func()) (*jsvalue.Object, error)) (*jsvalue.Object, error) {
	return withRetry(x, ctx, c.ID, c.Retry, c.Timeout, stderr, c.OnDispatch, c.BeforeRetry, c.OnRetry, func(actx Ctx, dispatched func()) (*jsvalue.Object, error) {
		cmd, err := c.Prepare()
		if err != nil {
			return nil, err
		}
		return perform(actx, cmd, dispatched)
	})
}

func (x *local) LoadWorkflow(_ Ctx, path string) (*Loaded, error) { return LoadWorkflow(path) }

func (x *local) RunWorkflow(ctx Ctx, f *ast.File, opts Options) (envelope.Result, error) {
	// The child shares the run's terminal and state directory; only the
	// parent's resume is claimed, and it has been by now.
	opts.Force, opts.StateDir, opts.Terminal, opts.Now = x.opts.Force, x.opts.StateDir, x.opts.Terminal, x.opts.Now
	opts.Resume = nil
	return Execute(ctx, &local{opts: &opts}, f, opts)
}

func (x *local) Pause(ctx Ctx, g *Gate) (*envelope.Result, *Decision, error) {
	if t := x.opts.Terminal; t != nil && g.Kind != PipelineGate {
		d, err := x.ask(stdContext(ctx), t, g)
		return nil, d, err
	}
	if err := g.Fit(); err != nil {
		return nil, nil, err
	}
	saved := g.Saved()
	saved.Digest = g.Digest()
	token, approvalID, err := x.pause(stdContext(ctx), saved, g.Kind == ApprovalGate)
	if err != nil {
		return nil, nil, err
	}
	g.Request.Set("resumeToken", token)
	if g.Kind == ApprovalGate {
		if approvalID != "" {
			g.Request.Set("approvalId", approvalID)
		}
		return &envelope.Result{Status: envelope.StatusNeedsApproval, Output: []any{}, RequiresApproval: g.Request}, nil, nil
	}
	return &envelope.Result{Status: envelope.StatusNeedsInput, Output: []any{}, RequiresInput: g.Request}, nil, nil
}

func (x *local) Claim(ctx Ctx) error { return x.opts.Resume.claim(stdContext(ctx)) }

func (x *local) Sleep(ctx Ctx, d time.Duration) error {
	c := stdContext(ctx)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.Done():
		return context.Cause(c)
	case <-t.C:
		return nil
	}
}

func (x *local) WithCancel(ctx Ctx) (Ctx, func(error)) {
	c, cancel := context.WithCancelCause(stdContext(ctx))
	return localCtx{c}, cancel
}

func (x *local) WithTimeout(ctx Ctx, d time.Duration, cause error) (Ctx, func()) {
	c, stop := context.WithTimeoutCause(stdContext(ctx), d, cause)
	return localCtx{c}, stop
}

func (x *local) Go(ctx Ctx, fn func(Ctx)) { go fn(ctx) }

func (x *local) NewQueue(_ Ctx, size int) Queue { return localQueue(make(chan any, size)) }

func (x *local) Random(Ctx) float64 { return rand.Float64() }

// localQueue is a buffered channel.
type localQueue chan any

func (q localQueue) Put(_ Ctx, v any) { q <- v }

func (q localQueue) Get(_ Ctx, wait time.Duration) (any, bool) {
	if wait <= 0 {
		return <-q, true
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case v := <-q:
		return v, true
	case <-t.C:
		return nil, false
	}
}
