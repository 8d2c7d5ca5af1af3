package parser

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// builder turns the generic YAML tree into typed workflow nodes and parses
// the languages embedded in strings. Validation of the reference's load-time
// rules is in validate.go.
type builder struct {
	file   *source.File
	diags  []source.Diagnostic
	budget int // nodes that may still be built through aliases
	warned bool
	shells []*ast.Shell // shell texts to parse, see parseShells
	cache  *Cache       // earlier shell parses, or nil

	// The rest of the current blocks of typed nodes (see nextOf).
	steps     []ast.Step
	shellNode []ast.Shell
	templates []ast.Template
	tmaps     []ast.TemplateMap
	refs      refBlocks
}

// aliasBudget bounds the typed nodes built through aliases, so that an alias
// bomb (anchors that nest aliases to each other) is cut off quickly.
const aliasBudget = 20000

// resolve follows an alias to its anchored value, charging the budget.
func (b *builder) resolve(v ast.Value) ast.Value {
	a, ok := v.(*ast.Alias)
	if !ok {
		return v
	}
	t := ast.Resolve(a)
	if t == nil {
		return v
	}
	b.budget -= countNodes(t, b.budget+1)
	if b.budget < 0 {
		if !b.warned {
			b.warned = true
			b.diags = append(b.diags, source.Diagnostic{
				File: b.file.Name, Range: b.file.RangeOf(a.Span), Severity: source.Error, Code: "limit-exceeded",
				Message: fmt.Sprintf("aliases expand to more than %d nodes; the expansion stops here", aliasBudget),
			})
		}
		return v
	}
	return t
}

// countNodes counts the generic nodes under v, following aliases, up to limit.
func countNodes(v ast.Value, limit int) int {
	n := 0
	var walk func(v ast.Value)
	walk = func(v ast.Value) {
		if n > limit {
			return
		}
		n++
		switch v := v.(type) {
		case *ast.Mapping:
			for _, p := range v.Fields {
				walk(p.Value)
			}
		case *ast.Sequence:
			for _, it := range v.Items {
				walk(it)
			}
		case *ast.Alias:
			if v.Target != nil {
				walk(v.Target)
			}
		}
	}
	walk(v)
	return n
}

// object builds the fields of a typed mapping node. known maps each key the
// reference reads to the slot that receives its field; typed converts a
// field's value to its typed node.
func (b *builder) object(m *ast.Mapping, known map[string]**ast.Field, typed func(name string, v ast.Value) ast.Value) ast.Object {
	return b.objectFunc(m, func(name string) **ast.Field { return known[name] }, typed)
}

// objectFunc is object with the slots given by a function (no map to build).
// The typed object shares the mapping's fields: each known field's value is
// replaced by its typed node. A value that is already typed (a mapping built
// twice because an alias repeats it) stays as it is.
func (b *builder) objectFunc(m *ast.Mapping, slotOf func(name string) **ast.Field, typed func(name string, v ast.Value) ast.Value) ast.Object {
	o := ast.Object{Flow: m.Flow, Fields: m.Fields}
	o.Span = m.Span
	for _, f := range m.Fields {
		if slot := slotOf(f.Key.Text); slot != nil {
			*slot = f
			if typed != nil {
				if v := typed(f.Key.Text, b.resolve(f.Value)); v != nil {
					f.Value = v
				}
			}
		} else {
			o.Unknown = append(o.Unknown, f)
		}
	}
	return o
}

func asMapping(v ast.Value) (*ast.Mapping, bool) {
	m, ok := v.(*ast.Mapping)
	return m, ok
}

func asString(v ast.Value) (*ast.Scalar, bool) {
	s, ok := v.(*ast.Scalar)
	if ok && s.Kind == ast.String {
		return s, true
	}
	return nil, false
}

// workflow builds the top-level mapping.
func (b *builder) workflow(m *ast.Mapping) *ast.Workflow {
	w := &ast.Workflow{}
	known := map[string]**ast.Field{
		"name": &w.Name, "description": &w.Description, "args": &w.Args, "env": &w.Env,
		"cwd": &w.Cwd, "steps": &w.Steps, "cost_limit": &w.CostLimit,
	}
	w.Object = b.object(m, known, func(name string, v ast.Value) ast.Value {
		switch name {
		case "args":
			if m, ok := asMapping(v); ok {
				return b.args(m)
			}
		case "env":
			if m, ok := asMapping(v); ok {
				return b.templateMap(m)
			}
		case "cwd":
			if s, ok := asString(v); ok {
				return b.template(s)
			}
		case "steps":
			if s, ok := v.(*ast.Sequence); ok {
				return b.stepList(s, ast.TopStep)
			}
		case "cost_limit":
			if m, ok := asMapping(v); ok {
				c := &ast.CostLimit{}
				c.Object = b.object(m, map[string]**ast.Field{"max_usd": &c.MaxUSD, "action": &c.Action}, nil)
				return c
			}
		}
		return nil
	})
	return w
}

