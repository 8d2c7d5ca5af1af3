package parser

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file reports the reference's load-time validation as diagnostics. The
// reference stops at the first failure; here every failure is reported on
// the node it concerns, with the reference's wording kept recognisable. The
// codes are the first group of docs/diagnostics.md.
//
// Two notions of "present" come from the reference: a key whose value is not
// undefined (YAML null counts) is checked for its type; a key whose value is
// truthy in JavaScript counts as an execution field or a gate.

// report adds an error diagnostic.
func (b *builder) report(code string, sp source.Span, related []source.Related, format string, args ...any) {
	b.diags = append(b.diags, source.Diagnostic{
		File: b.file.Name, Range: b.file.RangeOf(sp), Severity: source.Error, Code: code,
		Message: fmt.Sprintf(format, args...), Related: related,
	})
}

// related is one related location in the file.
func (b *builder) related(sp source.Span, msg string) []source.Related {
	return []source.Related{{File: b.file.Name, Range: b.file.RangeOf(sp), Message: msg}}
}

// kindOf names the JSON type of a value: null, boolean, number, string,
// mapping or sequence ("" for an undefined alias).
func kindOf(v ast.Value) string {
	v = ast.Resolve(v)
	if s := ast.ScalarOf(v); s != nil {
		switch s.Kind {
		case ast.Null:
			return "null"
		case ast.Bool:
			return "boolean"
		case ast.Int, ast.Float:
			return "number"
		}
		return "string"
	}
	switch v.(type) {
	case *ast.Sequence, *ast.StepList:
		return "sequence"
	case nil:
		return ""
	}
	return "mapping"
}

// truthy is JavaScript truthiness of a value.
func truthy(v ast.Value) bool {
	v = ast.Resolve(v)
	if v == nil {
		return false
	}
	if s := ast.ScalarOf(v); s != nil {
		switch s.Kind {
		case ast.Null:
			return false
		case ast.Bool:
			return s.Bool
		case ast.Int, ast.Float:
			return s.Num != 0 && !math.IsNaN(s.Num)
		}
		return s.Text != ""
	}
	return true
}

func fieldValue(f *ast.Field) ast.Value {
	if f == nil {
		return nil
	}
	return f.Value
}

// describe formats a value for a message: its source text when short.
func (b *builder) describe(v ast.Value) string {
	text := strings.TrimSpace(b.file.TextOf(ast.SpanOf(v)))
	if len(text) > 40 || strings.Contains(text, "\n") || text == "" {
		return "a " + kindOf(v)
	}
	return text
}

// number returns the value of a numeric scalar.
func number(v ast.Value) (float64, bool) {
	s := ast.ScalarOf(ast.Resolve(v))
	if s == nil || (s.Kind != ast.Int && s.Kind != ast.Float) {
		return 0, false
	}
	return s.Num, true
}

// isPositiveInt reports whether v is an integer >= 1 (and at most limit when limit > 0).
func isPositiveInt(v ast.Value, limit float64) bool {
	n, ok := number(v)
	return ok && n == math.Trunc(n) && n >= 1 && (limit <= 0 || n <= limit) && !math.IsInf(n, 0)
}

func isNonNegative(v ast.Value) bool {
	n, ok := number(v)
	return ok && n >= 0 && !math.IsInf(n, 0) && !math.IsNaN(n)
}

func stringIs(v ast.Value, allowed ...string) bool {
	s := ast.ScalarOf(ast.Resolve(v))
	if s == nil || s.Kind != ast.String {
		return false
	}
	for _, a := range allowed {
		if s.Text == a {
			return true
		}
	}
	return false
}

// jsNumber is JavaScript's Number() of a YAML value, which the reference
// applies to cost_limit.max_usd before checking it.
func jsNumber(v ast.Value) float64 {
	v = ast.Resolve(v)
	if s := ast.ScalarOf(v); s != nil {
		switch s.Kind {
		case ast.Null:
			return 0
		case ast.Bool:
			if s.Bool {
				return 1
			}
			return 0
		case ast.Int, ast.Float:
			return s.Num
		}
		t := strings.TrimSpace(s.Text)
		if t == "" {
			return 0
		}
		if n, err := strconv.ParseFloat(t, 64); err == nil {
			return n
		}
		if n, ok := coreInt(t); ok && len(t) > 2 && t[0] == '0' {
			return n
		}
		return math.NaN()
	}
	if seq, ok := v.(*ast.Sequence); ok {
		switch len(seq.Items) {
		case 0:
			return 0
		case 1:
			return jsNumber(seq.Items[0])
		}
	}
	return math.NaN()
}

