package temporal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	sdk "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/pipeline"
	"github.com/lobsterdev/lobster/runtime/state"
)

// The code of this file runs inside Temporal workflows: it is replayed,
// so it must take the same path every time for the same history. It
// reaches time, randomness, concurrency and the outside world only through
// the workflow package (workflow.Now, SideEffect, Go, channels, timers,
// activities), never through time, math/rand, goroutines or files; so
// does the engine's control logic it runs (see engine.Executor).

// Defaults of command activities.
const (
	defaultHeartbeat = 10 * time.Second
	// noTimeout is the start-to-close timeout of a command without
	// timeout_ms: Temporal needs one; a lost worker is found by its
	// heartbeat instead.
	noTimeout = 10 * 365 * 24 * time.Hour
	// timeoutGrace is how much longer than a step's timeout_ms the
	// service waits for its command before it counts it lost.
	timeoutGrace = 5 * time.Second
)

// Workflow is a run of a workflow file: the engine's control logic, with
// commands as activities, sub-workflows as child workflows and gates as
// updates. Like a local run it goes in legs: a leg runs to a gate, where
// the engine ends it with the resume state it would write to disk; the
// workflow keeps that state, waits for lobster resume to answer, and runs
// the next leg from it, as a local resume does from the state file. A leg
// that fails before its first effect leaves the gate as it was, as a
// local resume leaves the state file.
func Workflow(ctx workflow.Context, in *RunInput) (*Outcome, error) {
	run := &wfRun{in: in}
	if !in.Composed {
		if err := run.handlers(ctx); err != nil {
			return nil, err
		}
	}
	f, _ := parser.Parse(in.Path, []byte(in.Source))
	var args any
	if in.Args != nil {
		args = in.Args.V
	}
	opts := engine.Options{
		Args:     args,
		Env:      in.Env,
		Stderr:   &run.log,
		FilePath: in.Path,
		Now:      func() time.Time { return workflow.Now(ctx) },
		Active:   in.Active,
		Dir:      in.Dir,
		Composed: in.Composed,
		// A sub-workflow tells its parent, whose attempt it makes final.
		OnDispatch: func() { run.dispatched = true },
	}
	if in.Composed {
		opts.OnCharge = func(key string, model any, usage *jsvalue.Object) {
			c := tallyCharge{Key: key, Model: &JSON{model}}
			if usage != nil {
				c.Usage = &JSON{usage}
			}
			run.charges = append(run.charges, c)
		}
	}
	var rs *engine.Resume
	var last *pendingGate // the gate the leg was resumed from
	for {
		x := &executor{run: run, rs: rs}
		res, err := engine.Execute(&scope{ctx: ctx}, x, f, opts)
		var p *pendingGate
		switch {
		case err == nil && x.paused != nil:
			if last != nil {
				last.release()
			}
			p = x.paused
			out := &Outcome{Gate: p.seq}
			fill(out, res)
			p.outcome = out
			run.publish(out)
		case err != nil && rs != nil && !rs.Claimed():
			// Nothing ran: the gate stays as it was.
			run.publish(&Outcome{Error: err.Error(), ErrorKind: engine.ErrorKind(err)})
			p = last
			p.decision = nil
		default:
			if last != nil {
				last.release()
			}
			return run.end(ctx, res, err)
		}
		d, err := run.wait(ctx, p)
		if err != nil {
			p.release()
			return run.end(ctx, envelope.Result{}, err)
		}
		if d.Cancel || (p.gate.Kind == engine.ApprovalGate && !*d.Approve) {
			p.release()
			return run.end(ctx, envelope.Result{Status: envelope.StatusCancelled, Output: []any{}}, nil)
		}
		rs = &engine.Resume{Saved: p.saved, Approved: p.gate.Kind == engine.ApprovalGate, Response: d.Response}
		opts.Resume, opts.Env, opts.Args = rs, p.env, nil
		last = p
	}
}

// wait waits at gate p for its decision.
func (run *wfRun) wait(ctx workflow.Context, p *pendingGate) (*engine.Decision, error) {
	run.pending = p
	workflow.UpsertMemo(ctx, map[string]any{"lobster": run.status()})
	err := workflow.Await(ctx, func() bool { return p.decision != nil })
	run.pending = nil
	workflow.UpsertMemo(ctx, map[string]any{"lobster": run.status()})
	if err != nil {
		return nil, err
	}
	p.env = p.decision.env
	return &p.decision.Decision, nil
}