func (b *builder) args(m *ast.Mapping) *ast.Args {
	a := &ast.Args{}
	a.Object = userObject(m)
	for _, f := range a.Fields {
		if dm, ok := asMapping(b.resolve(f.Value)); ok {
			d := &ast.ArgDef{}
			d.Object = b.object(dm, map[string]**ast.Field{"default": &d.Default, "description": &d.Description}, nil)
			f.Value = d
		}
	}
	return a
}

// templateMap builds an env or workflow_args mapping: every key is the
// user's, string values are templates.
func (b *builder) templateMap(m *ast.Mapping) *ast.TemplateMap {
	t := nextOf(&b.tmaps, 16)
	t.Object = userObject(m)
	for _, f := range t.Fields {
		if s, ok := asString(b.resolve(f.Value)); ok {
			f.Value = b.template(s)
		}
	}
	return t
}

// template is parseTemplate with the node taken from the builder's block.
func (b *builder) template(s *ast.Scalar) *ast.Template {
	t := nextOf(&b.templates, 32)
	fillTemplate(t, b.file, s, &b.refs)
	return t
}

// userObject is the object of a mapping whose keys are all the user's (args,
// env): no field is unknown.
func userObject(m *ast.Mapping) ast.Object {
	o := ast.Object{Flow: m.Flow, Fields: m.Fields}
	o.Span = m.Span
	return o
}

func (b *builder) stepList(s *ast.Sequence, ctx ast.StepContext) *ast.StepList {
	l := &ast.StepList{Flow: s.Flow, Items: make([]ast.Value, len(s.Items))}
	l.Span = s.Span
	for i, it := range s.Items {
		l.Items[i] = b.listItem(it, ctx)
	}
	return l
}

// listItem builds one item of a step list: a step, or the value itself when
// it is not a mapping.
func (b *builder) listItem(it ast.Value, ctx ast.StepContext) ast.Value {
	if m, ok := asMapping(b.resolve(it)); ok {
		return b.step(m, ctx)
	}
	return it
}

// step builds a step, a branch or a sub-step. Every step key gets its typed
// value in every context; the checker decides which ones the context ignores.
func (b *builder) step(m *ast.Mapping, ctx ast.StepContext) *ast.Step {
	s := nextOf(&b.steps, 16)
	s.Context = ctx
	s.Object = b.objectFunc(m, func(name string) **ast.Field { return stepSlot(s, name) }, b.stepValue)
	b.reportCondition(s)
	return s
}

// reportCondition reports a syntax error in the condition the runtime
// evaluates: `when`, else `condition` (when wins when both are set), and none
// on parallel branches, which never evaluate one.
func (b *builder) reportCondition(s *ast.Step) {
	if s.Context == ast.BranchStep {
		return
	}
	f := s.When
	if f == nil {
		f = s.Condition
	}
	if f == nil {
		return
	}
	c, ok := f.Value.(*ast.Condition)
	if !ok || c.Err == nil {
		return
	}
	b.diags = append(b.diags, source.Diagnostic{
		File: b.file.Name, Range: b.file.RangeOf(c.Err.Span), Severity: source.Error, Code: "condition-syntax",
		Message: fmt.Sprintf("invalid condition: %s; the reference fails at run time with \"Unsupported condition: %s\"", c.Err.Msg, strings.TrimSpace(c.Scalar.Text)),
	})
}

