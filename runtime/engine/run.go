package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/render"
	"github.com/lobsterdev/lobster/runtime/state"
)

// Options are a run's inputs besides the file.
type Options struct {
	Args any      // the provided args (parsed --args-json), or nil
	Env  []string // the process environment

	// Stderr receives the run's log lines ([RETRY] …); nil discards them.
	Stderr io.Writer

	// Force, when closed while a cancelled step is stopping, kills its
	// processes at once (a second interrupt).
	Force <-chan struct{}

	// FilePath is the workflow file's absolute path, stored in the resume
	// state of a pause.
	FilePath string
	// StateDir is where a pause writes its resume state (created on
	// demand).
	StateDir string
	// Terminal, when set, makes gates ask on it instead of pausing the run.
	Terminal *Terminal
	// Resume continues a paused run; see LoadResume.
	Resume *Resume
	// AllowChanged resumes even when the workflow file changed since the
	// pause.
	AllowChanged bool

	// Now is the clock of state timestamps; nil is time.Now.
	Now func() time.Time

	// Active holds the canonical paths of the workflow files being run,
	// outermost first, for sub-workflow cycles; Run starts it with
	// FilePath's.
	Active []string
	// Dir is the working directory of steps without a cwd; "" is the
	// process's. A sub-workflow's is its parent step's.
	Dir string
	// Composed is set for a sub-workflow: its gates cannot pause.
	Composed bool
	// composedBy is the LLM accounting of the run that runs this one as
	// a sub-workflow.
	composedBy *llmParent
	// OnDispatch, when set, hears that a command of the run sent a
	// request that must never be sent twice (see pipeline.Env.Dispatch):
	// a sub-workflow reports it to its parent step's attempt, which is
	// then not retried either.
	OnDispatch func()
	// OnCharge, when set, hears of every LLM provider call that answered
	// in the run (and its sub-workflows): an executor that runs a
	// sub-workflow apart from its parent (a Temporal child workflow)
	// reports them to the parent (ChargeParent).
	OnCharge func(cacheKey string, model any, usage *jsvalue.Object)

	// OnStep, when set, hears each top-level step of the run start, be
	// skipped, finish or pause at a gate, on the run's goroutine, in order.
	// The steps of sub-workflows, loops and parallel branches are not
	// reported on their own: they are part of their step.
	OnStep func(StepEvent)
}

// A Terminal is where interactive gates ask: the request and the prompt
// go to Out and the answer is one line of In.
type Terminal struct {
	In  *bufio.Reader
	Out io.Writer
	// Width is the terminal's width in columns, which the lines that
	// show a request are cut to; 0 for 80.
	Width int
}

// Run executes the workflow's steps in file order in this process, loops,
// parallel blocks, pipelines and sub-workflows included, and returns the
// run's result: the output items of the last step that completed, or a
// pause at a gate with its resume token.
func Run(ctx context.Context, f *ast.File, opts Options) (envelope.Result, error) {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	if opts.Active == nil {
		real, err := filepath.EvalSymlinks(opts.FilePath)
		if err != nil {
			real = opts.FilePath
		}
		opts.Active = []string{real}
	}
	res, err := Execute(localCtx{ctx}, &local{opts: &opts}, f, opts)
	if rs := opts.Resume; rs != nil {
		if err != nil {
			rs.settle(ctx)
		} else if res.Status == envelope.StatusOK {
			err = rs.finish(ctx)
		}
	}
	if err != nil {
		return envelope.Result{}, err
	}
	return res, nil
}