// end publishes the run's last outcome and ends its workflow.
func (run *wfRun) end(ctx workflow.Context, res envelope.Result, err error) (*Outcome, error) {
	out := &Outcome{}
	if err != nil {
		out.Error, out.ErrorKind = err.Error(), engine.ErrorKind(err)
	} else {
		fill(out, res)
	}
	run.publish(out)
	// Updates that wait for this outcome get it before the run ends.
	if err := workflow.Await(ctx, func() bool { return workflow.AllHandlersFinished(ctx) }); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, sdk.NewApplicationErrorWithOptions(out.Error, out.ErrorKind,
			sdk.ApplicationErrorOptions{NonRetryable: true, Details: []any{out}})
	}
	return out, nil
}

// fill sets the envelope of res in out.
func fill(out *Outcome, res envelope.Result) {
	out.Status = res.Status
	out.Output = &JSON{res.Output}
	if res.Output == nil {
		out.Output = &JSON{[]any{}}
	}
	if res.RequiresApproval != nil {
		out.RequiresApproval = &JSON{res.RequiresApproval}
	}
	if res.RequiresInput != nil {
		out.RequiresInput = &JSON{res.RequiresInput}
	}
}

// ApprovalWorkflow stands for a paused run's approval id: its workflow id
// is approvalIDPrefix + the id, its parent the run. It lives until the
// gate is answered.
func ApprovalWorkflow(ctx workflow.Context) error {
	err := workflow.Await(ctx, func() bool { return false })
	if sdk.IsCanceledError(err) {
		return nil
	}
	return err
}

// wfRun is the state of a run's workflow.
type wfRun struct {
	in       *RunInput
	log      bytes.Buffer // the engine's log lines
	logMark  int          // the part of log already in an outcome
	outcomes []*Outcome   // in order: pauses, then the end
	gates    int          // gates reached so far
	pending  *pendingGate // the gate the run waits at
	// dispatched is set once a command sent a request that must not be
	// sent twice.
	dispatched bool
	charges    []tallyCharge // a sub-workflow's LLM calls, for its parent
}

// pendingGate is a gate a leg ended at.
type pendingGate struct {
	seq        int
	gate       *engine.Gate
	saved      *engine.Saved // the resume state the leg ended with
	token      string
	approvalID string
	pausedAt   time.Time
	pointer    func() // ends the workflow that names the run by approvalID
	decision   *decision
	env        []string // the settings of the resume that answered
	outcome    *Outcome // the pause's outcome, as its watchers got it
}

// decision is a gate's answer, with the resuming command's settings.
type decision struct {
	engine.Decision
	env []string
}

// release ends the gate's approval id.
func (p *pendingGate) release() {
	if p != nil && p.pointer != nil {
		p.pointer()
		p.pointer = nil
	}
}

// publish adds an outcome, with the log lines written since the last.
func (run *wfRun) publish(out *Outcome) {
	out.Seq = len(run.outcomes) + 1
	out.Dispatched = run.dispatched
	out.Charges = run.charges
	out.Log = run.log.String()[run.logMark:]
	run.logMark = run.log.Len()
	run.outcomes = append(run.outcomes, out)
}

