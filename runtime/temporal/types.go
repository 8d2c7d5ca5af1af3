// Package temporal runs workflow files on Temporal: a run is a Temporal
// workflow whose control logic is the engine's own (engine.Execute, with
// an Executor made of workflow primitives), each shell or pipeline command
// an activity on a worker, each sub-workflow a child workflow, each gate an
// update that lobster resume sends. The client side (Engine) starts runs,
// follows them to their next pause or end, and resumes them.
package temporal

import (
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/envelope"
)

// Names of the workflow, activities, updates and query.
const (
	WorkflowName         = "lobster.run"      // a run (and a sub-workflow's run)
	approvalWorkflowName = "lobster.approval" // names a paused run by its approval id
	commandActivity      = "lobster.command"  // one shell or pipeline command
	loadActivity         = "lobster.load"     // reads and checks a sub-workflow file
	watchUpdate          = "lobster.watch"    // waits for the run's next outcome
	resumeUpdate         = "lobster.resume"   // answers the gate the run waits at
	statusQuery          = "lobster.status"   // where the run is
	pauseQuery           = "lobster.pause"    // the outcome of the pause the run waits at

	// approvalNotFoundKind is a resume by an approval id that names no
	// waiting gate.
	approvalNotFoundKind = "approval-not-found"

	// WorkflowIDPrefix starts the id of every run's workflow; the rest is
	// the run's id.
	WorkflowIDPrefix = "lobster-"
	// approvalIDPrefix starts the id of the workflow that names a paused
	// run by its approval id.
	approvalIDPrefix = "lobster-approval-"
	// DefaultTaskQueue is where runs and their commands go unless told.
	DefaultTaskQueue = "lobster"
)

// JSON is a runtime value as it travels in a payload: its JSON text,
// object keys in order. Undefined travels as null.
type JSON struct{ V any }

func (j JSON) MarshalJSON() ([]byte, error) {
	if j.V == jsvalue.Undefined {
		return []byte("null"), nil
	}
	return []byte(jsvalue.Stringify(j.V, "")), nil
}

func (j *JSON) UnmarshalJSON(data []byte) error {
	v, err := jsvalue.Parse(data)
	if err != nil {
		return err
	}
	j.V = v
	return nil
}

// optional is v as a payload value, nil for Undefined.
func optional(v any) *JSON {
	if v == jsvalue.Undefined {
		return nil
	}
	return &JSON{v}
}

// value is the runtime value of an optional payload value.
func value(j *JSON) any {
	if j == nil {
		return jsvalue.Undefined
	}
	return j.V
}

// RunInput starts a run's workflow (or a sub-workflow's child workflow).
type RunInput struct {
	RunID  string // the workflow id is WorkflowIDPrefix + RunID
	Path   string // the workflow file's absolute path where the run was started
	Source string // its content, decoded as UTF-8 (JSON payloads cannot hold other bytes): the run does not read it again
	Args   *JSON  // the provided args; nil for none
	// Env is the run's own environment: the LOBSTER_ settings of the
	// command that started it. Steps see a worker's environment with this
	// over it.
	Env []string
	// BaseDir is the directory the run was started in: steps without a
	// cwd run there, and a relative cwd is relative to it.
	BaseDir string
	// Dir, Active and Composed are a sub-workflow's (see engine.Options).
	Dir      string
	Active   []string
	Composed bool
	// Routes pin steps to task queues; TaskQueue is the run's own.
	Routes    []Route
	TaskQueue string
	// HeartbeatMs is how long a command's worker may stay silent before
	// the command counts as lost; 0 for the default.
	HeartbeatMs int64
}

// An Outcome is where a run stands after a leg: paused at a gate, or
// ended. Watchers and resumes get it.
type Outcome struct {
	Seq              int    // 1 for the first leg's outcome
	Status           string // an envelope status; "" for an error
	Output           *JSON  // the output items of an ok run
	RequiresApproval *JSON
	RequiresInput    *JSON
	Error            string // the run's error
	ErrorKind        string // engine.ErrorKind of it
	// Log holds the run's log lines of this leg ([WARN] …), which a
	// local run writes on standard error.
	Log string
	// Gate names the gate of a pause: its sequence number in the run.
	Gate int
	// Dispatched says a command of the run sent a request that must not
	// be sent twice (see engine.Call.OnDispatch).
	Dispatched bool
	// Charges are the LLM provider calls of the run so far, for the
	// parent of a sub-workflow's run (engine.Options.ChargeParent).
	Charges []tallyCharge
}