// Execute runs the workflow's steps on x: the control logic of every run,
// whatever executes its commands. A file that is not UTF-8 runs as the
// reference reads it (parser.Decoded).
func Execute(ctx Ctx, x Executor, f *ast.File, opts Options) (envelope.Result, error) {
	f = parser.Decoded(f) // bytes that are not UTF-8 run as U+FFFD, as in the reference
	w := f.Workflow
	var list *ast.StepList
	if w != nil && w.Steps != nil {
		if list, _ = w.Steps.Value.(*ast.StepList); list == nil {
			return envelope.Result{}, fmt.Errorf("workflow steps must be a list")
		}
	}
	r := &runner{x: x, opts: opts, w: w, results: render.Results{}, steps: jsvalue.NewObject()}
	if p := opts.composedBy; p != nil {
		r.marks, r.ledger = p.marks, &ledger{parent: p.ledger, parentStep: p.step}
	} else {
		r.marks, r.ledger = newLLMMarks(), &ledger{}
	}
	r.ledger.onCharge = opts.OnCharge
	if r.opts.Stderr == nil {
		r.opts.Stderr = io.Discard
	}
	var steps []*ast.Step
	if list != nil {
		steps = list.Steps()
	}
	res, err := r.run(ctx, steps)
	if err != nil {
		return envelope.Result{}, err
	}
	return res, nil
}

// runner is the state of one run.
type runner struct {
	x       Executor
	opts    Options
	w       *ast.Workflow
	args    *jsvalue.Object
	base    []string // the env every step starts from
	results render.Results
	steps   *jsvalue.Object // the results again, in the order stored, for the state file
	last    *jsvalue.Object // the last completed step's result
	costs   *costs
	limit   *costLimit
	ledger  *ledger   // the run's LLM calls, billed or not (llmspend.go)
	marks   *llmMarks // the LLM answers, shared with sub-workflows
	// branches are the branch results of the parallel step that just
	// succeeded, billed with it.
	branches []branchBill

	continuation *Continuation // a resumed pipeline step's answer, until it runs
	current      StepEvent     // the step of the last event, for retries and gates
}

func (r *runner) getenv(name string) string { return Getenv(r.opts.Env, name) }

// store records a step's result.
func (r *runner) store(id string, record *jsvalue.Object) {
	r.results[id] = record
	r.steps.Set(id, record)
}

