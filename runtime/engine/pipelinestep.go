package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/jsvalue"
	"github.com/lobsterdev/lobster/runtime/pipeline"
	"github.com/lobsterdev/lobster/runtime/render"
)

// haltError is a pipeline inside a workflow step that stopped at a gate
// the workflow cannot pause at: never retried, never handled by on_error.
type haltError struct{ msg string }

func (e *haltError) Error() string { return e.msg }

// pipelineStep runs a `pipeline:` step, sub-step or branch (workflow spec
// §2.4): its text templated, then parsed; its stdin as the input items;
// renderers writing into the step's stdout instead of the terminal.
func (r *runner) pipelineStep(ctx context.Context, c command) (*jsvalue.Object, error) {
	text := ""
	if s := ast.ScalarOf(c.step.Pipeline.Value); s != nil {
		text = render.Template(s.Text, r.args, c.scope)
	}
	p := parser.ParsePipelineText(text)
	if p.Err != nil {
		return nil, fmt.Errorf("Workflow step %s pipeline parse failed: %s", c.id, p.Err.Msg)
	}
	stages := pipeline.StagesOf(p.Stages, text)
	stdin, err := Stdin(c.step.Stdin, r.args, c.scope)
	if err != nil {
		return nil, err
	}
	var input []any
	switch v := stdin.(type) {
	case nil:
	case []any:
		input = v
	default:
		if v != jsvalue.Undefined {
			input = []any{v}
		}
	}
	var rendered bytes.Buffer
	env := &pipeline.Env{
		Mode:     pipeline.Tool,
		Stdin:    strings.NewReader(""),
		Stdout:   &rendered,
		Stderr:   r.opts.Stderr,
		Environ:  Env(r.base, r.args, c.scope, append([]*ast.Field{r.w.Env}, c.env...)...),
		Dir:      r.cwd(append(c.cwd, r.w.Cwd)...),
		StateDir: r.opts.StateDir,
		Force:    r.opts.Force,
	}
	if t := r.opts.Terminal; t != nil {
		// On a terminal, approve and ask prompt there.
		env.Mode, env.Stdin, env.Interactive = pipeline.Human, t.In, true
	}
	opts := pipeline.Options{BeforeEffect: func() error { return r.opts.Resume.claim(ctx) }}
	run := stages
	if k := r.continuation; k != nil && c.topLevel {
		// The resume of this step's input request: the pipeline goes on
		// at the stage that asked, with the items it had and the answer.
		r.continuation = nil
		run, input = stages[k.stage:], k.items
		opts.Resume = &pipeline.ResumeInput{Response: k.response}
	}
	res, err := pipeline.RunWith(ctx, run, input, env, opts)
	if err != nil {
		return nil, err
	}
	if s, ok := res.Suspended(); ok && c.topLevel {
		s.Stage += len(stages) - len(run)
		return nil, &pipelineInput{stages: stages, items: input, Suspension: s}
	}
	if res.Halted {
		name := ""
		if res.HaltedAt >= 0 && res.HaltedAt < len(stages) {
			name = stages[res.HaltedAt].Name
		}
		switch haltKind(res.Items) {
		case "approval_request":
			return nil, &haltError{fmt.Sprintf("Workflow step %s halted for approval inside pipeline stage %s. Use a separate approval step in the workflow file.", c.id, name)}
		case "input_request":
			return nil, &haltError{"requestInput is not supported in this pipeline context"}
		}
		return nil, &haltError{fmt.Sprintf("Workflow step %s halted before completion at pipeline stage %s", c.id, name)}
	}
	return pipelineResult(c.id, res.Items, rendered.String()), nil
}

// pipelineInput is a top-level pipeline step that asked for input: the
// workflow pauses (an input request of kind pipeline_command) and its
// resume continues the pipeline at the stage that asked.
type pipelineInput struct {
	stages []pipeline.Stage
	items  []any // the step's input items
	pipeline.Suspension
}

func (p *pipelineInput) Error() string { return "pipeline input suspension" }

// pipelineContinuation is a pending resume of a pipeline step's input
// request.
type pipelineContinuation struct {
	stage    int
	items    []any
	response any
}

// pausePipeline pauses the run at step idx, whose pipeline asked for input.
func (r *runner) pausePipeline(ctx context.Context, idx int, id string, p *pipelineInput) (envelope.Result, error) {
	req := jsvalue.NewObject()
	for _, k := range p.Request.Keys() {
		if k != "items" {
			v, _ := p.Request.Get(k)
			req.Set(k, v)
		}
	}
	saved := r.saved(idx)
	saved.InputStepID = id
	saved.InputKind = "pipeline_command"
	saved.InputSchema = get(req, "responseSchema")
	if subject := get(req, "subject"); subject != jsvalue.Undefined {
		saved.InputSubject = subject
	}
	items := p.items
	if items == nil {
		items = []any{}
	}
	saved.PipelineInput = jsvalue.Obj("pipeline", pipeline.StagesValue(p.stages), "resumeAtIndex", float64(p.Stage),
		"items", items, "commandInput", p.CommandInput)
	return r.pauseInput(ctx, id, saved, req)
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
	r.continuation = &pipelineContinuation{stage: int(stage), items: items, response: rs.Response}
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
