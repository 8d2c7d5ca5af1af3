package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/pipeline"
	"github.com/lobsterdev/lobster/runtime/render"
)

// haltError is a pipeline inside a workflow step that stopped at a gate
// the workflow cannot pause at: never retried, never handled by on_error.
type haltError struct{ msg string }

func (e *haltError) Error() string { return e.msg }

// preparePipeline resolves a `pipeline:` step, sub-step or branch: its text
// templated, then parsed (a parse error fails the attempt); its stdin, the
// input items.
func (r *runner) preparePipeline(c command) (*Command, error) {
	text := ""
	if s := ast.ScalarOf(c.step.Pipeline.Value); s != nil {
		text = render.Template(s.Text, r.args, c.scope)
	}
	if p := parser.ParsePipelineText(text); p.Err != nil {
		return nil, fmt.Errorf("Workflow step %s pipeline parse failed: %s", c.id, p.Err.Msg)
	}
	stdin, err := Stdin(c.step.Stdin, r.args, c.scope)
	if err != nil {
		return nil, err
	}
	cmd := &Command{
		ID:       c.id,
		Kind:     PipelineCommand,
		Text:     text,
		Stdin:    stdin,
		Env:      Env(r.base, r.args, c.scope, append([]*ast.Field{r.w.Env}, c.env...)...),
		Dir:      r.cwd(append(c.cwd, r.w.Cwd)...),
		TopLevel: c.topLevel,
	}
	if k := r.continuation; k != nil && c.topLevel {
		// The resume of this step's input request.
		r.continuation = nil
		cmd.Continue = k
	}
	return cmd, nil
}

// pausePipeline stops the run at step idx, whose pipeline asked for
// input: a pausing executor ends the run there (res); a decision arms the
// step's continuation, and the caller runs the step again.
func (r *runner) pausePipeline(ctx Ctx, idx int, id string, p *Suspension) (res *envelope.Result, err error) {
	req := jsvalue.NewObject()
	for _, k := range p.Request.Keys() {
		if k != "items" {
			v, _ := p.Request.Get(k)
			req.Set(k, v)
		}
	}
	g := &Gate{Kind: PipelineGate, StepID: id, Request: req, Schema: get(req, "responseSchema"), digest: r.digest}
	g.fit = func() error { return r.fit(id, req) }
	g.saved = func() *Saved {
		saved := r.saved(idx)
		saved.InputStepID = id
		saved.InputKind = "pipeline_command"
		saved.InputSchema = get(req, "responseSchema")
		if subject := get(req, "subject"); subject != jsvalue.Undefined {
			saved.InputSubject = subject
		}
		items := p.Items
		if items == nil {
			items = []any{}
		}
		saved.PipelineInput = jsvalue.Obj("pipeline", p.Stages, "resumeAtIndex", float64(p.Stage),
			"items", items, "commandInput", p.CommandInput)
		return saved
	}
	res, d, err := r.pause(ctx, g)
	if err != nil || res != nil {
		return res, err
	}
	if d.Cancel {
		return cancelled(), nil
	}
	r.continuation = &Continuation{Stage: p.Stage, Items: p.Items, Response: d.Response}
	return nil, nil
}

// resumePipeline checks that the step that asked is still there, still
// runs, and still runs the same pipeline, then arms its continuation.
func (r *runner) resumePipeline(steps []*ast.Step, rs *Resume) error {
	s := rs.Saved
	at := s.ResumeAtIndex
	if at >= len(steps) || steps[at].IDText() != s.InputStepID || steps[at].Pipeline == nil {
		return errors.New("workflow input step changed since input request")
	}
	step := steps[at]
	ok, err := Condition(conditionOf(step), r.results)
	if err != nil {
		return err
	}
	if !ok {
		return errors.New("workflow input step condition changed since input request")
	}
	text := ""
	if sc := ast.ScalarOf(step.Pipeline.Value); sc != nil {
		text = render.Template(sc.Text, r.args, r.results)
	}
	p := parser.ParsePipelineText(text)
	saved, _ := s.PipelineInput.(*jsvalue.Object)
	if p.Err != nil || pipeline.Canonical(pipeline.StagesValue(pipeline.StagesOf(p.Stages, text))) != pipeline.Canonical(get(saved, "pipeline")) {
		return errors.New("workflow pipeline changed since input request")
	}
	if err := checkResponse(s.InputStepID, s.InputSchema, rs.Response); err != nil {
		return err
	}
	stage, _ := get(saved, "resumeAtIndex").(float64)
	items, _ := get(saved, "items").([]any)
	r.continuation = &Continuation{Stage: int(stage), Items: items, Response: rs.Response}
	return nil
}

// haltKind is the type of the one request item a halted pipeline left.
func haltKind(items []any) string {
	if len(items) != 1 {
		return ""
	}
	o, _ := items[0].(*jsvalue.Object)
	kind, _ := get(o, "type").(string)
	return kind
}

// pipelineResult is a pipeline step's result: json is the one item, the
// items, or (a renderer took them all) the parse of what it rendered;
// stdout is the rendered text, else the items as text.
func pipelineResult(id string, items []any, rendered string) *jsvalue.Object {
	var value any
	switch len(items) {
	case 0:
		value = ParseOutput(rendered)
	case 1:
		value = items[0]
	default:
		value = items
	}
	stdout := rendered
	if stdout == "" {
		stdout = itemsText(items)
	}
	return jsvalue.Obj("id", id, "stdout", stdout, "json", value)
}

// itemsText serializes items: strings joined by newlines, one item alone
// (a string raw), several as a JSON array.
func itemsText(items []any) string {
	strs := make([]string, 0, len(items))
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			break
		}
		strs = append(strs, s)
	}
	switch {
	case len(strs) == len(items):
		return strings.Join(strs, "\n")
	case len(items) == 1:
		return jsvalue.Stringify(items[0], "")
	}
	return jsvalue.Stringify(items, "")
}
