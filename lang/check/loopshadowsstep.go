package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// LoopShadowsStep reports loop sub-step ids and loop variables that hide a
// step defined before the loop.
var LoopShadowsStep = &Analyzer{
	Name:     "loop-shadows-step",
	Severity: source.Warning,
	Summary:  "a for_each sub-step id or loop variable hides a step of the same id",
	Doc: `Inside an iteration the scope is the workflow's results plus the loop variables and the
earlier sub-steps, which replace any step of the same id. Sub-step ids are not
checked against top-level ids, so "$fetch.json" inside the loop silently reads the sub-step or the
loop variable instead of the top-level step "fetch". Only steps and branches defined before the
loop are considered: the others have no result inside it anyway.`,
	Bad:  "- id: fetch\n  run: ./fetch.sh\n- id: each\n  for_each: $fetch.json\n  steps:\n    - {id: fetch, run: ./fetch-one.sh}\n    - {id: use, run: echo $fetch.stdout}",
	Good: "- id: fetch\n  run: ./fetch.sh\n- id: each\n  for_each: $fetch.json\n  steps:\n    - {id: fetch_one, run: ./fetch-one.sh}\n    - {id: use, run: echo $fetch_one.stdout}",
	Run:  runLoopShadowsStep,
}

func runLoopShadowsStep(p *Pass) {
	for _, loop := range p.Info.Top {
		if !loop.IsLoop() {
			continue
		}
		// earlier returns the step or branch an id names before the loop.
		earlier := func(id string) *StepInfo {
			if id == "" {
				return nil
			}
			res := p.Info.Resolve(nil, id)
			if res.Visibility != WorkflowLevel || res.Target == nil || res.Target.Top >= loop.Top {
				return nil
			}
			return res.Target
		}
		report := func(at source.Span, def *StepInfo, what string) {
			kind := "top-level step"
			if def.Parent != nil {
				kind = "parallel branch"
			}
			d := p.Finding(at, "inside loop %q, \"$%s\" refers to %s, not the %s %q; rename it", loop.ID, def.ID, what, kind, def.ID)
			if def.Step.ID != nil {
				d.Related = []source.Related{p.Related(ast.SpanOf(def.Step.ID.Value), fmt.Sprintf("the %s %q is defined here", kind, def.ID))}
			}
			p.Report(d)
		}
		s := loop.Step
		for _, v := range []struct {
			field *ast.Field
			name  string
			role  string
		}{{s.ItemVar, loop.ItemVar, "item_var"}, {s.IndexVar, loop.IndexVar, "index_var"}} {
			def := earlier(v.name)
			if def == nil {
				continue
			}
			at := s.ForEach.Key.Span
			what := fmt.Sprintf("the loop variable (the default %s)", v.role)
			if v.field != nil {
				at = ast.SpanOf(v.field.Value)
				what = fmt.Sprintf("the loop variable (%s)", v.role)
			}
			report(at, def, what)
		}
		for _, sub := range loop.Children {
			if def := earlier(sub.ID); def != nil && sub.ID != loop.ItemVar && sub.ID != loop.IndexVar {
				report(ast.SpanOf(sub.Step.ID.Value), def, "the sub-step")
			}
		}
	}
}
