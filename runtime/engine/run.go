package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/jsvalue"
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

	// Set for a sub-workflow by its parent step.
	active        map[string]bool // canonical paths of the files being run, for cycles
	defaultCwd    string          // the parent step's cwd
	inComposition bool            // gates cannot pause
}

// A Terminal is where interactive gates ask: the prompt goes to Out and
// the answer is one line of In.
type Terminal struct {
	In  *bufio.Reader
	Out io.Writer
}

// Run executes the workflow's steps in file order (workflow spec §4.1) and
// returns the run's result: the output items of the last step that
// completed, or a pause at a gate with its resume token.
//
// Steps it cannot run yet (a pipeline, a loop, parallel branches, a
// sub-workflow) stop the run with an error naming them before anything of
// that step runs, never a silent difference.
func Run(ctx context.Context, f *ast.File, opts Options) (envelope.Result, error) {
	w := f.Workflow
	var list *ast.StepList
	if w != nil && w.Steps != nil {
		if list, _ = w.Steps.Value.(*ast.StepList); list == nil {
			return envelope.Result{}, fmt.Errorf("workflow steps must be a list")
		}
	}
	r := &runner{opts: opts, w: w, results: render.Results{}, steps: jsvalue.NewObject()}
	if r.opts.Stderr == nil {
		r.opts.Stderr = io.Discard
	}
	if r.opts.Now == nil {
		r.opts.Now = time.Now
	}
	if r.opts.active == nil {
		real, err := filepath.EvalSymlinks(opts.FilePath)
		if err != nil {
			real = opts.FilePath
		}
		r.opts.active = map[string]bool{real: true}
	}
	var steps []*ast.Step
	if list != nil {
		steps = list.Steps()
	}
	res, err := r.run(ctx, steps)
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

// runner is the state of one run.
type runner struct {
	opts      Options
	w         *ast.Workflow
	args      *jsvalue.Object
	base      []string // the env every step starts from
	maxOutput int64
	results   render.Results
	steps     *jsvalue.Object // the results again, in the order stored, for the state file
	last      *jsvalue.Object // the last completed step's result
	costs     *costs
	limit     *costLimit

	continuation *pipelineContinuation // a resumed pipeline step's answer, until it runs
}

func (r *runner) getenv(name string) string { return Getenv(r.opts.Env, name) }

// store records a step's result.
func (r *runner) store(id string, record *jsvalue.Object) {
	r.results[id] = record
	r.steps.Set(id, record)
}

func (r *runner) run(ctx context.Context, steps []*ast.Step) (envelope.Result, error) {
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
	var err error
	if r.maxOutput, err = MaxStepOutput(r.getenv); err != nil {
		return envelope.Result{}, err
	}
	r.base = BaseEnv(r.opts.Env, r.args)
	r.costs = newCosts(r.getenv, r.opts.Stderr)
	r.limit = costLimitOf(r.w)
	if rs != nil {
		r.costs.restore(rs.Saved.Cost, rs.Saved.LLMBilled)
	}

	for idx := start; idx < len(steps); idx++ {
		step := steps[idx]
		if err := context.Cause(ctx); err != nil {
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
			continue
		}
		if step.Input != nil {
			res, halted, err := r.input(ctx, idx, step)
			if err != nil || halted {
				return res, err
			}
			continue
		}
		var record *jsvalue.Object
		if step.ForEach != nil {
			// Loops ignore retry and timeout_ms; on_error applies to
			// the loop as a whole (recorded from the reference).
			record, err = r.forEach(ctx, step)
		} else {
			record, err = r.execute(ctx, step)
		}
		var asked *pipelineInput
		if errors.As(err, &asked) {
			return r.pausePipeline(ctx, idx, id, asked)
		}
		if err != nil {
			policy := onErrorOf(step.OnError)
			if policy == "stop" || context.Cause(ctx) != nil || isFatal(err) {
				return envelope.Result{}, err
			}
			// The failure is recorded; the output stays the last
			// successful step's.
			r.store(id, jsvalue.Obj("id", id, "error", true, "errorMessage", err.Error()))
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
		r.costs.bill(id, record)
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
	if err := r.costs.check(r.limit); err != nil {
		return envelope.Result{}, err
	}
	output := []any{}
	if r.last != nil {
		output = envelope.OutputItems(get(r.last, "json"), get(r.last, "response"), get(r.last, "stdout"))
	}
	return envelope.Result{Status: envelope.StatusOK, Output: output}, nil
}

// execute runs a step's execution (parallel branches, a sub-workflow, a
// shell command, or nothing for an approval-only step) under its retry and
// timeout policy.
func (r *runner) execute(ctx context.Context, step *ast.Step) (*jsvalue.Object, error) {
	id := step.IDText()
	// stdin is resolved inside each attempt: a failure there is retried
	// and subject to on_error, as in the reference.
	return withRetry(ctx, id, retryOf(step.Retry), timeoutOf(step.TimeoutMs), r.opts.Stderr,
		func(actx context.Context) (*jsvalue.Object, error) {
			switch {
			case step.Parallel != nil:
				return r.parallel(actx, step)
			case step.Workflow != nil:
				return r.subWorkflow(actx, step)
			}
			return r.runCommand(actx, command{id: id, step: step, scope: r.results,
				env: []*ast.Field{step.Env}, cwd: []*ast.Field{step.Cwd}, topLevel: true})
		})
}

// approval handles the gate of step id after its execution succeeded:
// asks on the terminal, or pauses the run.
func (r *runner) approval(ctx context.Context, idx int, id string, c approvalConfig, record *jsvalue.Object) (envelope.Result, bool, error) {
	identity := c.identity.withEnvDefaults(r.getenv)
	req := approvalRequest(id, c, identity, record)
	if identity.InitiatedBy != "" {
		record.Set("initiatedBy", identity.InitiatedBy)
	}
	if t := r.opts.Terminal; t != nil {
		if err := r.askApproval(ctx, t, req); err != nil {
			return envelope.Result{}, false, err
		}
		if err := identity.enforce(id, r.approver()); err != nil {
			return envelope.Result{}, false, err
		}
		approve(record, r.approver())
		return envelope.Result{}, false, nil
	}
	if r.opts.inComposition {
		return envelope.Result{}, false, &haltInComposition{"approval"}
	}
	saved := r.saved(idx + 1)
	saved.ApprovalStepID = id
	saved.ApprovalIdentity = identity
	token, approvalID, err := r.pause(ctx, saved, true)
	if err != nil {
		return envelope.Result{}, false, err
	}
	req.Set("resumeToken", token)
	if approvalID != "" {
		req.Set("approvalId", approvalID)
	}
	return envelope.Result{Status: envelope.StatusNeedsApproval, Output: []any{}, RequiresApproval: req}, true, nil
}

// input handles an input step: asks on the terminal, or pauses the run.
func (r *runner) input(ctx context.Context, idx int, step *ast.Step) (envelope.Result, bool, error) {
	id := step.IDText()
	c := inputOf(step.Input)
	stdin, err := Stdin(step.Stdin, r.args, r.results)
	if err != nil {
		return envelope.Result{}, false, err
	}
	subject := inputSubject(stdin, step.Stdin != nil && stdin != jsvalue.Undefined, r.last)
	if t := r.opts.Terminal; t != nil {
		response, err := r.askInput(ctx, t, id, c)
		if err != nil {
			return envelope.Result{}, false, err
		}
		record := jsvalue.Obj("id", id, "subject", subject, "response", response)
		r.store(id, record)
		r.last = record
		return envelope.Result{}, false, nil
	}
	if r.opts.inComposition {
		return envelope.Result{}, false, &haltInComposition{"input"}
	}
	req := inputRequest(c, subject)
	saved := r.saved(idx + 1)
	saved.InputStepID = id
	saved.InputSchema = c.schema
	saved.InputSubject = subject
	res, err := r.pauseInput(ctx, id, saved, req)
	return res, err == nil, err
}

// pauseInput pauses the run at an input request (an input step's, or a
// pipeline step's ask): the subject is cut to the envelope size limit
// first, so a request too big to send writes no state.
func (r *runner) pauseInput(ctx context.Context, id string, saved *Saved, req *jsvalue.Object) (envelope.Result, error) {
	req.Set("resumeToken", "")
	if err := fitInputRequest(id, req, maxEnvelope(r.getenv)); err != nil {
		return envelope.Result{}, err
	}
	token, _, err := r.pause(ctx, saved, false)
	if err != nil {
		return envelope.Result{}, err
	}
	req.Set("resumeToken", token)
	return envelope.Result{Status: envelope.StatusNeedsInput, Output: []any{}, RequiresInput: req}, nil
}

// saved is the resume state of a pause that continues at step index at.
func (r *runner) saved(at int) *Saved {
	s := &Saved{
		FilePath:      r.opts.FilePath,
		ResumeAtIndex: at,
		Steps:         r.steps,
		Args:          r.args,
		InputSchema:   jsvalue.Undefined,
		CreatedAt:     state.ISOTime(r.opts.Now()),
		Digest:        DigestOf(r.w, r.opts.FilePath),
	}
	if sum := r.costs.summary(); sum != nil {
		s.Cost = sum
	}
	s.LLMBilled = r.costs.billedKeys()
	if rs := r.opts.Resume; rs != nil {
		s.Superseded = append(append([]string{}, rs.Saved.Superseded...), rs.Key)
	}
	return s
}

// approver is who approves, as the environment declares it.
func (r *runner) approver() string {
	return strings.TrimSpace(r.getenv("LOBSTER_APPROVAL_APPROVED_BY"))
}

// isFatal says err ends the run whatever the step's retry and on_error
// say: the resume's state is gone or claimed, cost_limit stopped it, or a
// pipeline stopped at a gate.
func isFatal(err error) bool {
	var gone *resumeError
	var limit *limitError
	var halt *haltError
	var asked *pipelineInput
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