// handlers registers the updates and the query of a top-level run.
func (run *wfRun) handlers(ctx workflow.Context) error {
	err := workflow.SetUpdateHandler(ctx, watchUpdate, func(ctx workflow.Context, after int) (*Outcome, error) {
		if err := workflow.Await(ctx, func() bool { return len(run.outcomes) > after }); err != nil {
			return nil, err
		}
		return run.outcomes[max(after, 0)], nil
	})
	if err != nil {
		return err
	}
	err = workflow.SetUpdateHandlerWithOptions(ctx, resumeUpdate, func(ctx workflow.Context, req *ResumeRequest) (*Outcome, error) {
		seq := len(run.outcomes)
		run.pending.decision = &decision{*decisionOf(req), req.Env}
		if err := workflow.Await(ctx, func() bool { return len(run.outcomes) > seq }); err != nil {
			return nil, err
		}
		return run.outcomes[seq], nil
	}, workflow.UpdateHandlerOptions{Validator: func(ctx workflow.Context, req *ResumeRequest) error {
		p := run.pending
		if p == nil || p.decision != nil || !(req.Gate == p.seq || req.ApprovalID != "" && req.ApprovalID == p.approvalID) {
			if req.ApprovalID != "" {
				// The approval id names no waiting gate of this run (any
				// more): as an approval id the state directory no longer
				// holds.
				return sdk.NewApplicationErrorWithOptions("Approval ID not found", approvalNotFoundKind,
					sdk.ApplicationErrorOptions{NonRetryable: true})
			}
			return sdk.NewApplicationErrorWithOptions("Workflow resume state not found", engine.StateNotFoundKind,
				sdk.ApplicationErrorOptions{NonRetryable: true})
		}
		if err := p.gate.Check(decisionOf(req)); err != nil {
			return sdk.NewApplicationErrorWithOptions(err.Error(), engine.ErrorKind(err), sdk.ApplicationErrorOptions{NonRetryable: true})
		}
		return nil
	}})
	if err != nil {
		return err
	}
	err = workflow.SetQueryHandler(ctx, statusQuery, func() (*Status, error) { return run.status(), nil })
	if err != nil {
		return err
	}
	// A query changes nothing in the run's history: older histories
	// replay with it.
	return workflow.SetQueryHandler(ctx, pauseQuery, func() (*Outcome, error) {
		if run.pending == nil || run.pending.decision != nil {
			return nil, nil
		}
		return run.pending.outcome, nil
	})
}

// status is where the run stands.
func (run *wfRun) status() *Status {
	s := &Status{Path: run.in.Path}
	if p := run.pending; p != nil {
		s.Paused, s.Gate, s.Kind, s.StepID = true, p.seq, p.gate.Kind, p.gate.StepID
		s.ApprovalID, s.Token, s.PausedAt = p.approvalID, p.token, p.pausedAt.UTC().Format(time.RFC3339)
	}
	return s
}

// decisionOf is the engine's decision of a resume request. Its approver
// is the one its settings declare, which the next leg records (as a local
// resume does from its environment), whatever req.Approver says.
func decisionOf(req *ResumeRequest) *engine.Decision {
	return &engine.Decision{Approve: req.Approve, Approver: engine.ApproverIn(req.Env), Response: value(req.Response), Cancel: req.Cancel}
}

// scope is a cancellation scope of the control logic in a workflow: its
// workflow context (each coroutine has its own) and the cause it was
// cancelled with, which workflow contexts do not keep.
type scope struct {
	ctx    workflow.Context
	parent *scope
	cause  error
}

func (s *scope) Err() error {
	for p := s; p != nil; p = p.parent {
		if p.cause != nil {
			return p.cause
		}
	}
	return s.ctx.Err()
}

func wctx(c engine.Ctx) workflow.Context { return c.(*scope).ctx }

// executor is the engine's Executor in a workflow, for one leg.
type executor struct {
	run    *wfRun
	rs     *engine.Resume // the leg's resume, nil for the first leg
	paused *pendingGate   // the gate the leg ended at
}

// Command runs a step's command. Its attempts are made here, one
// activity each, by the local engine's loop (engine.RunAttempts): the
// same delays (jitter too), the same [RETRY] lines in the run's log, and
// only the workflow can ask between two attempts what decides whether
// there is another: what an attempt spent on LLM calls (cost_limit: stop,
// Call.BeforeRetry) and whether it sent a request that must not be sent
// twice, even from a worker that was lost (OnDispatch, see failure).
func (x *executor) Command(c engine.Ctx, call *engine.Call) (*jsvalue.Object, error) {
	cmd, err := call.Prepare()
	if err != nil {
		return nil, err
	}
	if cmd.Kind == "" {
		// Nothing to run, nothing to record.
		return engine.Perform(context.Background(), cmd, engine.Host{})
	}
	first := cmd
	attempts := *call
	// Each attempt's timeout is its activity's, so that what the attempt
	// did before it timed out (a dispatch) comes back with its failure.
	attempts.Timeout = 0
	attempts.Prepare = func() (*engine.Command, error) {
		if cmd := first; cmd != nil {
			first = nil
			return cmd, nil
		}
		return call.Prepare()
	}
	return engine.RunAttempts(x, c, &attempts, &x.run.log, func(actx engine.Ctx, cmd *engine.Command, dispatched func()) (*jsvalue.Object, error) {
		switch cmd.Kind {
		case "":
			return engine.Perform(context.Background(), cmd, engine.Host{})
		case engine.ShellCommand:
			x.Claim(actx) // a shell command is an effect; a pipeline says whether it had one
		}
		return x.activity(actx, call, cmd, dispatched)
	})
}