// validate reports the load-time rules over the whole workflow.
func (b *builder) validate(doc ast.Value, w *ast.Workflow) {
	if w == nil {
		rng := source.Span{}
		got := "an empty file"
		if doc != nil {
			rng = firstLine(b.file, ast.SpanOf(doc))
			got = "a " + kindOf(doc)
		}
		b.report("not-a-workflow", rng, nil, "a workflow file must be a JSON/YAML object (a mapping with a \"steps\" list), got %s (the reference says \"Workflow file must be a JSON/YAML object\")", got)
		return
	}
	steps, _ := fieldValue(w.Steps).(*ast.StepList)
	switch {
	case w.Steps == nil:
		rng := firstLine(b.file, w.Span)
		if len(w.Fields) > 0 {
			rng = w.Fields[0].Key.Span
		}
		b.report("not-a-workflow", rng, nil, "the workflow has no \"steps\" list (the reference says \"Workflow file requires a non-empty steps array\")")
	case steps == nil:
		b.report("not-a-workflow", ast.SpanOf(w.Steps.Value), nil, "\"steps\" must be a non-empty list of steps, got %s (the reference says \"Workflow file requires a non-empty steps array\")", b.describe(w.Steps.Value))
	case len(steps.Items) == 0:
		b.report("not-a-workflow", ast.SpanOf(w.Steps.Value), nil, "\"steps\" is empty (the reference says \"Workflow file requires a non-empty steps array\")")
	}
	b.validateCostLimit(w.CostLimit)
	if steps == nil {
		return
	}
	ids := make(map[string]source.Span, len(steps.Items))
	for i, it := range steps.Items {
		s, ok := it.(*ast.Step)
		if !ok {
			b.report("wrong-type", ast.SpanOf(it), nil, "step %d must be a mapping, got %s (the reference says \"Workflow step must be an object\")", i+1, b.describe(it))
			continue
		}
		b.validateStep(s, i, ids)
	}
}

func firstLine(f *source.File, r source.Span) source.Span {
	end := f.LineStart(f.Pos(r.Start).Line+1) - 1
	if end < r.Start || end > r.End {
		end = r.End
	}
	return source.Span{Start: r.Start, End: end}
}

func (b *builder) validateCostLimit(f *ast.Field) {
	if f == nil {
		return
	}
	c, ok := f.Value.(*ast.CostLimit)
	if !ok {
		b.report("wrong-type", ast.SpanOf(f.Value), nil, "cost_limit must be a mapping like {max_usd: 5}, got %s (the reference says \"Workflow cost_limit must be an object\")", b.describe(f.Value))
		return
	}
	if c.MaxUSD == nil {
		b.report("invalid-value", f.Key.Span, nil, "cost_limit needs max_usd (the reference says \"Workflow cost_limit.max_usd must be a non-negative number\")")
	} else if n := jsNumber(c.MaxUSD.Value); math.IsNaN(n) || math.IsInf(n, 0) || n < 0 {
		b.report("invalid-value", ast.SpanOf(c.MaxUSD.Value), nil, "cost_limit.max_usd must be a non-negative number, got %s", b.describe(c.MaxUSD.Value))
	}
	if c.Action != nil && !stringIs(c.Action.Value, "warn", "stop") {
		b.report("invalid-value", ast.SpanOf(c.Action.Value), nil, "cost_limit.action must be \"warn\" or \"stop\", got %s", b.describe(c.Action.Value))
	}
}

// stepName labels a step in messages.
// It is built for every step, so without fmt: one allocation, the text of
// fmt.Sprintf("%s %q", s.Context, id), or "%s %d" with index+1.
func stepName(s *ast.Step, index int) string {
	var buf [64]byte
	b := append(buf[:0], s.Context.String()...)
	b = append(b, ' ')
	if id := s.IDText(); id != "" {
		b = strconv.AppendQuote(b, id)
	} else {
		b = strconv.AppendInt(b, int64(index)+1, 10)
	}
	return string(b)
}

