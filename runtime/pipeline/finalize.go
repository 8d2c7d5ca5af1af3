package pipeline

//lint:file-ignore ST1005 error messages are the reference's, word for word (capitals included)

import (
	"context"
	"time"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/state"
)

// Finalize turns a tool-mode run into the envelope's result:
// a run that halted with exactly one approval or input request pauses,
// with its state saved as pipeline_resume_<uuid> in the state directory
// and a resume token (and, for an approval, a short approval id when the
// file system allows it). Any other run is ok with its items.
func Finalize(ctx context.Context, stages []Stage, res Result, env *Env, now time.Time) (envelope.Result, error) {
	return finalize(ctx, stages, res, env, now, nil)
}

// predecessor is the resume state a resumed run continues.
type predecessor struct {
	store      *state.Store
	key        string
	loaded     []byte       // the state as loaded, for a claim
	claim      *state.Claim // set once the run crossed its execution boundary
	superseded []string     // earlier states of the chain, now tombstones
}

// retire makes sure the predecessor can never be resumed again: it is
// claimed (a tombstone) if the run has not claimed it yet.
func (p *predecessor) retire(ctx context.Context) error {
	if p.claim != nil {
		return nil
	}
	c, err := p.store.ClaimResume(ctx, p.key, p.loaded)
	if err != nil {
		return errResumeNotFound
	}
	p.claim = c
	return nil
}

// errResumeNotFound is the reference's error for a spent or unknown
// pipeline token.
var errResumeNotFound = &state.GoneError{Msg: "Pipeline resume state not found"}

func finalize(ctx context.Context, stages []Stage, res Result, env *Env, now time.Time, pred *predecessor) (envelope.Result, error) {
	req, kind := gate(res)
	var store *state.Store
	if kind != "" || pred != nil {
		var err error
		if pred != nil {
			store = pred.store
		} else if store, err = env.store(); err != nil {
			return envelope.Result{}, err
		}
	}
	if kind == "" {
		if pred != nil {
			// The chain is complete: its states and index go.
			if err := pred.retire(ctx); err != nil {
				return envelope.Result{}, err
			}
			store.RemoveApprovalFor(pred.key)
			for _, k := range append(pred.superseded, pred.key) {
				store.Delete(context.WithoutCancel(ctx), k)
			}
		}
		return envelope.Result{Status: envelope.StatusOK, Output: nonNil(res.Items)}, nil
	}

	superseded := []any{}
	if pred != nil {
		if err := pred.retire(ctx); err != nil {
			return envelope.Result{}, err
		}
		for _, k := range append(pred.superseded, pred.key) {
			superseded = append(superseded, k)
		}
	}
	prompt, _ := req.Get("prompt")
	saved := jsvalue.Obj("pipeline", StagesValue(stages))
	out := jsvalue.Obj("type", kind, "prompt", prompt)
	if kind == "approval_request" {
		items, _ := req.Get("items")
		saved.Set("resumeAtIndex", float64(res.HaltedAt+1))
		saved.Set("items", items)
		saved.Set("haltType", kind)
		out.Set("items", items)
		if p, ok := req.Get("preview"); ok {
			out.Set("preview", p)
		}
	} else {
		schema, _ := req.Get("responseSchema")
		saved.Set("resumeAtIndex", float64(res.HaltedAt+1))
		saved.Set("items", []any{})
		saved.Set("haltType", kind)
		saved.Set("resumeMode", "next_stage")
		if res.suspend != nil {
			saved.Set("resumeAtIndex", float64(res.HaltedAt))
			saved.Set("resumeMode", "same_stage")
		}
		saved.Set("inputSchema", schema)
		out.Set("responseSchema", schema)
		for _, k := range []string{"defaults", "subject"} {
			if v, ok := req.Get(k); ok {
				out.Set(k, v)
			}
		}
	}
	saved.Set("prompt", prompt)
	if s := res.suspend; s != nil {
		saved.Set("commandInput", s.commandInput())
	}
	saved.Set("supersededResumeStateKeys", superseded)
	saved.Set("createdAt", state.ISOTime(now))

	key := state.PipelinePrefix + state.NewUUID()
	if err := writeLocked(ctx, store, key, func([]byte) []byte { return stateText(saved) }); err != nil {
		return envelope.Result{}, err
	}
	if pred != nil {
		store.RemoveApprovalFor(pred.key)
	}
	out.Set("resumeToken", state.Token{Kind: state.KindPipeline, StateKey: key}.Encode())
	if kind == "input_request" {
		return envelope.Result{Status: envelope.StatusNeedsInput, Output: []any{}, RequiresInput: out}, nil
	}
	id, err := store.CreateApproval(key, now)
	if err != nil {
		store.Delete(context.WithoutCancel(ctx), key)
		return envelope.Result{}, err
	}
	if id != "" {
		out.Set("approvalId", id)
	}
	return envelope.Result{Status: envelope.StatusNeedsApproval, Output: []any{}, RequiresApproval: out}, nil
}

// gate is the request a halted run ends with: exactly one item, an object
// of type approval_request or input_request; kind is "" for none.
func gate(res Result) (req *jsvalue.Object, kind string) {
	if !res.Halted || len(res.Items) != 1 {
		return nil, ""
	}
	o, ok := res.Items[0].(*jsvalue.Object)
	if !ok {
		return nil, ""
	}
	switch t, _ := o.Get("type"); t {
	case "approval_request", "input_request":
		return o, t.(string)
	}
	return nil, ""
}

// Object is the arguments as the reference's parsed stage holds them:
// {_: [positionals…], flag: value…}, a bare flag's value true.
func (a *Args) Object() *jsvalue.Object {
	pos := make([]any, len(a.Positional))
	for i, p := range a.Positional {
		pos[i] = p
	}
	o := jsvalue.Obj("_", pos)
	for _, n := range a.names {
		v := a.values[n]
		if v.Bare {
			o.Set(n, true)
		} else {
			o.Set(n, v.Text)
		}
	}
	return o
}

// argsFromObject reads arguments saved by Object.
func argsFromObject(o *jsvalue.Object) (*Args, bool) {
	a := &Args{values: map[string]Value{}}
	for _, k := range o.Keys() {
		v, _ := o.Get(k)
		if k == "_" {
			list, ok := v.([]any)
			if !ok {
				return nil, false
			}
			for _, p := range list {
				s, ok := p.(string)
				if !ok {
					return nil, false
				}
				a.Positional = append(a.Positional, s)
			}
			continue
		}
		switch v := v.(type) {
		case string:
			a.set(k, Value{Text: v})
		case bool:
			if !v {
				return nil, false
			}
			a.set(k, Value{Bare: true})
		default:
			return nil, false
		}
	}
	return a, true
}
