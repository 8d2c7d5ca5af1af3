package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/state"
)

// A Resume continues a paused run. LoadResume builds
// it; Run takes it in Options.Resume.
type Resume struct {
	Store *state.Store
	Key   string
	Saved *Saved

	// The decision: Approved for an approval, Response for an input.
	Approved bool
	Response any // Undefined when none was given

	raw     json.RawMessage // the state as loaded, for the claim
	claimed *state.Claim
	taken   bool // the boundary was crossed by a resume without a store
}

// errStateNotFound is a resume whose state is gone: claimed by another
// resume, cancelled, or never issued.
var errStateNotFound = &state.GoneError{Msg: "Workflow resume state not found"}

// LoadResume reads the resume state under key. The decision is checked
// against the kind of pause (an approval needs approved, an input a
// response) before anything else: a mismatch is an *ArgumentError and
// leaves the state as it is.
func LoadResume(ctx context.Context, store *state.Store, key string) (*Resume, error) {
	var raw json.RawMessage
	err := state.ErrResumeNotFound
	for _, k := range keySpellings(key) {
		if raw, err = store.LoadResume(ctx, k); !errors.Is(err, state.ErrResumeNotFound) {
			key = k
			break
		}
	}
	if errors.Is(err, state.ErrResumeNotFound) {
		return nil, errStateNotFound
	}
	if err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			return nil, errInvalidState
		}
		return nil, err
	}
	saved, err := DecodeSaved(raw)
	if err != nil {
		return nil, err
	}
	return &Resume{Store: store, Key: key, Saved: saved, raw: raw, Response: jsvalue.Undefined}, nil
}

// CheckDecision says whether the decision fits the pause.
func (rs *Resume) CheckDecision(hasApprove, hasResponse bool) error {
	if rs.Saved.InputStepID != "" {
		if hasApprove || !hasResponse {
			return &ArgumentError{"Workflow resume requires --response-json for input requests"}
		}
		return nil
	}
	if hasResponse || !hasApprove {
		return &ArgumentError{"Workflow resume requires --approve yes|no for approval requests"}
	}
	return nil
}

// Reject ends a paused run at a rejected approval: its state and approval
// id are deleted and nothing more runs.
func (rs *Resume) Reject(ctx context.Context) (envelope.Result, error) {
	c, err := rs.Store.ClaimResume(ctx, rs.Key, rs.raw)
	if err != nil {
		return envelope.Result{}, errStateNotFound
	}
	if err := c.Release(ctx); err != nil {
		return envelope.Result{}, err
	}
	rs.Store.RemoveApprovalFor(rs.Key)
	return envelope.Result{Status: envelope.StatusCancelled, Output: []any{}}, nil
}

// Cancel deletes the resume state under key (and its alias spelling) and
// its approval id: the run it paused will not continue. A state already
// claimed by a running resume, or none at all, is "Resume state not found".
func Cancel(ctx context.Context, store *state.Store, key string) (envelope.Result, error) {
	deleted := false
	for _, k := range keySpellings(key) {
		raw, err := store.LoadResume(ctx, k)
		if errors.Is(err, state.ErrResumeNotFound) {
			continue
		}
		var syntax *json.SyntaxError
		if err != nil && !errors.As(err, &syntax) {
			return envelope.Result{}, err
		}
		if err == nil {
			if _, err := store.ClaimResume(ctx, k, raw); err != nil {
				continue
			}
		}
		// A corrupt state may be deleted by an explicit cancel.
		if err := store.Delete(ctx, k); err != nil {
			return envelope.Result{}, err
		}
		deleted = true
	}
	if !deleted {
		return envelope.Result{}, &state.GoneError{Msg: "Resume state not found"}
	}
	store.RemoveApprovalFor(key)
	return envelope.Result{Status: envelope.StatusCancelled, Output: []any{}}, nil
}

// keySpellings are the names a workflow state key may have on disk: the
// reference accepts workflow-resume_ as an alias of workflow_resume_.
func keySpellings(key string) []string {
	if rest, ok := strings.CutPrefix(key, "workflow_resume_"); ok {
		return []string{key, "workflow-resume_" + rest}
	}
	if rest, ok := strings.CutPrefix(key, "workflow-resume_"); ok {
		return []string{"workflow_resume_" + rest, key}
	}
	return []string{key}
}

// applyResume checks the workflow against the pause and applies the
// decision to the gate's result, before any step runs.
func (r *runner) applyResume(steps []*ast.Step, rs *Resume) error {
	if d := rs.Saved.Digest; d != nil && !r.opts.AllowChanged && r.w != nil {
		if err := d.Compare(DigestOf(r.w, r.opts.FilePath)); err != nil {
			return &ArgumentError{err.Error()}
		}
	}
	if rs.Saved.InputKind == "pipeline_command" {
		return r.resumePipeline(steps, rs)
	}
	if id := rs.Saved.InputStepID; id != "" {
		var step *ast.Step
		for _, s := range steps {
			if s.IDText() == id && s.Input != nil {
				step = s
				break
			}
		}
		if step == nil {
			return fmt.Errorf("Invalid input step in resume state: %s", id)
		}
		schema := rs.Saved.InputSchema
		if schema == jsvalue.Undefined {
			schema = inputOf(step.Input).schema
		}
		if err := checkResponse(id, schema, rs.Response); err != nil {
			return err
		}
		record := jsvalue.Obj("id", id, "subject", rs.Saved.InputSubject, "response", rs.Response)
		r.store(id, record)
		r.last = record
		return nil
	}
	id := rs.Saved.ApprovalStepID
	approver := approverOf(r.getenv)
	if err := rs.Saved.ApprovalIdentity.enforce(id, approver); err != nil {
		return err
	}
	record := r.results[id]
	if record == nil {
		record = jsvalue.Obj("id", id)
		r.store(id, record)
	}
	approve(record, approver)
	// The output starts from the last step in file order with a result:
	// normally the gate.
	for i := min(rs.Saved.ResumeAtIndex, len(steps)) - 1; i >= 0; i-- {
		if rec := r.results[steps[i].IDText()]; rec != nil {
			r.last = rec
			break
		}
	}
	return nil
}