// validateID reports a missing or non-string id and returns the id text.
func (b *builder) validateID(s *ast.Step, index int, refMsg string) string {
	id := s.IDText()
	if id != "" {
		return id
	}
	msg := fmt.Sprintf("%s has no \"id\"", stepName(s, index))
	var fixes []source.Fix
	if s.ID != nil {
		msg = fmt.Sprintf("%s: \"id\" must be a non-empty string, got %s", stepName(s, index), b.describe(s.ID.Value))
	} else if name := s.Lookup("name"); name != nil {
		if ns, ok := asString(name.Value); ok && IsRefName(ns.Text) {
			msg += fmt.Sprintf("; did you mean \"id: %s\"?", ns.Text)
			fixes = []source.Fix{{Message: "Rename \"name\" to \"id\"", Edits: []source.Edit{{Range: b.file.RangeOf(name.Key.Span), NewText: "id"}}}}
		}
	}
	rng := s.Anchor()
	b.diags = append(b.diags, source.Diagnostic{
		File: b.file.Name, Range: b.file.RangeOf(rng), Severity: source.Error, Code: "missing-id",
		Message: msg + " (the reference says \"" + refMsg + "\")", Fixes: fixes,
	})
	return ""
}

// duplicate reports id when it is already in ids, else records it.
func (b *builder) duplicate(ids map[string]source.Span, id string, rng source.Span, format string, args ...any) {
	if id == "" {
		return
	}
	if first, dup := ids[id]; dup {
		b.report("duplicate-id", rng, b.related(first, "first defined here"), format, args...)
		return
	}
	ids[id] = rng
}

// validateStep checks a top-level step; ids is the namespace shared by
// top-level steps and parallel branches.
func (b *builder) validateStep(s *ast.Step, index int, ids map[string]source.Span) {
	id := b.validateID(s, index, "Workflow step requires an id")
	name := stepName(s, index)
	b.validateWorkflowField(s, name)
	branchIDs := b.validateParallel(s, name, id, ids)
	b.validateForEach(s, name)
	b.validateExecution(s, name)
	b.validateGates(s, name)
	b.validatePolicies(s, name)
	if id != "" {
		if _, dup := ids[id]; !dup {
			ids[id] = ast.SpanOf(s.ID.Value) // as duplicate does, without boxing its arguments
		} else {
			b.duplicate(ids, id, ast.SpanOf(s.ID.Value), "duplicate id %q: step ids and parallel branch ids share one namespace (the reference says \"Duplicate workflow step id: %s\")", id, id)
		}
	}
	for _, br := range branchIDs {
		if _, dup := ids[br.id]; !dup {
			ids[br.id] = br.rng
		}
	}
}

func (b *builder) validateWorkflowField(s *ast.Step, name string) {
	if s.Workflow != nil {
		if sc := ast.StringOf(s.Workflow.Value); sc == nil {
			b.report("wrong-type", ast.SpanOf(s.Workflow.Value), nil, "%s: workflow must be a string (file path), got %s", name, b.describe(s.Workflow.Value))
		} else if strings.TrimSpace(sc.Text) == "" {
			b.report("invalid-value", ast.SpanOf(s.Workflow.Value), nil, "%s: workflow path cannot be blank", name)
		}
	}
	if s.WorkflowArgs != nil {
		if _, ok := s.WorkflowArgs.Value.(*ast.TemplateMap); !ok {
			b.report("wrong-type", ast.SpanOf(s.WorkflowArgs.Value), nil, "%s: workflow_args must be a plain object (a mapping), got %s", name, b.describe(s.WorkflowArgs.Value))
		}
	}
}

type branchID struct {
	id  string
	rng source.Span
}

