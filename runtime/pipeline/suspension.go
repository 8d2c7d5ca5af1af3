package pipeline

import "github.com/lobsterdev/lobster/lang/jsvalue"

// A Suspension is a run halted at a same-stage input request (ask in tool
// mode): what a pipeline state or a workflow state stores to continue it.
type Suspension struct {
	Stage        int             // the index of the stage that asked
	Request      *jsvalue.Object // the input_request item
	CommandInput *jsvalue.Object // the reference's commandInput record
}

// Suspended returns the run's same-stage input request, if it halted on
// one.
func (r Result) Suspended() (Suspension, bool) {
	if !r.Halted || r.suspend == nil {
		return Suspension{}, false
	}
	req, _ := gate(r)
	return Suspension{Stage: r.HaltedAt, Request: req, CommandInput: r.suspend.commandInput()}, true
}

// commandInput is the pending request as the reference stores it: the
// request's metadata with its canonical signature, and the suspended
// command's own state.
func (s *suspension) commandInput() *jsvalue.Object {
	metadata := jsvalue.Obj("prompt", s.prompt, "responseSchema", s.schema)
	suspended := jsvalue.Obj("type", "ask")
	if s.subject != nil {
		metadata.Set("subject", s.subject)
		suspended.Set("subject", s.subject)
	}
	metadata.Set("signature", Canonical(metadata))
	return jsvalue.Obj(
		"pending", jsvalue.Obj("requestIndex", 0.0, "metadata", metadata, "suspendedState", suspended),
		"history", []any{},
	)
}

// StagesValue is stages as state files store them: {name, args, raw}.
func StagesValue(stages []Stage) []any {
	out := make([]any, len(stages))
	for i, st := range stages {
		out[i] = jsvalue.Obj("name", st.Name, "args", st.Args.Object(), "raw", st.Raw)
	}
	return out
}
