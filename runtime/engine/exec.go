package engine

import (
	"errors"
	"strings"
	"time"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/pipeline"
	"github.com/lobsterdev/lobster/runtime/state"
)

// The control logic of a run (conditions, references, on_error, retry,
// loops, parallel branches, gates, cost) is written once, against an
// Executor: the local one runs a workflow in this process (processes,
// goroutines, timers, a state directory); another may run it elsewhere,
// for example as a Temporal workflow whose commands are activities. The
// control logic itself is deterministic: it iterates no map for an
// outcome, reads no clock, draws no random number and starts no goroutine
// except through its Executor, so that a replay of the same decisions
// takes the same path.

// A Ctx is a scope of the control logic: the run, a parallel block, an
// attempt under a timeout. Executors make their own (a context.Context
// locally, a workflow.Context on Temporal).
type Ctx interface {
	// Err is nil while the scope is live, then why it ended: the cause
	// given when it was cancelled or timed out.
	Err() error
}

// An Executor carries out what the control logic of a run decides.
type Executor interface {
	// Command runs one command of a step (a shell command or a
	// pipeline) under its retry policy and timeout: each attempt calls
	// c.Prepare, then runs the command it returns (see Perform).
	Command(ctx Ctx, c *Call) (*jsvalue.Object, error)

	// LoadWorkflow reads and checks the sub-workflow file at path (see
	// the function LoadWorkflow).
	LoadWorkflow(ctx Ctx, path string) (*Loaded, error)
	// RunWorkflow runs a sub-workflow, checked, to its result (see
	// Execute).
	RunWorkflow(ctx Ctx, f *ast.File, opts Options) (envelope.Result, error)

	// Pause stops the run at a gate. An executor either ends the run
	// there and returns its result (needs_approval, needs_input, with a
	// resume token), or waits for the decision and returns it; the
	// control logic applies it and goes on.
	Pause(ctx Ctx, g *Gate) (*envelope.Result, *Decision, error)

	// Claim is the execution boundary of a resumed run: right before the
	// first effect, the run takes its paused state (an executor that
	// keeps a paused run alive has nothing to take).
	Claim(ctx Ctx) error

	// Sleep waits d, or until ctx ends (then it returns ctx.Err()).
	Sleep(ctx Ctx, d time.Duration) error
	// WithCancel is a scope within ctx that cancel ends with cause.
	WithCancel(ctx Ctx) (child Ctx, cancel func(cause error))
	// WithTimeout is a scope within ctx that ends with cause after d;
	// stop releases it.
	WithTimeout(ctx Ctx, d time.Duration, cause error) (child Ctx, stop func())
	// Go runs fn concurrently with the caller, in ctx.
	Go(ctx Ctx, fn func(Ctx))
	// NewQueue is a queue of values between concurrent functions,
	// holding up to size without blocking.
	NewQueue(ctx Ctx, size int) Queue
	// Random is a number in [0, 1), for retry jitter.
	Random(ctx Ctx) float64
}

// A Queue passes values between the functions an Executor runs at once.
type Queue interface {
	// Put adds v; it does not block while the queue has room.
	Put(ctx Ctx, v any)
	// Get takes the next value, waiting for it at most wait (forever
	// when wait is 0); ok is false when the wait ran out.
	Get(ctx Ctx, wait time.Duration) (v any, ok bool)
}

// A Call is one command of a step to run under its policy.
type Call struct {
	ID      string
	Retry   retryPolicy   // the step's retry (one attempt for loop sub-steps and branches)
	Timeout time.Duration // of each attempt; 0 for none
	// Prepare resolves the command (stdin, templates, environment) for
	// an attempt; its error fails the attempt.
	Prepare func() (*Command, error)
	// OnDispatch, when set, hears that an attempt sent a request that
	// must never be sent twice (Host.Dispatch), so that the enclosing
	// attempt (a loop's, a parallel block's, a sub-workflow step's) is
	// not retried either. An attempt that dispatched is never retried.
	OnDispatch func()
	// LLM hears of the LLM answers the command produces (see
	// pipeline.LLMAccounting); nil: none are told.
	LLM pipeline.LLMAccounting
	// BeforeRetry, when set, is called after a failed attempt that would
	// be retried; its error ends the attempts instead (a cost_limit that
	// the failed attempt's spend went over).
	BeforeRetry func() error
	// OnRetry, when set, hears that attempt n of max failed with err and
	// that the next starts after delay; executors call it before they
	// wait (progress displays show it).
	OnRetry func(n, max int, err error, delay time.Duration)
}

// MaxAttempts is the number of attempts the policy allows (at least 1).
func (p retryPolicy) MaxAttempts() int { return p.max }

// Backoff is the delay before the first retry, the factor by which each
// retry's delay grows (1 or 2), the delay's cap and whether the policy
// asks for jitter.
func (p retryPolicy) Backoff() (delay time.Duration, factor float64, maxDelay time.Duration, jitter bool) {
	factor = 1
	if p.exponential {
		factor = 2
	}
	ms := func(f float64) time.Duration { return time.Duration(max(0, f) * float64(time.Millisecond)) }
	return ms(p.delayMs), factor, ms(p.maxDelayMs), p.jitter
}

// Command kinds.
const (
	ShellCommand    = "shell"
	PipelineCommand = "pipeline"
)

