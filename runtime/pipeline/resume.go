package pipeline

//lint:file-ignore ST1005 error messages are the reference's, word for word (capitals included)

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/state"
	"github.com/lobsterdev/lobster/runtime/validate"
)

// Decision is what a resume of a paused pipeline brings: an approval
// decision, or a response to an input request (jsvalue.Undefined when
// there is none).
type Decision struct {
	Approved *bool
	Response any
}

// IntentError is a resume whose decision does not fit the paused gate, or
// whose response fails the gate's schema: a parse_error, and the state is
// left as it was.
type IntentError struct{ Msg string }

func (e *IntentError) Error() string { return e.Msg }

// savedRun is a loaded pipeline resume state.
type savedRun struct {
	stages       []Stage
	resumeAt     int
	items        []any
	input        bool // an input gate (else an approval)
	sameStage    bool
	inputSchema  any
	superseded   []string
	hasCommandIn bool
}

// Resume continues the pipeline paused under the state key:
// an approval gate with the decision, an input gate with the response.
// It runs in tool mode and returns the next envelope's result. The state
// is claimed (replaced by a tombstone) right before the first stage that
// may have effects, so two resumes of one token run those stages at most
// once; a failure before that point leaves the token usable.
func Resume(ctx context.Context, store *state.Store, key string, d Decision, env *Env, now time.Time) (envelope.Result, error) {
	if err := context.Cause(ctx); err != nil {
		return envelope.Result{}, err
	}
	raw, err := store.LoadResume(ctx, key)
	if errors.Is(err, state.ErrResumeNotFound) {
		return envelope.Result{}, errResumeNotFound
	}
	if err != nil {
		return envelope.Result{}, err
	}
	v, err := jsvalue.Parse(raw)
	if err != nil {
		return envelope.Result{}, err
	}
	run, ok := loadSaved(v)
	if !ok {
		return envelope.Result{}, errors.New("Invalid pipeline resume state")
	}

	hasResponse := d.Response != jsvalue.Undefined
	if run.input {
		if d.Approved != nil || !hasResponse {
			return envelope.Result{}, &IntentError{"pipeline input resumes require response"}
		}
		switch err := validate.Value(run.inputSchema, d.Response); {
		case errors.Is(err, validate.ErrBadSchema):
			return envelope.Result{}, &IntentError{"pipeline input response schema is invalid"}
		case err != nil:
			var f *validate.Failure
			if errors.As(err, &f) {
				return envelope.Result{}, &IntentError{fmt.Sprintf("pipeline input response failed schema validation at %s: %s", f.Path, f.Message)}
			}
			return envelope.Result{}, err
		}
	} else if hasResponse {
		return envelope.Result{}, &IntentError{"approval resumes require approved=true|false, not response"}
	}

	if !run.input && (d.Approved == nil || !*d.Approved) {
		// Rejected: the capability is spent.
		if _, err := store.ClaimResume(ctx, key, raw); err != nil {
			return envelope.Result{}, errResumeNotFound
		}
		store.RemoveApprovalFor(key)
		if err := store.Delete(context.WithoutCancel(ctx), key); err != nil {
			return envelope.Result{}, err
		}
		return envelope.Result{Status: envelope.StatusCancelled, Output: []any{}}, nil
	}

	pred := &predecessor{store: store, key: key, loaded: raw, superseded: run.superseded}
	input := run.items
	var opts Options
	switch {
	case run.input && run.sameStage:
		opts.Resume = &ResumeInput{Response: d.Response}
	case run.input:
		input = []any{d.Response}
	}
	opts.BeforeEffect = func() error {
		c, err := store.ClaimResume(ctx, key, raw)
		if err != nil {
			if errors.Is(err, state.ErrResumeNotFound) {
				return errResumeNotFound
			}
			return err
		}
		pred.claim = c
		return nil
	}
	stages := run.stages[run.resumeAt:]
	env.Mode = Tool
	res, err := RunWith(ctx, stages, input, env, opts)
	if err != nil {
		if pred.claim != nil {
			// Effects may have happened: the tombstone stays, so no
			// replay repeats them, and the approval id goes.
			store.RemoveApprovalFor(key)
		}
		return envelope.Result{}, err
	}
	return finalize(ctx, stages, res, env, now, pred)
}

// loadSaved validates a resume state's structure.
func loadSaved(v any) (*savedRun, bool) {
	o, ok := v.(*jsvalue.Object)
	if !ok {
		return nil, false
	}
	run := &savedRun{}
	list, ok := field[[]any](o, "pipeline")
	if !ok {
		return nil, false
	}
	for _, e := range list {
		st, ok := e.(*jsvalue.Object)
		if !ok {
			return nil, false
		}
		name, ok1 := field[string](st, "name")
		args, ok2 := field[*jsvalue.Object](st, "args")
		raw, ok3 := field[string](st, "raw")
		if !ok1 || !ok2 || !ok3 || name == "" {
			return nil, false
		}
		a, ok := argsFromObject(args)
		if !ok {
			return nil, false
		}
		run.stages = append(run.stages, Stage{Name: name, Args: a, Raw: raw})
	}
	at, ok := field[float64](o, "resumeAtIndex")
	if !ok || at != math.Trunc(at) || at < 0 || at > float64(len(run.stages)) {
		return nil, false
	}
	run.resumeAt = int(at)
	if run.items, ok = field[[]any](o, "items"); !ok {
		return nil, false
	}
	halt, hasHalt := o.Get("haltType")
	switch {
	case !hasHalt || halt == "approval_request":
	case halt == "input_request":
		run.input = true
	default:
		return nil, false
	}
	mode, hasMode := o.Get("resumeMode")
	switch {
	case !hasMode || mode == "next_stage":
	case mode == "same_stage":
		run.sameStage = true
	default:
		return nil, false
	}
	_, run.hasCommandIn = o.Get("commandInput")
	if run.input {
		schema, ok := o.Get("inputSchema")
		if _, isString := field[string](o, "prompt"); !ok || !isString {
			return nil, false
		}
		run.inputSchema = schema
		if run.sameStage && (run.resumeAt >= len(run.stages) || !run.hasCommandIn) {
			return nil, false
		}
	} else if run.sameStage || run.hasCommandIn {
		return nil, false
	}
	if sup, ok := o.Get("supersededResumeStateKeys"); ok {
		list, ok := sup.([]any)
		if !ok {
			return nil, false
		}
		for _, k := range list {
			s, ok := k.(string)
			if !ok {
				return nil, false
			}
			run.superseded = append(run.superseded, s)
		}
	}
	return run, true
}

// field is o[key] when it has type T.
func field[T any](o *jsvalue.Object, key string) (T, bool) {
	v, ok := o.Get(key)
	t, isT := v.(T)
	return t, ok && isT
}