func (r *runner) run(ctx Ctx, steps []*ast.Step) (envelope.Result, error) {
	var provided any = r.opts.Args
	start := 0
	rs := r.opts.Resume
	if rs != nil {
		provided = rs.Saved.Args
		start = rs.Saved.ResumeAtIndex
		for _, id := range rs.Saved.Steps.Keys() {
			rec, _ := rs.Saved.Steps.Get(id)
			r.store(id, rec.(*jsvalue.Object))
		}
	}
	if r.w != nil {
		r.args = ResolveArgs(r.w, provided)
	} else {
		r.args = jsvalue.NewObject()
	}
	if rs != nil {
		if err := r.applyResume(steps, rs); err != nil {
			return envelope.Result{}, err
		}
	}
	if err := r.settings(); err != nil {
		return envelope.Result{}, err
	}
	r.limit = costLimitOf(r.w)
	if rs != nil {
		r.costs.restore(rs.Saved.Cost)
		r.ledger.restore(rs.Saved.LLMSpend, false)
		r.ledger.restore(rs.Saved.LLMBilled, true)
		r.restoreLLMMarks(r.steps, rs.Saved.LLMBilled)
	}

	again := -1 // a step that goes on after its pipeline's question was answered
	for idx := start; idx < len(steps); idx++ {
		step := steps[idx]
		if err := ctx.Err(); err != nil {
			return envelope.Result{}, err
		}
		id := step.IDText()
		cond := conditionOf(step)
		ok, err := Condition(cond, r.results)
		if err != nil {
			return envelope.Result{}, err
		}
		if !ok {
			r.store(id, jsvalue.Obj("id", id, "skipped", true))
			r.event(StepSkipped, idx, len(steps), id, nil)
			continue
		}
		if idx != again {
			r.event(StepStarted, idx, len(steps), id, nil)
		}
		if step.Input != nil {
			res, halted, err := r.input(ctx, idx, step)
			if !halted {
				r.event(StepFinished, idx, len(steps), id, err)
			}
			if err != nil || halted {
				return res, err
			}
			continue
		}
		r.branches = nil
		record, err := r.execute(ctx, step)
		var asked *Suspension
		if errors.As(err, &asked) {
			res, err := r.pausePipeline(ctx, idx, id, asked)
			if err != nil || res != nil {
				return deref(res), err
			}
			idx-- // answered: the step goes on where it asked
			again = idx + 1
			continue
		}
		if err != nil {
			r.event(StepFinished, idx, len(steps), id, err)
			policy := onErrorOf(step.OnError)
			if policy == "stop" || ctx.Err() != nil || isFatal(err) {
				return envelope.Result{}, err
			}
			// The failure is recorded; the output stays the last
			// successful step's.
			r.store(id, jsvalue.Obj("id", id, "error", true, "errorMessage", err.Error()))
			// A call the failed step paid for is spend all the same.
			r.settleUnbilled()
			if err := r.costs.check(r.limit); err != nil {
				return envelope.Result{}, err
			}
			if policy == "skip_rest" {
				break
			}
			continue
		}
		r.store(id, record)
		r.last = record
		// One accounting group per step: its parallel branches and its
		// own result settle together, then what no item carried.
		var group []deferredCharge
		for _, b := range r.branches {
			r.billStep(b.id, b.record, &group)
		}
		r.billStep(id, record, &group)
		r.settleDeferred(group)
		r.settleUnbilled()
		r.event(StepFinished, idx, len(steps), id, nil)
		if err := r.costs.check(r.limit); err != nil {
			return envelope.Result{}, err
		}
		if c, gate := approvalOf(step.Approval); gate {
			res, halted, err := r.approval(ctx, idx, id, c, record)
			if err != nil || halted {
				return res, err
			}
		}
	}
	r.settleUnbilled()
	if err := r.costs.check(r.limit); err != nil {
		return envelope.Result{}, err
	}
	if p := r.opts.composedBy; p != nil && r.last != nil {
		// A child whose last step rendered its items hands those on, so
		// that the parent bills the same objects.
		r.marks.mu.Lock()
		p.sources = r.marks.sources[r.last]
		r.marks.mu.Unlock()
	}
	output := []any{}
	if r.last != nil {
		output = envelope.OutputItems(get(r.last, "json"), get(r.last, "response"), get(r.last, "stdout"))
	}
	return envelope.Result{Status: envelope.StatusOK, Output: output}, nil
}

// settings reads what the run's environment sets: the environment steps
// start from, LLM prices.
func (r *runner) settings() error {
	r.base = BaseEnv(r.opts.Env, r.args)
	r.costs = newCosts(r.getenv, r.opts.Stderr)
	return nil
}

// execute runs a step's execution (a for_each loop, parallel branches, a
// sub-workflow, a shell command or pipeline, or nothing for an
// approval-only step) under its retry and timeout policy. A loop is
// attempted as a whole, as 2026.9.13 does (the documents say loops ignore
// both): a retry runs every item again, and the timeout bounds the loop.
func (r *runner) execute(ctx Ctx, step *ast.Step) (*jsvalue.Object, error) {
	id := step.IDText()
	policy, timeout := retryOf(step.Retry), timeoutOf(step.TimeoutMs)
	// stdin and a loop's items are resolved inside each attempt: a
	// failure there is retried and subject to on_error, as in the
	// reference.
	switch {
	case step.ForEach != nil:
		return withRetry(r.x, ctx, id, policy, timeout, r.opts.Stderr, r.opts.OnDispatch, r.beforeRetry, r.retried, func(actx Ctx, dispatched func()) (*jsvalue.Object, error) {
			return r.forEach(actx, step, dispatched)
		})
	case step.Parallel != nil:
		return withRetry(r.x, ctx, id, policy, timeout, r.opts.Stderr, r.opts.OnDispatch, r.beforeRetry, r.retried, func(actx Ctx, dispatched func()) (*jsvalue.Object, error) {
			return r.parallel(actx, step, dispatched)
		})
	case step.Workflow != nil:
		return withRetry(r.x, ctx, id, policy, timeout, r.opts.Stderr, r.opts.OnDispatch, r.beforeRetry, r.retried, func(actx Ctx, dispatched func()) (*jsvalue.Object, error) {
			return r.subWorkflow(actx, step, dispatched)
		})
	}
	return r.runCommand(ctx, command{id: id, step: step, scope: r.results,
		env: []*ast.Field{step.Env}, cwd: []*ast.Field{step.Cwd}, topLevel: true, dispatched: r.opts.OnDispatch}, policy, timeout)
}

