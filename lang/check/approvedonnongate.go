package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ApprovedOnNonGate reports $x.approved where x has no approval gate.
var ApprovedOnNonGate = &Analyzer{
	Name:     "approved-on-non-gate",
	Severity: source.Error,
	Summary:  "a reference reads .approved of a step that has no approval gate",
	Doc: "`approved` is set only when an approval gate is granted. On any other step " +
		"`$x.approved` is undefined: it renders as `\"false\"` in text and is false in conditions, " +
		"so `when: $x.approved` never runs its step. An `approval` of `false`, `\"\"`, `null`, " +
		"a number or a list is not a gate, and parallel branches never read `approval`.",
	Bad:  "- id: build\n  run: ./build.sh\n- id: deploy\n  when: $build.approved\n  run: ./deploy.sh",
	Good: "- id: build\n  run: ./build.sh\n  approval: Deploy this build?\n- id: deploy\n  when: $build.approved\n  run: ./deploy.sh",
	Run:  runApprovedOnNonGate,
}

func runApprovedOnNonGate(p *Pass) {
	forEachResolvedStepRef(p.Info, func(_ *RefSite, r *ast.StepRef) bool { return r.Path[0].Name == "approved" && len(r.Path) == 1 }, func(rs *RefSite, r *ast.StepRef, res Resolution) {
		if res.LoopVar || r.Path[0].Name != "approved" || len(r.Path) > 1 {
			return
		}
		t := res.Target
		if t.Produces("approved") {
			return
		}
		text := ast.RefText(r)
		var b strings.Builder
		switch {
		case t.Step.Approval != nil && t.Step.Context == ast.BranchStep:
			fmt.Fprintf(&b, "%q is a parallel branch, which never reads approval, so %q is always false", r.ID, text)
		case t.Step.Approval != nil:
			fmt.Fprintf(&b, "the approval of %q is not a gate (only true, a non-blank string or a mapping are), so %q is always false", r.ID, text)
		default:
			fmt.Fprintf(&b, "%q has no approval gate, so %q is always false", r.ID, text)
		}
		if rs.Context == InCondition {
			b.WriteString(" in the condition")
		} else {
			b.WriteString(" (\"false\" in text)")
		}
		if t.Step.Approval == nil && refHasExecution(t.Step) {
			fmt.Fprintf(&b, "; if \"approved\" is a key of its JSON output, write \"$%s.json.approved\"", r.ID)
		}
		d := p.Finding(ast.SpanOf(r.Path[0]), "%s", b.String())
		if t.Step.Approval != nil {
			d.Related = []source.Related{p.Related(ast.SpanOf(t.Step.Approval), "the approval field is here")}
		} else if sp, ok := refIDSpan(t); ok && t != rs.Step {
			d.Related = []source.Related{p.Related(sp, "the step is defined here")}
		}
		p.Report(d)
	})
}