// Result is the envelope result of an outcome without an error.
func (o *Outcome) Result() envelope.Result {
	res := envelope.Result{Status: o.Status, Output: []any{}}
	if o.Output != nil {
		if items, ok := o.Output.V.([]any); ok {
			res.Output = items
		}
	}
	if o.RequiresApproval != nil {
		res.RequiresApproval, _ = o.RequiresApproval.V.(*jsvalue.Object)
	}
	if o.RequiresInput != nil {
		res.RequiresInput, _ = o.RequiresInput.V.(*jsvalue.Object)
	}
	return res
}

// commandInput is one command for the command activity.
type commandInput struct {
	ID, Kind, Text string
	Stdin          *JSON
	Env            []string
	Dir            string
	BaseDir        string
	MaxOutput      int64
	TopLevel       bool
	TimeoutMs      int64
	Continue       *continuation
	// StdinAnswers are the LLM answers among the stdin's objects (a
	// pipeline's input items), for the command's tally.
	StdinAnswers []engine.TallyAnswer
}

type continuation struct {
	Stage    int
	Items    *JSON
	Response *JSON
}

// commandOutput is a command's result: its record, or the input request
// of a pipeline that asked.
type commandOutput struct {
	Record     *JSON
	Suspended  *suspended
	Log        string // what the command logged (pipeline commands' [WARN] …)
	Effect     bool   // the command got as far as an effect
	Dispatched bool   // it sent a request that must not be sent twice
	Tally      *tally // what its LLM commands said
}

// failureDetails go with a command's failure (and, as the Log of an
// Outcome, with a sub-workflow's).
type failureDetails struct {
	Log        string
	Effect     bool
	Dispatched bool
	Tally      *tally
	Charges    []tallyCharge // a sub-workflow's (its Outcome's)
}

// tally is an engine.TallyReport as it travels.
type tally struct {
	Charges  []tallyCharge
	Answers  []engine.TallyAnswer
	Rendered *JSON
}

type tallyCharge struct {
	Key   string
	Model *JSON
	Usage *JSON
}

func tallyOf(r *engine.TallyReport) *tally {
	if r == nil {
		return nil
	}
	t := &tally{Answers: r.Answers}
	for _, c := range r.Charges {
		tc := tallyCharge{Key: c.Key, Model: &JSON{c.Model}}
		if c.Usage != nil {
			tc.Usage = &JSON{c.Usage}
		}
		t.Charges = append(t.Charges, tc)
	}
	if r.Rendered != nil {
		t.Rendered = &JSON{r.Rendered}
	}
	return t
}

// report is the engine's report of t (nil for none).
func (t *tally) report() *engine.TallyReport {
	if t == nil {
		return nil
	}
	r := &engine.TallyReport{Answers: t.Answers}
	for _, c := range t.Charges {
		tc := engine.TallyCharge{Key: c.Key}
		if c.Model != nil {
			tc.Model = c.Model.V
		}
		if c.Usage != nil {
			tc.Usage, _ = c.Usage.V.(*jsvalue.Object)
		}
		r.Charges = append(r.Charges, tc)
	}
	if t.Rendered != nil {
		r.Rendered, _ = t.Rendered.V.([]any)
	}
	return r
}

type suspended struct {
	Stages       *JSON
	Stage        int
	Items        *JSON
	Request      *JSON
	CommandInput *JSON
}

// ResumeRequest answers the gate a run waits at, named by its sequence
// number (from the token) or its approval id.
type ResumeRequest struct {
	Gate       int
	ApprovalID string
	Approve    *bool
	Approver   string // as Env declares it (shown in the run's history; the workflow reads Env)
	Response   *JSON  // nil for none
	Cancel     bool
	Env        []string // the resuming command's LOBSTER_ settings
}

// Status is where a run stands, as its query and memo show it.
type Status struct {
	Paused     bool
	Gate       int
	Kind       string // gate kind
	StepID     string
	ApprovalID string
	Token      string
	PausedAt   string // RFC 3339
	Path       string
}