// approval handles the gate of step id after its execution succeeded.
func (r *runner) approval(ctx Ctx, idx int, id string, c approvalConfig, record *jsvalue.Object) (envelope.Result, bool, error) {
	identity := c.identity.withEnvDefaults(r.getenv)
	req := approvalRequest(id, c, identity, record)
	if identity.InitiatedBy != "" {
		record.Set("initiatedBy", identity.InitiatedBy)
	}
	g := &Gate{Kind: ApprovalGate, StepID: id, Request: req, Identity: identity, Schema: jsvalue.Undefined, digest: r.digest}
	g.saved = func() *Saved {
		saved := r.saved(idx + 1)
		saved.ApprovalStepID = id
		saved.ApprovalIdentity = identity
		return saved
	}
	res, d, err := r.pause(ctx, g)
	if err != nil || res != nil {
		return deref(res), res != nil, err
	}
	if !d.approved() {
		return *cancelled(), true, nil
	}
	if err := identity.enforce(id, d.Approver); err != nil {
		return envelope.Result{}, false, err
	}
	approve(record, d.Approver)
	return envelope.Result{}, false, nil
}

// input handles an input step.
func (r *runner) input(ctx Ctx, idx int, step *ast.Step) (envelope.Result, bool, error) {
	id := step.IDText()
	c := inputOf(step.Input)
	stdin, err := Stdin(step.Stdin, r.args, r.results)
	if err != nil {
		return envelope.Result{}, false, err
	}
	subject := inputSubject(stdin, step.Stdin != nil && stdin != jsvalue.Undefined, r.last)
	req := inputRequest(c, subject)
	g := &Gate{Kind: InputGate, StepID: id, Request: req, Schema: c.schema, digest: r.digest}
	g.fit = func() error { return r.fit(id, req) }
	g.saved = func() *Saved {
		saved := r.saved(idx + 1)
		saved.InputStepID = id
		saved.InputSchema = c.schema
		saved.InputSubject = subject
		return saved
	}
	res, d, err := r.pause(ctx, g)
	if err != nil || res != nil {
		return deref(res), res != nil, err
	}
	if d.Cancel {
		return *cancelled(), true, nil
	}
	record := jsvalue.Obj("id", id, "subject", subject, "response", d.Response)
	r.store(id, record)
	r.last = record
	return envelope.Result{}, false, nil
}

// pause stops the run at gate g (see Executor.Pause), with the events
// StepWaiting, then StepPaused when the run ends there. A sub-workflow
// cannot stop: its gates fail the parent step, unless they ask on the
// terminal.
func (r *runner) pause(ctx Ctx, g *Gate) (*envelope.Result, *Decision, error) {
	if r.opts.Composed && r.opts.Terminal == nil {
		kind := g.Kind
		if kind == PipelineGate {
			kind = InputGate
		}
		return nil, nil, &haltInComposition{kind}
	}
	r.atGate(StepWaiting, g)
	res, d, err := r.x.Pause(ctx, g)
	if err == nil && res != nil {
		r.atGate(StepPaused, g)
	}
	return res, d, err
}