// stepSlot is the field of s that receives the key name, or nil for a key
// the reference does not read.
func stepSlot(s *ast.Step, name string) **ast.Field {
	switch name {
	case "id":
		return &s.ID
	case "run":
		return &s.Run
	case "command":
		return &s.Command
	case "pipeline":
		return &s.Pipeline
	case "workflow":
		return &s.Workflow
	case "workflow_args":
		return &s.WorkflowArgs
	case "parallel":
		return &s.Parallel
	case "for_each":
		return &s.ForEach
	case "steps":
		return &s.Steps
	case "item_var":
		return &s.ItemVar
	case "index_var":
		return &s.IndexVar
	case "batch_size":
		return &s.BatchSize
	case "pause_ms":
		return &s.PauseMs
	case "approval":
		return &s.Approval
	case "input":
		return &s.Input
	case "stdin":
		return &s.Stdin
	case "env":
		return &s.Env
	case "cwd":
		return &s.Cwd
	case "when":
		return &s.When
	case "condition":
		return &s.Condition
	case "retry":
		return &s.Retry
	case "timeout_ms":
		return &s.TimeoutMs
	case "on_error":
		return &s.OnError
	}
	return nil
}

// stepValue converts the value of a known step key to its typed node, or
// returns nil to keep the generic value.
func (b *builder) stepValue(name string, v ast.Value) ast.Value {
	switch name {
	case "run", "command":
		if s, ok := asString(v); ok {
			sh := nextOf(&b.shellNode, 32)
			sh.Loc, sh.Scalar = s.Loc, s
			b.shells = append(b.shells, sh)
			return sh
		}
	case "pipeline":
		if s, ok := asString(v); ok {
			p := parsePipeline(b.file, s)
			p.Refs = scanRefs(b.file, s)
			if p.Err != nil {
				b.diags = append(b.diags, source.Diagnostic{
					File: b.file.Name, Range: b.file.RangeOf(p.Err.Span), Severity: source.Error, Code: "pipeline-parse-error",
					Message: "pipeline does not parse: " + p.Err.Msg,
				})
			}
			return p
		}
	case "workflow", "for_each", "stdin", "cwd":
		if s, ok := asString(v); ok {
			return b.template(s)
		}
	case "workflow_args", "env":
		if m, ok := asMapping(v); ok {
			return b.templateMap(m)
		}
	case "parallel":
		if m, ok := asMapping(v); ok {
			p := &ast.Parallel{}
			p.Object = b.object(m, map[string]**ast.Field{"wait": &p.Wait, "timeout_ms": &p.TimeoutMs, "branches": &p.Branches},
				func(name string, v ast.Value) ast.Value {
					if seq, ok := v.(*ast.Sequence); ok && name == "branches" {
						return b.stepList(seq, ast.BranchStep)
					}
					return nil
				})
			return p
		}
	case "steps":
		if seq, ok := v.(*ast.Sequence); ok {
			return b.stepList(seq, ast.SubStep)
		}
	case "approval":
		if m, ok := asMapping(v); ok {
			a := &ast.Approval{}
			a.Object = b.object(m, map[string]**ast.Field{
				"prompt": &a.Prompt, "items": &a.Items, "preview": &a.Preview,
				"initiated_by": &a.InitiatedBy, "initiatedBy": &a.InitiatedByCC,
				"required_approver": &a.RequiredApprover, "requiredApprover": &a.RequiredApproverCC,
				"require_different_approver": &a.RequireDifferentApprover, "requireDifferentApprover": &a.RequireDifferentApproverCC,
			}, nil)
			return a
		}
	case "input":
		if m, ok := asMapping(v); ok {
			in := &ast.Input{}
			in.Object = b.object(m, map[string]**ast.Field{"prompt": &in.Prompt, "responseSchema": &in.ResponseSchema, "defaults": &in.Defaults}, nil)
			return in
		}
	case "retry":
		if m, ok := asMapping(v); ok {
			r := &ast.Retry{}
			r.Object = b.object(m, map[string]**ast.Field{"max": &r.Max, "backoff": &r.Backoff, "delay_ms": &r.DelayMs, "max_delay_ms": &r.MaxDelayMs, "jitter": &r.Jitter}, nil)
			return r
		}
	case "when", "condition":
		if s, ok := asString(v); ok {
			return parseCondition(b.file, s)
		}
	}
	return nil
}

// parseShells parses the collected shell texts, in groups (shellgroup.go).
func (b *builder) parseShells() {
	todo := b.shells
	var results []shellResult // for the cache, parallel to todo
	if b.cache != nil {
		todo = b.cache.reuse(b.file, todo)
		results = make([]shellResult, len(todo))
	}
	for lo := 0; lo < len(todo); lo += shellGroupSize {
		hi := min(lo+shellGroupSize, len(todo))
		var recs []shellResult
		if results != nil {
			recs = results[lo:hi]
		}
		parseShellGroup(b.file, todo[lo:hi], recs)
	}
	if b.cache != nil {
		b.cache.keep(todo, results)
	}
}
