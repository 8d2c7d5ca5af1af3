package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// FieldNotProduced reports result fields that the referenced step's kind
// never sets.
var FieldNotProduced = &Analyzer{
	Name:     "field-not-produced",
	Severity: source.Error,
	Summary:  "a reference reads a result field that the referenced step never sets",
	Doc: `Each step kind fills only some result fields: ` + "`response` and `subject`" + ` only input
steps; ` + "`approvedBy` and `initiatedBy`" + ` only approval gates; ` + "`error` and `errorMessage`" + ` only a step
with ` + "`on_error: continue`" + ` or ` + "`skip_rest`" + ` (a for_each loop included; ignored on sub-steps, branches and
input steps);
` + "`stdout` and `json`" + ` every step that runs something, an approval-only step only when it has a
` + "`stdin`" + `, and never an input step (its result is ` + "`{id, subject, response}`" + `). ` + "`stdout`" + ` is a string:
a path below it (` + "`$x.stdout.name`, or `$x.stdout.bak` where `.bak` was meant as text" + `) walks
into nothing. A field that is never set renders as an empty string in text, gives no input to
stdin and is undefined (false) in conditions. ` + "`.approved`" + ` on a step without a gate is reported by
` + "`approved-on-non-gate`" + `.

A negated guard in a condition (` + "`!$x.error`" + ` on a step without ` + "`on_error`" + `) is always true and
harmless, and is reported as a warning.`,
	Bad:  "- id: deploy\n  run: ./deploy.sh\n- id: log\n  run: echo \"approved by $WHO\"\n  env:\n    WHO: $deploy.approvedBy",
	Good: "- id: deploy\n  run: ./deploy.sh\n  approval: Deploy to production?\n- id: log\n  run: echo \"approved by $WHO\"\n  env:\n    WHO: $deploy.approvedBy",
	Fix:  "change `$x.stdout.key` to `$x.json.key`",
	Run:  runFieldNotProduced,
}

// refScalarResultFields are the result fields whose value is never an object:
// a path below them is always undefined.
var refScalarResultFields = map[string]string{
	"id": "a string", "stdout": "a string", "approved": "a boolean", "approvedBy": "a string",
	"initiatedBy": "a string", "skipped": "a boolean", "error": "a boolean", "errorMessage": "a string",
}

func runFieldNotProduced(p *Pass) {
	forEachResolvedStepRef(p.Info, nil, func(rs *RefSite, r *ast.StepRef, res Resolution) {
		first := r.Path[0]
		name := first.Name
		t := res.Target
		if res.LoopVar {
			if name == "stdout" && len(r.Path) > 1 {
				refReportBelowScalar(p, rs, r, res, "a string")
			}
			return
		}
		if !IsResultField(name) {
			return // nonexistent-result-field
		}
		var why string
		sev := source.Severity(0)
		switch {
		case t.Produces(name):
		case name == "response" || name == "subject":
			why = fmt.Sprintf("%q is not an input step, so %q %s; only input steps set %q", r.ID, ast.RefText(r), refUndefinedEffect(rs, res), name)
		case name == "approvedBy" || name == "initiatedBy":
			why = fmt.Sprintf("%q has no approval gate, so %q %s", r.ID, ast.RefText(r), refUndefinedEffect(rs, res))
		case name == "error" || name == "errorMessage":
			cause := fmt.Sprintf("%q has no on_error: continue or skip_rest, so a failure stops the run and %q is never set", r.ID, ast.RefText(r))
			if kind := refOnErrorIgnoredKind(t); kind != "" && refOnErrorPolicy(t.Step) != "" && refOnErrorPolicy(t.Step) != "stop" {
				cause = fmt.Sprintf("on_error is ignored on %s such as %q, so a failure stops the run and %q is never set", kind, r.ID, ast.RefText(r))
			}
			if rs.Context == InCondition && name == "error" && refIsNegated(rs) {
				why = cause + "; this guard is always true"
				sev = source.Warning
			} else {
				why = cause + fmt.Sprintf(" (it %s)", refUndefinedEffect(rs, res))
			}
		case name == "stdout" || name == "json":
			if t.Step.Input != nil {
				why = fmt.Sprintf("%q is an input step, whose result has only subject and response, so %q %s; use \"$%s.response\"", r.ID, ast.RefText(r), refUndefinedEffect(rs, res), r.ID)
			} else {
				why = fmt.Sprintf("%q is an approval step without stdin, so its result has no %s and %q %s", r.ID, name, ast.RefText(r), refUndefinedEffect(rs, res))
			}
		}
		if why == "" && len(r.Path) > 1 {
			if kind, ok := refScalarResultFields[name]; ok {
				refReportBelowScalar(p, rs, r, res, kind)
				return
			}
		}
		if why == "" {
			return
		}
		d := p.Finding(ast.SpanOf(first), "%s", why)
		d.Severity = sev
		if sp, ok := refIDSpan(t); ok && t != rs.Step {
			d.Related = []source.Related{p.Related(sp, "the step is defined here")}
		}
		p.Report(d)
	})
}

// refReportBelowScalar reports a path that continues below a field whose value
// is a string or a boolean.
func refReportBelowScalar(p *Pass, rs *RefSite, r *ast.StepRef, res Resolution, kind string) {
	first, second := r.Path[0], r.Path[1]
	text := ast.RefText(r)
	sp := source.Span{Start: first.End(), End: r.End()}
	if len(r.Path) == 2 && refIsFileExtension(second.Name) && rs.Context != InCondition {
		p.Reportf(sp, "%q is read as part of the reference path, so %q %s; %q is %s and has no fields",
			"."+second.Name, text, refUndefinedEffect(rs, res), "$"+r.ID+"."+first.Name, kind)
		return
	}
	d := p.Finding(sp, "%q is %s and has no fields, so %q %s", "$"+r.ID+"."+first.Name, kind, text, refUndefinedEffect(rs, res))
	if first.Name == "stdout" {
		d.Message += fmt.Sprintf("; for a key of the JSON output write \"$%s.json%s\"", r.ID, text[len("$"+r.ID+".stdout"):])
		d.Fixes = []source.Fix{{Message: "Read the path from the JSON output", Edits: []source.Edit{p.Edit(ast.SpanOf(first), "json")}}}
	}
	p.Report(d)
}