// validateParallel checks a parallel block and returns its branch ids.
func (b *builder) validateParallel(s *ast.Step, name, id string, ids map[string]source.Span) []branchID {
	if s.Parallel == nil {
		return nil
	}
	p, ok := s.Parallel.Value.(*ast.Parallel)
	if !ok {
		b.report("wrong-type", ast.SpanOf(s.Parallel.Value), nil, "%s: parallel must be an object (a mapping with \"branches\"), got %s", name, b.describe(s.Parallel.Value))
		return nil
	}
	branches, _ := fieldValue(p.Branches).(*ast.StepList)
	if branches == nil || len(branches.Items) == 0 {
		rng := s.Parallel.Key.Span
		if p.Branches != nil {
			rng = ast.SpanOf(p.Branches.Value)
		}
		b.report("invalid-value", rng, nil, "%s: parallel requires a non-empty branches array", name)
	}
	if p.Wait != nil && !stringIs(p.Wait.Value, "all", "any") {
		b.report("invalid-value", ast.SpanOf(p.Wait.Value), nil, "%s: parallel wait must be \"all\" or \"any\", got %s", name, b.describe(p.Wait.Value))
	}
	if p.TimeoutMs != nil && !isPositiveInt(p.TimeoutMs.Value, 2147483647) {
		b.report("invalid-value", ast.SpanOf(p.TimeoutMs.Value), nil, "%s: parallel timeout_ms must be a positive integer between 1 and 2147483647, got %s", name, b.describe(p.TimeoutMs.Value))
	}
	if branches == nil {
		return nil
	}
	var out []branchID
	local := map[string]source.Span{}
	for i, it := range branches.Items {
		br, ok := it.(*ast.Step)
		if !ok {
			b.report("wrong-type", ast.SpanOf(it), nil, "%s: parallel branches must be objects, got %s", name, b.describe(it))
			continue
		}
		bid := b.validateID(br, i, "Workflow step "+id+" parallel branch requires an id")
		bname := stepName(br, i)
		if bid != "" {
			rng := ast.SpanOf(br.ID.Value)
			switch {
			case bid == id:
				b.report("duplicate-id", rng, b.related(ast.SpanOf(s.ID.Value), "the step's id"), "%s: parallel branch id cannot match the step id %q", name, id)
			case hasKey(local, bid):
				b.duplicate(local, bid, rng, "%s: duplicate parallel branch id %q", name, bid)
			case hasKey(ids, bid):
				b.duplicate(ids, bid, rng, "duplicate id %q: step ids and parallel branch ids share one namespace (the reference says \"Duplicate workflow id across steps/parallel branches: %s\")", bid, bid)
			default:
				local[bid] = rng
				out = append(out, branchID{bid, rng})
			}
		}
		b.validateShellFields(br, name+" "+bname, false)
	}
	return out
}

func hasKey(m map[string]source.Span, k string) bool {
	_, ok := m[k]
	return ok
}

// validateShellFields checks run/command/pipeline of a branch or sub-step:
// exactly one, and strings. trimmed says blank strings count as absent.
func (b *builder) validateShellFields(s *ast.Step, name string, trimmed bool) {
	var wrong []*ast.Field
	for _, f := range []*ast.Field{s.Run, s.Command, s.Pipeline} {
		if f != nil && kindOf(f.Value) != "string" {
			wrong = append(wrong, f)
		}
	}
	for _, f := range wrong {
		b.report("wrong-type", ast.SpanOf(f.Value), nil, "%s: %s must be a string, got %s", name, f.Name(), b.describe(f.Value))
	}
	counts := func(f *ast.Field) bool {
		if f == nil || kindOf(f.Value) != "string" {
			return false
		}
		if trimmed {
			return strings.TrimSpace(ast.ScalarOf(f.Value).Text) != ""
		}
		return truthy(f.Value)
	}
	shell := s.Run
	if !trimmed && (s.Run == nil || kindOf(s.Run.Value) != "string") {
		shell = s.Command
	}
	var present []*ast.Field
	if trimmed {
		for _, f := range []*ast.Field{s.Run, s.Command, s.Pipeline} {
			if counts(f) {
				present = append(present, f)
			}
		}
	} else {
		for _, f := range []*ast.Field{shell, s.Pipeline} {
			if counts(f) {
				present = append(present, f)
			}
		}
	}
	switch {
	case len(present) == 0 && len(wrong) == 0:
		b.report("missing-execution", s.Anchor(), nil, "%s requires run, command, or pipeline", name)
	case len(present) > 1:
		b.report("conflicting-execution", present[1].Key.Span, b.related(present[0].Key.Span, "\""+present[0].Name()+"\" is here"),
			"%s has both %q and %q: it can only define one of run, command, or pipeline", name, present[0].Name(), present[1].Name())
	}
}