// activity runs cmd as one activity, one attempt of its step (Temporal
// makes no attempts of its own), and hands what it reports to the run: its
// log, its effect, its dispatch, its LLM calls (to call.LLM, see
// engine.ReplayTally).
func (x *executor) activity(c engine.Ctx, call *engine.Call, cmd *engine.Command, dispatched func()) (*jsvalue.Object, error) {
	in := &commandInput{ID: cmd.ID, Kind: cmd.Kind, Text: cmd.Text, Stdin: optional(cmd.Stdin), Env: cmd.Env, Dir: cmd.Dir,
		BaseDir: x.run.in.BaseDir, MaxOutput: cmd.MaxOutput, TopLevel: cmd.TopLevel,
		TimeoutMs: call.Timeout.Milliseconds()}
	if k := cmd.Continue; k != nil {
		in.Continue = &continuation{Stage: k.Stage, Items: &JSON{k.Items}, Response: optional(k.Response)}
	}
	if cmd.Kind == engine.PipelineCommand {
		in.StdinAnswers = engine.MarksIn(call.LLM, cmd.Stdin)
	}
	// The worker stops the command at timeout_ms itself (with the
	// reference's message, and what the command did until then); the
	// service's timeout, a little later, covers a worker that is gone.
	timeout := call.Timeout + timeoutGrace
	if call.Timeout <= 0 {
		timeout = noTimeout
	}
	ctx := workflow.WithActivityOptions(wctx(c), workflow.ActivityOptions{
		TaskQueue:           x.run.route(cmd.ID),
		StartToCloseTimeout: timeout,
		HeartbeatTimeout:    x.run.heartbeat(),
		RetryPolicy:         &sdk.RetryPolicy{MaximumAttempts: 1},
	})
	var out commandOutput
	err := workflow.ExecuteActivity(ctx, commandActivity, in).Get(ctx, &out)
	x.run.log.WriteString(out.Log)
	if err != nil {
		var d failureDetails
		err = x.run.failure(c, err, call, &d)
		if d.Effect {
			x.Claim(c)
		}
		if d.Dispatched && dispatched != nil {
			dispatched()
		}
		engine.ReplayTally(call.LLM, nil, d.Tally.report())
		return nil, err
	}
	if out.Effect {
		x.Claim(c)
	}
	if out.Dispatched && dispatched != nil {
		dispatched()
	}
	rec, _ := value(out.Record).(*jsvalue.Object)
	engine.ReplayTally(call.LLM, rec, out.Tally.report())
	if s := out.Suspended; s != nil {
		items, _ := value(s.Items).([]any)
		req, _ := value(s.Request).(*jsvalue.Object)
		ci, _ := value(s.CommandInput).(*jsvalue.Object)
		stages, _ := value(s.Stages).([]any)
		return nil, &engine.Suspension{Stages: stages, Items: items, Suspension: pipeline.Suspension{Stage: s.Stage, Request: req, CommandInput: ci}}
	}
	if rec == nil {
		return nil, fmt.Errorf("Workflow step %s: its command returned no result", cmd.ID)
	}
	return rec, nil
}

// failure is the engine's error for an activity or child workflow that
// failed: a cancelled scope's cause, a timeout in the reference's words,
// or the error the command itself returned, its kind kept.
func (run *wfRun) failure(c engine.Ctx, err error, call *engine.Call, details *failureDetails) error {
	details.Effect = true // unless the command says otherwise
	if sdk.IsCanceledError(err) {
		if cause := c.Err(); cause != nil {
			return cause
		}
		return err
	}
	var timeout *sdk.TimeoutError
	if call != nil && errors.As(err, &timeout) {
		switch timeout.TimeoutType() {
		case enumspb.TIMEOUT_TYPE_HEARTBEAT:
			// What the command had done by its last heartbeat.
			var p progress
			if timeout.HasLastHeartbeatDetails() && timeout.LastHeartbeatDetails(&p) == nil {
				details.Dispatched = p.Dispatched
			}
			return fmt.Errorf("Step '%s' lost its worker: no heartbeat for %s", call.ID, run.heartbeat())
		default:
			return fmt.Errorf("Step '%s' timed out after %dms", call.ID, call.Timeout.Milliseconds())
		}
	}
	var app *sdk.ApplicationError
	if errors.As(err, &app) {
		if app.HasDetails() && app.Details(details) == nil {
			run.log.WriteString(details.Log)
		}
		return engine.KindError(app.Type(), app.Message())
	}
	return err
}