// claim takes the paused run's state for this resume, right before its
// first effect: of two resumes of one token, one gets it, the other stops
// with "Workflow resume state not found" having run nothing. A nil resume
// or one already claimed does nothing.
func (rs *Resume) claim(ctx context.Context) error {
	if rs == nil || rs.claimed != nil || rs.taken {
		return nil
	}
	if rs.Store == nil {
		// A paused run kept by its executor (a Temporal workflow, which
		// waits between legs): nothing to take but the boundary.
		rs.taken = true
		return nil
	}
	c, err := rs.Store.ClaimResume(ctx, rs.Key, rs.raw)
	if errors.Is(err, state.ErrResumeNotFound) {
		return errStateNotFound
	}
	if err != nil {
		return err
	}
	if cause := context.Cause(ctx); cause != nil {
		// Cancelled before anything ran: the token stays usable.
		c.Restore(context.WithoutCancel(ctx))
		return cause
	}
	rs.claimed = c
	return nil
}

// Claim crosses the execution boundary of a resumed run (see claim).
func (rs *Resume) Claim(ctx context.Context) error { return rs.claim(ctx) }

// Claimed says whether the resumed run crossed its execution boundary:
// before, a failure leaves the pause as it was.
func (rs *Resume) Claimed() bool { return rs != nil && (rs.claimed != nil || rs.taken) }

// finish settles a resume whose run completed: its state, the states its
// earlier pauses left, and its approval id are deleted.
func (rs *Resume) finish(ctx context.Context) error {
	if err := rs.claim(ctx); err != nil {
		return err
	}
	rs.settle(ctx)
	return nil
}

// settle ends a resume whose run is over (done or failed). Once claimed, the state is
// spent: it is deleted with its predecessors and its approval id, so a
// replay finds nothing and repeats nothing. Unclaimed, all stay and the
// resume can be retried.
func (rs *Resume) settle(ctx context.Context) {
	if rs.claimed == nil {
		return
	}
	ctx = context.WithoutCancel(ctx)
	rs.claimed.Release(ctx)
	for _, k := range rs.Saved.Superseded {
		rs.Store.Delete(ctx, k)
	}
	rs.Store.RemoveApprovalFor(rs.Key)
}

// pause writes the resume state of a paused run and returns its token and,
// for an approval, its short id. A resumed run retires its predecessor
// first, so that a token is never continued twice.
func (x *local) pause(ctx context.Context, saved *Saved, approval bool) (token, approvalID string, err error) {
	if err := x.opts.Resume.claim(ctx); err != nil {
		return "", "", err
	}
	store, err := state.Open(x.opts.StateDir)
	if err != nil {
		return "", "", err
	}
	key := "workflow_resume_" + state.NewUUID()
	path, err := store.Path(key)
	if err != nil {
		return "", "", err
	}
	if err := state.WriteFileAtomic(path, saved.Encode()); err != nil {
		return "", "", err
	}
	if approval {
		if approvalID, err = store.CreateApproval(key, x.opts.Now()); err != nil {
			store.Delete(context.WithoutCancel(ctx), key)
			return "", "", err
		}
	}
	if rs := x.opts.Resume; rs != nil {
		rs.Store.RemoveApprovalFor(rs.Key)
	}
	return state.Token{Kind: state.KindWorkflow, StateKey: key}.Encode(), approvalID, nil
}

// ApprovalRequest is the approval_request of the gate the run paused at,
// as its envelope showed it (without resumeToken and approvalId), rebuilt
// from the paused state and f, the workflow file: for a client that asks a
// person about a pause it did not see begin. It is nil when the pause is
// not at an approval gate of one of f's steps.
func (rs *Resume) ApprovalRequest(f *ast.File) *jsvalue.Object {
	id := rs.Saved.ApprovalStepID
	f = parser.Decoded(f)
	if id == "" || f == nil || f.Workflow == nil || f.Workflow.Steps == nil {
		return nil
	}
	list, _ := f.Workflow.Steps.Value.(*ast.StepList)
	if list == nil {
		return nil
	}
	for _, step := range list.Steps() {
		if step.IDText() != id {
			continue
		}
		c, ok := approvalOf(step.Approval)
		if !ok {
			return nil
		}
		record, _ := get(rs.Saved.Steps, id).(*jsvalue.Object)
		if record == nil {
			record = jsvalue.Obj("id", id)
		}
		return approvalRequest(id, c, rs.Saved.ApprovalIdentity, record)
	}
	return nil
}
