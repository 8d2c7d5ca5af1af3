package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// UnguardedFailedStepOutput reports the output of a step with on_error:
// continue used by a later step that does not test whether it failed.
var UnguardedFailedStepOutput = &Analyzer{
	Name:     "unguarded-failed-step-output",
	Severity: source.Warning,
	Summary:  "the output of a step that may have failed (on_error: continue) is used without a guard",
	Doc: "With `on_error: continue` a failed step stores only `{id, error: true, errorMessage}`: " +
		"its `stdout` and `json` are then empty in later templates and a whole-value `stdin` gets no input, " +
		"and the run goes on. Guard the using step with `when: '!$x.error'`. The rule stays quiet when the " +
		"using step's condition (or that of its loop or parallel step) mentions the step in any way, or " +
		"when the using step reads `$x.error` or `$x.errorMessage` itself (a test in its shell text). " +
		"References in conditions are not reported: there the missing value tests false.",
	Bad:  "- id: lint\n  run: npm run lint --silent -- --format json\n  on_error: continue\n- id: report\n  run: ./report.sh\n  stdin: $lint.json",
	Good: "- id: lint\n  run: npm run lint --silent -- --format json\n  on_error: continue\n- id: report\n  when: '!$lint.error'\n  run: ./report.sh\n  stdin: $lint.json",
	Run:  runUnguardedFailedStepOutput,
}

func runUnguardedFailedStepOutput(p *Pass) {
	tested := refStepsTesting(p.Info, "error", "errorMessage")
	forEachResolvedStepRef(p.Info, func(rs *RefSite, r *ast.StepRef) bool {
		name := r.Path[0].Name
		return rs.Context != InCondition && rs.Step != nil && (name == "stdout" || name == "json")
	}, func(rs *RefSite, r *ast.StepRef, res Resolution) {
		if res.LoopVar || res.Visibility != Visible || rs.Context == InCondition || rs.Step == nil {
			return
		}
		if name := r.Path[0].Name; name != "stdout" && name != "json" {
			return
		}
		t := res.Target
		// A branch fails with its parallel step (branches ignore on_error).
		owner := t
		if t.Step.Context == ast.BranchStep && t.Parent != nil {
			owner = t.Parent
		}
		if t == rs.Step || owner == rs.Step || refOnErrorPolicy(owner.Step) != "continue" || refOnErrorIgnoredKind(owner) != "" ||
			refGuardedBy(rs.Step, t.ID) || refGuardedBy(rs.Step, owner.ID) || tested.has(rs.Step, t.ID, owner.ID) {
			return
		}
		effect := "is then empty"
		if rs.Context == InWhole {
			effect = "is then undefined and " + rs.Field.Name() + " gets no input"
		}
		who := "it has on_error: continue"
		if owner != t {
			who = fmt.Sprintf("its parallel step %q has on_error: continue", owner.ID)
		}
		d := p.Finding(r.IDSpan, "%q may have failed (%s), and %q %s; guard this step with when: '!$%s.error'",
			r.ID, who, ast.RefText(r), effect, owner.ID)
		d.Related = []source.Related{p.Related(ast.SpanOf(owner.Step.OnError), "on_error is set here")}
		p.Report(d)
	})
}
