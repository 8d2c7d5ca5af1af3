package pipeline

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/jsvalue"
	"github.com/lobsterdev/lobster/runtime/state"
)

// Finalize turns a tool-mode run into the envelope's result (spec §5.5):
// a run that halted with exactly one approval request becomes
// needs_approval, with its state saved as pipeline_resume_<uuid> in the
// state directory, a resume token and, when the file system allows it, a
// short approval id. Any other run is ok with its items.
func Finalize(ctx context.Context, stages []Stage, res Result, env *Env, now time.Time) (envelope.Result, error) {
	req, ok := gate(res)
	if !ok {
		return envelope.Result{Status: envelope.StatusOK, Output: nonNil(res.Items)}, nil
	}
	s, err := env.store()
	if err != nil {
		return envelope.Result{}, err
	}
	prompt, _ := req.Get("prompt")
	items, _ := req.Get("items")
	pipeline := make([]any, len(stages))
	for i, st := range stages {
		pipeline[i] = jsvalue.Obj("name", st.Name, "args", st.Args.Object(), "raw", st.Raw)
	}
	key := state.PipelinePrefix + uuid4()
	saved := jsvalue.Obj(
		"pipeline", pipeline,
		"resumeAtIndex", float64(res.HaltedAt+1),
		"items", items,
		"haltType", "approval_request",
		"prompt", prompt,
		"supersededResumeStateKeys", []any{},
		"createdAt", state.ISOTime(now),
	)
	if err := writeLocked(ctx, s, key, func([]byte) []byte { return stateText(saved) }); err != nil {
		return envelope.Result{}, err
	}
	id, err := s.CreateApproval(key, now)
	if err != nil {
		s.Delete(context.WithoutCancel(ctx), key)
		return envelope.Result{}, err
	}
	out := jsvalue.Obj("type", "approval_request", "prompt", prompt, "items", items)
	if p, ok := req.Get("preview"); ok {
		out.Set("preview", p)
	}
	out.Set("resumeToken", state.Token{Kind: state.KindPipeline, StateKey: key}.Encode())
	if id != "" {
		out.Set("approvalId", id)
	}
	return envelope.Result{Status: envelope.StatusNeedsApproval, Output: []any{}, RequiresApproval: out}, nil
}

// gate is the approval request a halted run ends with: exactly one item,
// an object of type approval_request.
func gate(res Result) (*jsvalue.Object, bool) {
	if !res.Halted || len(res.Items) != 1 {
		return nil, false
	}
	o, ok := res.Items[0].(*jsvalue.Object)
	if !ok {
		return nil, false
	}
	t, _ := o.Get("type")
	return o, t == "approval_request"
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

// uuid4 is a random version 4 UUID.
func uuid4() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