// fit cuts the subject of an input request to the envelope size limit
// (see fitInputRequest), with an empty resumeToken in its place, so that
// a request too big to send writes no state.
func (r *runner) fit(id string, req *jsvalue.Object) error {
	req.Set("resumeToken", "")
	return fitInputRequest(id, req, maxEnvelope(r.getenv))
}

// cancelled is the result of a run cancelled at a gate.
func cancelled() *envelope.Result {
	return &envelope.Result{Status: envelope.StatusCancelled, Output: []any{}}
}

func deref(res *envelope.Result) envelope.Result {
	if res == nil {
		return envelope.Result{}
	}
	return *res
}

// digest fingerprints the run's workflow file (see DigestOf).
func (r *runner) digest() *Digest { return DigestOf(r.w, r.opts.FilePath) }

// saved is the resume state of a pause that continues at step index at.
func (r *runner) saved(at int) *Saved {
	s := &Saved{
		FilePath:      r.opts.FilePath,
		ResumeAtIndex: at,
		Steps:         r.steps,
		Args:          r.args,
		InputSchema:   jsvalue.Undefined,
		CreatedAt:     state.ISOTime(r.opts.Now()),
	}
	if sum := r.costs.summary(); sum != nil {
		s.Cost = sum
	}
	s.LLMSpend, s.LLMBilled = r.ledger.state()
	if rs := r.opts.Resume; rs != nil {
		s.Superseded = append(append([]string{}, rs.Saved.Superseded...), rs.Key)
	}
	return s
}

// approver is who approves, as an environment declares it.
func approverOf(getenv func(string) string) string {
	return js.Trim(getenv("LOBSTER_APPROVAL_APPROVED_BY"))
}

// ApproverIn is who approves, as the settings env declare it
// (LOBSTER_APPROVAL_APPROVED_BY, trimmed): the approver a resume with
// this environment records.
func ApproverIn(env []string) string {
	return approverOf(func(name string) string { return Getenv(env, name) })
}

// isFatal says err ends the run whatever the step's retry and on_error
// say: the resume's state is gone or claimed, cost_limit stopped it, or a
// pipeline stopped at a gate.
func isFatal(err error) bool {
	var gone *state.GoneError
	var limit *limitError
	var halt *haltError
	var asked *Suspension
	return errors.As(err, &gone) || errors.As(err, &limit) || errors.As(err, &halt) || errors.As(err, &asked)
}

// onErrorOf is a step's on_error policy: "stop" (the default), "continue"
// or "skip_rest".
func onErrorOf(f *ast.Field) string {
	if f != nil {
		if s, ok := Value(f.Value).(string); ok && (s == "continue" || s == "skip_rest") {
			return s
		}
	}
	return "stop"
}

// beforeRetry is what happens before a failed step is retried: under
// cost_limit with action stop, the failed attempt's spend is billed and a
// limit it went over stops the run instead.
func (r *runner) beforeRetry() error {
	if r.limit == nil || !r.limit.stop {
		return nil
	}
	r.settleUnbilled()
	return r.costs.check(r.limit)
}

// ChargeParent records, in the accounting of the run that runs this
// sub-workflow (o are its options, as Executor.RunWorkflow gets them), a
// provider call the sub-workflow made while it ran apart (OnCharge): as
// if the child had run in this process, the call is the parent step's
// spend, settled by the answer when it comes back, else billed at the end
// of the step.
func (o Options) ChargeParent(cacheKey string, model any, usage *jsvalue.Object) {
	if p := o.composedBy; p != nil {
		p.ledger.record(cacheKey, charge{stepID: p.step, model: model, usage: usage})
	}
}

// llmParent is a sub-workflow's view of its parent's LLM accounting.
type llmParent struct {
	ledger  *ledger
	marks   *llmMarks
	step    string // the parent's step: the child's calls are its spend
	sources []any  // set by the child: the items its last step rendered
}

// branchBill is a parallel branch's result to bill.
type branchBill struct {
	id     string
	record *jsvalue.Object
}