func (b *builder) validateForEach(s *ast.Step, name string) {
	if s.ForEach == nil {
		return
	}
	if kindOf(s.ForEach.Value) != "string" {
		b.report("wrong-type", ast.SpanOf(s.ForEach.Value), nil, "%s: for_each must be a string (step reference expression), got %s", name, b.describe(s.ForEach.Value))
		return
	}
	sub, _ := fieldValue(s.Steps).(*ast.StepList)
	if sub == nil || len(sub.Items) == 0 {
		rng := s.ForEach.Key.Span
		if s.Steps != nil {
			rng = ast.SpanOf(s.Steps.Value)
		}
		b.report("invalid-value", rng, nil, "%s: for_each requires a non-empty steps array", name)
	}
	if s.BatchSize != nil && !isPositiveInt(s.BatchSize.Value, 0) {
		b.report("invalid-value", ast.SpanOf(s.BatchSize.Value), nil, "%s: batch_size must be a positive integer, got %s", name, b.describe(s.BatchSize.Value))
	}
	if s.PauseMs != nil && !isNonNegative(s.PauseMs.Value) {
		b.report("invalid-value", ast.SpanOf(s.PauseMs.Value), nil, "%s: pause_ms must be a finite non-negative number, got %s", name, b.describe(s.PauseMs.Value))
	}
	if s.Approval != nil && truthy(s.Approval.Value) {
		b.report("loop-field-not-allowed", s.Approval.Key.Span, nil, "%s: for_each steps cannot define approval (use a separate step after the loop)", name)
	}
	if s.Input != nil && truthy(s.Input.Value) {
		b.report("loop-field-not-allowed", s.Input.Key.Span, nil, "%s: for_each steps cannot define input (use a separate step after the loop)", name)
	}
	if s.Stdin != nil && kindOf(s.Stdin.Value) != "null" {
		b.report("loop-field-not-allowed", s.Stdin.Key.Span, nil, "%s: for_each steps cannot define stdin (loop input comes from the for_each expression)", name)
	}
	for _, f := range []*ast.Field{s.Run, s.Command, s.Pipeline, s.Workflow, s.Parallel} {
		if f != nil && truthy(f.Value) {
			b.report("conflicting-execution", f.Key.Span, b.related(s.ForEach.Key.Span, "\"for_each\" is here"),
				"%s: for_each cannot also define run, command, pipeline, workflow, or parallel (found %q)", name, f.Name())
		}
	}
	itemVar, indexVar := "item", "index"
	for _, v := range []struct {
		f   *ast.Field
		val *string
	}{{s.ItemVar, &itemVar}, {s.IndexVar, &indexVar}} {
		if v.f == nil {
			continue
		}
		if sc := ast.StringOf(v.f.Value); sc != nil {
			*v.val = sc.Text
		} else {
			b.report("wrong-type", ast.SpanOf(v.f.Value), nil, "%s: %s must be a string, got %s", name, v.f.Name(), b.describe(v.f.Value))
		}
	}
	if itemVar == indexVar {
		rng := s.ForEach.Key.Span
		if s.IndexVar != nil {
			rng = ast.SpanOf(s.IndexVar.Value)
		} else if s.ItemVar != nil {
			rng = ast.SpanOf(s.ItemVar.Value)
		}
		b.report("invalid-value", rng, nil, "%s: item_var and index_var cannot be the same (%q)", name, itemVar)
	}
	if sub == nil {
		return
	}
	local := map[string]source.Span{}
	for i, it := range sub.Items {
		ss, ok := it.(*ast.Step)
		if !ok {
			b.report("missing-id", ast.SpanOf(it), nil, "%s: sub-step %d must be a mapping with an id, got %s (the reference says \"for_each sub-step requires an id\")", name, i+1, b.describe(it))
			continue
		}
		sid := b.validateID(ss, i, "Workflow step "+strings.Trim(strings.TrimPrefix(name, "step "), "\"")+" for_each sub-step requires an id")
		sname := name + " " + stepName(ss, i)
		if sid != "" {
			rng := ast.SpanOf(ss.ID.Value)
			if sid == itemVar || sid == indexVar {
				b.report("duplicate-id", rng, nil, "%s: for_each sub-step id %q conflicts with loop variable", name, sid)
			} else {
				b.duplicate(local, sid, rng, "%s: duplicate for_each sub-step id %q", name, sid)
			}
		}
		for _, f := range []*ast.Field{ss.Approval, ss.Input} {
			if f != nil && truthy(f.Value) {
				b.report("loop-field-not-allowed", f.Key.Span, nil, "%s: for_each sub-steps cannot contain approval or input steps", sname)
			}
		}
		for _, f := range []*ast.Field{ss.Workflow, ss.Parallel, ss.ForEach} {
			if f != nil && truthy(f.Value) {
				b.report("conflicting-execution", f.Key.Span, nil, "%s cannot define workflow, parallel, or for_each", sname)
			}
		}
		b.validateShellFields(ss, sname, true)
	}
}