// A Command is one command of a step, resolved: what Perform runs.
type Command struct {
	ID   string
	Kind string // ShellCommand or PipelineCommand
	// Text is the command's text with args and results substituted: a
	// shell command ("" when there is nothing to run) or a pipeline.
	Text  string
	Stdin any      // the stdin value; jsvalue.Undefined for none
	Env   []string // the environment the workflow gives (see Host.Env)
	Dir   string   // "" for the host's
	// MaxOutput bounds each output stream of a shell command; 0 is
	// LOBSTER_MAX_OUTPUT_BYTES of the command's environment, as the
	// reference reads it, else pipeline.DefaultMaxOutput.
	MaxOutput int64
	// TopLevel is set for a step of the workflow (not a loop sub-step or
	// a branch): only there may a pipeline stop to ask for input.
	TopLevel bool
	// Continue resumes a pipeline that asked for input, at the stage
	// that asked.
	Continue *Continuation
}

// A Continuation is how a pipeline step that asked for input goes on.
type Continuation struct {
	Stage    int   // the stage that asked
	Items    []any // the step's input items
	Response any   // the answer
}

// Gate kinds.
const (
	ApprovalGate = "approval" // a step's approval
	InputGate    = "input"    // an input step
	PipelineGate = "pipeline" // a pipeline step's ask stage (an input request)
)

// A Gate is where a run stops for a decision.
type Gate struct {
	Kind   string
	StepID string
	// Request is the approval_request or input_request of the envelope,
	// without its resumeToken (an executor sets it, and an approvalId).
	Request *jsvalue.Object
	// Identity is the approver policy of an approval.
	Identity Identity
	// Schema is the response schema of an input request (Undefined when
	// there is none).
	Schema any

	saved  func() *Saved  // the resume state of a run that ends here
	fit    func() error   // cuts an input request to the envelope size
	digest func() *Digest // fingerprints the workflow file
}

// Saved is the resume state of a run that ends at the gate, without its
// Digest.
func (g *Gate) Saved() *Saved { return g.saved() }

// Digest fingerprints the workflow file (and the sub-workflows it names)
// as the gate sees it, for a resume to tell what changed since; it reads
// those files.
func (g *Gate) Digest() *Digest { return g.digest() }

// Fit cuts an input request's subject until the tool envelope holds it
// (the resumeToken set to ""), or fails; an approval has nothing to cut.
// Executors call it before they publish the request.
func (g *Gate) Fit() error {
	if g.fit == nil {
		return nil
	}
	return g.fit()
}

// Check says whether a decision may be applied at the gate: its kind
// (an approval needs approve, an input a response), the approver identity
// of a granted approval, the schema of a response. Its error is an
// *ArgumentError, and the gate stays as it was.
func (g *Gate) Check(d *Decision) error {
	if d.Cancel {
		return nil
	}
	hasResponse := d.Response != jsvalue.Undefined
	if g.Kind == ApprovalGate {
		if hasResponse || d.Approve == nil {
			return &ArgumentError{"Workflow resume requires --approve yes|no for approval requests"}
		}
		if !*d.Approve {
			return nil // a rejection needs no identity
		}
		return g.Identity.enforce(g.StepID, d.Approver)
	}
	if d.Approve != nil || !hasResponse {
		return &ArgumentError{"Workflow resume requires --response-json for input requests"}
	}
	return checkResponse(g.StepID, g.Schema, d.Response)
}

// A Decision is what a gate is answered with.
type Decision struct {
	Approve  *bool  // an approval's answer; nil for an input
	Approver string // who approves (LOBSTER_APPROVAL_APPROVED_BY, trimmed)
	Response any    // an input's response; jsvalue.Undefined for none
	Cancel   bool   // the run is cancelled instead
}

// approved says whether the decision grants an approval.
func (d *Decision) approved() bool { return d.Approve != nil && *d.Approve && !d.Cancel }

// Kinds of run errors that change what the control logic does with them,
// so that they keep their meaning through another process (a Temporal
// activity or child workflow): see ErrorKind and KindError.
const (
	HaltKind          = "halt"       // a pipeline stopped at a gate it cannot pause at: fatal
	CostLimitKind     = "cost-limit" // cost_limit stopped the run: fatal
	ComposedGateKind  = "composed-"  // + "approval" or "input": a gate in a sub-workflow
	ArgumentKind      = "argument"   // an *ArgumentError
	StateNotFoundKind = "state-gone" // a resume whose state is gone: fatal
	SuspendedKind     = "suspended"  // a Suspension (it travels as data)
	FailedKind        = "failed"     // any other error
	notFoundKind      = "not-found"  // ErrWorkflowNotFound
)

// ErrorKind is the kind of a run error (FailedKind for an ordinary one).
func ErrorKind(err error) string {
	var halt *haltError
	var limit *limitError
	var composed *haltInComposition
	var arg *ArgumentError
	var gone *state.GoneError
	var asked *Suspension
	switch {
	case errors.As(err, &composed):
		return ComposedGateKind + composed.kind
	case errors.As(err, &halt):
		return HaltKind
	case errors.As(err, &limit):
		return CostLimitKind
	case errors.As(err, &arg):
		return ArgumentKind
	case errors.As(err, &gone):
		return StateNotFoundKind
	case errors.As(err, &asked):
		return SuspendedKind
	case errors.Is(err, ErrWorkflowNotFound):
		return notFoundKind
	}
	return FailedKind
}

// KindError is an error of the kind ErrorKind named, with message msg.
func KindError(kind, msg string) error {
	switch {
	case strings.HasPrefix(kind, ComposedGateKind):
		return &haltInComposition{strings.TrimPrefix(kind, ComposedGateKind)}
	case kind == HaltKind:
		return &haltError{msg}
	case kind == CostLimitKind:
		return &limitError{msg}
	case kind == ArgumentKind:
		return &ArgumentError{msg}
	case kind == StateNotFoundKind:
		return &state.GoneError{Msg: msg}
	case kind == notFoundKind:
		return ErrWorkflowNotFound
	}
	return errors.New(msg)
}

// IsFatal says an error ends the run whatever the step's retry and
// on_error say.
func IsFatal(err error) bool { return isFatal(err) }