func (x *executor) LoadWorkflow(c engine.Ctx, path string) (*engine.Loaded, error) {
	ctx := workflow.WithActivityOptions(wctx(c), workflow.ActivityOptions{
		TaskQueue:           x.run.taskQueue(),
		StartToCloseTimeout: time.Minute,
		RetryPolicy:         &sdk.RetryPolicy{MaximumAttempts: 3, NonRetryableErrorTypes: []string{engine.ErrorKind(engine.ErrWorkflowNotFound)}},
	})
	var loaded engine.Loaded
	if err := workflow.ExecuteActivity(ctx, loadActivity, path).Get(ctx, &loaded); err != nil {
		var d failureDetails
		return nil, x.run.failure(c, err, nil, &d)
	}
	return &loaded, nil
}

func (x *executor) RunWorkflow(c engine.Ctx, f *ast.File, opts engine.Options) (envelope.Result, error) {
	in := x.run.in
	child := &RunInput{RunID: in.RunID, Path: opts.FilePath, Source: source.DecodeUTF8String(string(f.Src.Content)), Args: &JSON{opts.Args},
		Env: opts.Env, BaseDir: in.BaseDir, Dir: opts.Dir, Active: opts.Active, Composed: true,
		Routes: in.Routes, TaskQueue: in.TaskQueue, HeartbeatMs: in.HeartbeatMs}
	ctx := workflow.WithChildOptions(wctx(c), workflow.ChildWorkflowOptions{
		TaskQueue:         x.run.taskQueue(),
		ParentClosePolicy: enumspb.PARENT_CLOSE_POLICY_TERMINATE,
	})
	var out Outcome
	if err := workflow.ExecuteChildWorkflow(ctx, WorkflowName, child).Get(ctx, &out); err != nil {
		var d failureDetails
		err = x.run.failure(c, err, nil, &d)
		if d.Dispatched && opts.OnDispatch != nil {
			opts.OnDispatch()
		}
		chargeParent(opts, d.Charges)
		return envelope.Result{}, err
	}
	x.run.log.WriteString(out.Log)
	if out.Dispatched && opts.OnDispatch != nil {
		opts.OnDispatch()
	}
	chargeParent(opts, out.Charges)
	return out.Result(), nil
}

// chargeParent records a sub-workflow's LLM calls in its parent's
// accounting.
func chargeParent(opts engine.Options, charges []tallyCharge) {
	for _, c := range charges {
		var model any
		if c.Model != nil {
			model = c.Model.V
		}
		var usage *jsvalue.Object
		if c.Usage != nil {
			usage, _ = c.Usage.V.(*jsvalue.Object)
		}
		opts.ChargeParent(c.Key, model, usage)
	}
}

func (x *executor) Pause(c engine.Ctx, g *engine.Gate) (*envelope.Result, *engine.Decision, error) {
	ctx := wctx(c)
	if err := g.Fit(); err != nil {
		return nil, nil, err
	}
	if err := x.Claim(c); err != nil {
		return nil, nil, err
	}
	run := x.run
	run.gates++
	p := &pendingGate{seq: run.gates, gate: g, saved: g.Saved(), pausedAt: workflow.Now(ctx)}
	p.token = state.Token{Kind: state.KindWorkflow, StateKey: TokenKey(run.in.RunID, p.seq)}.Encode()
	g.Request.Set("resumeToken", p.token)
	if g.Kind != engine.ApprovalGate {
		x.paused = p
		return &envelope.Result{Status: envelope.StatusNeedsInput, Output: []any{}, RequiresInput: g.Request}, nil, nil
	}
	id, release, err := x.approvalID(ctx)
	if err != nil {
		return nil, nil, err
	}
	p.approvalID, p.pointer = id, release
	g.Request.Set("approvalId", id)
	x.paused = p
	return &envelope.Result{Status: envelope.StatusNeedsApproval, Output: []any{}, RequiresApproval: g.Request}, nil, nil
}