// validateExecution checks the execution fields of a top-level step: it
// does something, has at most one of run, command, pipeline, workflow,
// parallel and for_each, and an approval or input only beside what allows
// one.
func (b *builder) validateExecution(s *ast.Step, name string) {
	shell := s.Run
	if s.Run == nil || kindOf(s.Run.Value) != "string" {
		shell = s.Command
	}
	var exec []*ast.Field
	for _, f := range []*ast.Field{shell, s.Pipeline, s.Workflow, s.Parallel, s.ForEach} {
		if f != nil && truthy(f.Value) {
			exec = append(exec, f)
		}
	}
	hasApproval := s.Approval != nil && truthy(s.Approval.Value)
	hasInput := s.Input != nil && (kindOf(s.Input.Value) == "mapping" || kindOf(s.Input.Value) == "sequence")
	var wrong []*ast.Field
	for _, f := range []*ast.Field{s.Run, s.Command, s.Pipeline} {
		if f != nil && kindOf(f.Value) != "string" {
			wrong = append(wrong, f)
		}
	}
	switch {
	case len(exec) == 0 && !hasApproval && !hasInput && len(wrong) == 0 && s.Input == nil:
		msg := fmt.Sprintf("%s does nothing: it requires run, command, pipeline, workflow, parallel, for_each, approval, or input", name)
		if blank := blankField(s.Run, s.Command, s.Pipeline); blank != nil {
			msg = fmt.Sprintf("%s: %q is empty, so the step does nothing: it requires run, command, pipeline, workflow, parallel, for_each, approval, or input", name, blank.Name())
		} else if s.Lookup("prompt") != nil {
			msg += "; to call a model, use pipeline: \"llm.invoke --prompt '…'\""
		}
		b.report("missing-execution", s.Anchor(), nil, "%s", msg)
	case len(exec) > 1 && s.ForEach == nil:
		b.report("conflicting-execution", exec[1].Key.Span, b.related(exec[0].Key.Span, "\""+exec[0].Name()+"\" is here"),
			"%s has both %q and %q: a step can only define one of run, command, pipeline, workflow, parallel, or for_each", name, exec[0].Name(), exec[1].Name())
	}
	if s.ForEach != nil {
		hasApproval, hasInput = false, false // reported as loop-field-not-allowed
	}
	if hasInput && len(exec) > 0 {
		b.report("conflicting-execution", s.Input.Key.Span, b.related(exec[0].Key.Span, "\""+exec[0].Name()+"\" is here"),
			"%s: input steps cannot define run, command, pipeline, workflow, parallel, or for_each", name)
	}
	if hasApproval && hasInput {
		b.report("conflicting-execution", s.Input.Key.Span, b.related(s.Approval.Key.Span, "\"approval\" is here"),
			"%s cannot define both approval and input", name)
	}
	for _, f := range wrong {
		b.report("wrong-type", ast.SpanOf(f.Value), nil, "%s: %s must be a string, got %s", name, f.Name(), b.describe(f.Value))
	}
}

// blankField returns the first of the fields that is an empty string.
func blankField(fs ...*ast.Field) *ast.Field {
	for _, f := range fs {
		if f != nil && kindOf(f.Value) == "string" && ast.ScalarOf(f.Value).Text == "" {
			return f
		}
	}
	return nil
}

// validateGates checks input and approval mappings (messages 15–20).
func (b *builder) validateGates(s *ast.Step, name string) {
	if s.Input != nil {
		in, ok := s.Input.Value.(*ast.Input)
		if !ok {
			b.report("wrong-type", ast.SpanOf(s.Input.Value), nil, "%s: input must be an object like {prompt: \"…\", responseSchema: {…}}, got %s", name, b.describe(s.Input.Value))
		} else {
			if in.Prompt == nil {
				b.report("wrong-type", s.Input.Key.Span, nil, "%s: input.prompt must be a string, but it is missing", name)
			} else if kindOf(in.Prompt.Value) != "string" {
				b.report("wrong-type", ast.SpanOf(in.Prompt.Value), nil, "%s: input.prompt must be a string, got %s", name, b.describe(in.Prompt.Value))
			}
			b.validateResponseSchema(in, s.Input, name)
		}
	}
	a, ok := fieldValue(s.Approval).(*ast.Approval)
	if !ok {
		return
	}
	for _, f := range []*ast.Field{a.InitiatedBy, a.InitiatedByCC, a.RequiredApprover, a.RequiredApproverCC} {
		if f != nil && kindOf(f.Value) != "string" {
			b.report("wrong-type", ast.SpanOf(f.Value), nil, "%s: approval.%s must be a string, got %s", name, f.Name(), b.describe(f.Value))
		}
	}
	for _, f := range []*ast.Field{a.RequireDifferentApprover, a.RequireDifferentApproverCC} {
		if f != nil && kindOf(f.Value) != "boolean" {
			b.report("wrong-type", ast.SpanOf(f.Value), nil, "%s: approval.%s must be a boolean, got %s", name, f.Name(), b.describe(f.Value))
		}
	}
}