// approvalID starts the workflow that names the run by a new approval id
// (eight hex digits, drawn again while taken); release ends it.
func (x *executor) approvalID(ctx workflow.Context) (id string, release func(), err error) {
	for range 8 {
		if err := workflow.SideEffect(ctx, func(workflow.Context) any { return state.RandomHex(4) }).Get(&id); err != nil {
			return "", nil, err
		}
		cctx, cancel := workflow.WithCancel(ctx)
		cctx = workflow.WithChildOptions(cctx, workflow.ChildWorkflowOptions{
			WorkflowID:        approvalIDPrefix + id,
			TaskQueue:         x.run.taskQueue(),
			ParentClosePolicy: enumspb.PARENT_CLOSE_POLICY_TERMINATE,
		})
		var started workflow.Execution
		err = workflow.ExecuteChildWorkflow(cctx, approvalWorkflowName).GetChildWorkflowExecution().Get(ctx, &started)
		if err == nil {
			return id, cancel, nil
		}
		cancel()
		if !sdk.IsWorkflowExecutionAlreadyStartedError(err) {
			return "", nil, err
		}
	}
	return "", nil, errors.New("no free approval id")
}

func (x *executor) Claim(engine.Ctx) error { return x.rs.Claim(context.Background()) }

func (x *executor) Sleep(c engine.Ctx, d time.Duration) error {
	if err := workflow.Sleep(wctx(c), d); err != nil {
		if cause := c.Err(); cause != nil {
			return cause
		}
		return err
	}
	return nil
}

func (x *executor) WithCancel(c engine.Ctx) (engine.Ctx, func(error)) {
	parent := c.(*scope)
	ctx, cancel := workflow.WithCancel(parent.ctx)
	child := &scope{ctx: ctx, parent: parent}
	return child, func(cause error) {
		if child.Err() == nil {
			child.cause = cause
		}
		cancel()
	}
}

func (x *executor) WithTimeout(c engine.Ctx, d time.Duration, cause error) (engine.Ctx, func()) {
	child, cancel := x.WithCancel(c)
	tctx, stopTimer := workflow.WithCancel(wctx(child))
	workflow.Go(tctx, func(ctx workflow.Context) {
		if workflow.NewTimer(ctx, d).Get(ctx, nil) == nil {
			cancel(cause)
		}
	})
	return child, func() {
		stopTimer()
		cancel(context.Canceled)
	}
}

func (x *executor) Go(c engine.Ctx, fn func(engine.Ctx)) {
	parent := c.(*scope)
	workflow.Go(parent.ctx, func(ctx workflow.Context) { fn(&scope{ctx: ctx, parent: parent}) })
}

func (x *executor) NewQueue(c engine.Ctx, size int) engine.Queue {
	return queue{workflow.NewBufferedChannel(wctx(c), size)}
}

func (x *executor) Random(c engine.Ctx) float64 {
	var f float64
	workflow.SideEffect(wctx(c), func(workflow.Context) any { return mrand.Float64() }).Get(&f)
	return f
}

// queue is a buffered workflow channel.
type queue struct{ ch workflow.Channel }

func (q queue) Put(c engine.Ctx, v any) { q.ch.Send(wctx(c), v) }

func (q queue) Get(c engine.Ctx, wait time.Duration) (any, bool) {
	ctx := wctx(c)
	var v any
	if wait <= 0 {
		q.ch.Receive(ctx, &v)
		return v, true
	}
	tctx, cancel := workflow.WithCancel(ctx)
	defer cancel()
	got := false
	sel := workflow.NewSelector(ctx)
	sel.AddReceive(q.ch, func(ch workflow.ReceiveChannel, _ bool) {
		ch.Receive(ctx, &v)
		got = true
	})
	sel.AddFuture(workflow.NewTimer(tctx, wait), func(workflow.Future) {})
	sel.Select(ctx)
	return v, got
}

// route is the task queue of a step's commands: the first route that
// names it, else the run's.
func (run *wfRun) route(stepID string) string {
	for _, r := range run.in.Routes {
		if r.Matches(stepID) {
			return r.TaskQueue
		}
	}
	return run.taskQueue()
}

func (run *wfRun) taskQueue() string {
	if run.in.TaskQueue != "" {
		return run.in.TaskQueue
	}
	return DefaultTaskQueue
}

func (run *wfRun) heartbeat() time.Duration {
	if run.in.HeartbeatMs > 0 {
		return time.Duration(run.in.HeartbeatMs) * time.Millisecond
	}
	return defaultHeartbeat
}

// TokenKey is the state key a resume token of a run on Temporal names:
// the run and the gate's sequence number in it.
func TokenKey(runID string, gate int) string {
	return fmt.Sprintf("%s%s.%d", state.WorkflowPrefix, runID, gate)
}