// validateResponseSchema checks input.responseSchema (messages 17–18).
func (b *builder) validateResponseSchema(in *ast.Input, field *ast.Field, name string) {
	if in.ResponseSchema == nil {
		b.report("wrong-type", field.Key.Span, nil, "%s: input.responseSchema must be an object (a JSON Schema), but it is missing", name)
		return
	}
	v := in.ResponseSchema.Value
	switch kindOf(v) {
	case "mapping":
		if msg := schemaProblem(ast.Resolve(v)); msg != "" {
			b.report("invalid-response-schema", ast.SpanOf(v), nil, "%s: input.responseSchema is invalid: %s", name, msg)
		}
	case "null", "sequence":
		b.report("invalid-response-schema", ast.SpanOf(v), nil, "%s: input.responseSchema is invalid: a JSON Schema must be an object or a boolean, got %s", name, b.describe(v))
	default:
		b.report("wrong-type", ast.SpanOf(v), nil, "%s: input.responseSchema must be an object (a JSON Schema), got %s", name, b.describe(v))
	}
}

// validatePolicies checks timeout_ms, on_error and retry (messages 21–28).
func (b *builder) validatePolicies(s *ast.Step, name string) {
	if s.TimeoutMs != nil && !isPositiveInt(s.TimeoutMs.Value, 2147483647) {
		b.report("invalid-value", ast.SpanOf(s.TimeoutMs.Value), nil, "%s: timeout_ms must be a positive integer between 1 and 2147483647, got %s", name, b.describe(s.TimeoutMs.Value))
	}
	if s.OnError != nil && !stringIs(s.OnError.Value, "stop", "continue", "skip_rest") {
		msg := fmt.Sprintf("%s: on_error must be \"stop\", \"continue\", or \"skip_rest\", got %s", name, b.describe(s.OnError.Value))
		if stringIs(s.OnError.Value, "retry") {
			msg += "; to retry a failing step use retry: {max: N}"
		}
		b.report("invalid-value", ast.SpanOf(s.OnError.Value), nil, "%s", msg)
	}
	if s.Retry == nil {
		return
	}
	r, ok := s.Retry.Value.(*ast.Retry)
	if !ok {
		b.report("wrong-type", ast.SpanOf(s.Retry.Value), nil, "%s: retry must be an object like {max: 3}, got %s", name, b.describe(s.Retry.Value))
		return
	}
	if r.Max != nil && !isPositiveInt(r.Max.Value, 0) {
		b.report("invalid-value", ast.SpanOf(r.Max.Value), nil, "%s: retry.max must be a positive integer, got %s", name, b.describe(r.Max.Value))
	}
	if r.Backoff != nil && !stringIs(r.Backoff.Value, "fixed", "exponential") {
		b.report("invalid-value", ast.SpanOf(r.Backoff.Value), nil, "%s: retry.backoff must be \"fixed\" or \"exponential\", got %s", name, b.describe(r.Backoff.Value))
	}
	for _, f := range []*ast.Field{r.DelayMs, r.MaxDelayMs} {
		if f != nil && !isNonNegative(f.Value) {
			b.report("invalid-value", ast.SpanOf(f.Value), nil, "%s: retry.%s must be a finite non-negative number, got %s", name, f.Name(), b.describe(f.Value))
		}
	}
	if r.Jitter != nil && kindOf(r.Jitter.Value) != "boolean" {
		b.report("wrong-type", ast.SpanOf(r.Jitter.Value), nil, "%s: retry.jitter must be a boolean, got %s", name, b.describe(r.Jitter.Value))
	}
}
