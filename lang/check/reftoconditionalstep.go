package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// RefToConditionalStep reports the output of a step that may be skipped,
// used by a later step that does not test it.
var RefToConditionalStep = &Analyzer{
	Name:     "ref-to-conditional-step",
	Severity: source.Info, // the issue asks for info: the reference may be intended
	Summary:  "the output of a step that may be skipped is used without a guard",
	Doc: "A step whose `when`/`condition` is false gets the result `{id, skipped: true}`: its " +
		"`stdout` and `json` render as empty strings in later templates and a whole-value `stdin` gets no " +
		"input, so the later step runs on nothing. Guard the later step with a condition that " +
		"mentions the step (`when: '!$render.skipped'`) or one of the steps its condition tests. The rule " +
		"stays quiet when the using step's condition, or that of its loop or parallel step, mentions the " +
		"skipped step or a step mentioned in its condition, and when the using step reads " +
		"`$render.skipped` itself (a test in its shell text). References in conditions are not reported: " +
		"there the missing value simply tests false.",
	Bad:  "- id: render\n  when: $check.json.changed\n  run: ./render.sh\n- id: publish\n  run: ./publish.sh\n  stdin: $render.stdout",
	Good: "- id: render\n  when: $check.json.changed\n  run: ./render.sh\n- id: publish\n  when: '!$render.skipped'\n  run: ./publish.sh\n  stdin: $render.stdout",
	Run:  runRefToConditionalStep,
}

// refIsOutputField reports whether a result field carries a step's output.
func refIsOutputField(name string) bool {
	return name == "stdout" || name == "json" || name == "response" || name == "subject"
}

func runRefToConditionalStep(p *Pass) {
	tested := refStepsTesting(p.Info, "skipped")
	forEachResolvedStepRef(p.Info, func(rs *RefSite, r *ast.StepRef) bool {
		return rs.Context != InCondition && rs.Step != nil && refIsOutputField(r.Path[0].Name)
	}, func(rs *RefSite, r *ast.StepRef, res Resolution) {
		if res.LoopVar || res.Visibility != Visible || rs.Context == InCondition || rs.Step == nil || !refIsOutputField(r.Path[0].Name) {
			return
		}
		t := res.Target
		// A branch is skipped with its parallel step (branches ignore when).
		owner := t
		if t.Step.Context == ast.BranchStep && t.Parent != nil {
			owner = t.Parent
		}
		cond, ok := refIsConditional(owner)
		if !ok || t == rs.Step || owner == rs.Step || refPassedGates(p.Info, owner, cond.Expr) ||
			refGuardedBy(rs.Step, t.ID) || refGuardedBy(rs.Step, owner.ID) || refGuardSharesRef(rs.Step, cond.Expr) ||
			tested.has(rs.Step, t.ID, owner.ID) {
			return
		}
		key := "when"
		if owner.Step.When == nil {
			key = "condition"
		}
		effect := "is then empty"
		if rs.Context == InWhole {
			effect = "is then undefined and " + rs.Field.Name() + " gets no input"
		}
		why := fmt.Sprintf("it has a %q", key)
		if owner != t {
			why = fmt.Sprintf("its parallel step %q has a %q", owner.ID, key)
		}
		d := p.Finding(r.IDSpan, "%q may be skipped (%s), and %q %s; guard this step with when: '!$%s.skipped'",
			r.ID, why, ast.RefText(r), effect, owner.ID)
		d.Related = []source.Related{p.Related(ast.SpanOf(cond), fmt.Sprintf("the %s of %q", key, owner.ID))}
		p.Report(d)
	})
}

// refPassedGates reports whether a condition only tests that earlier,
// unconditional approval gates were approved ($confirm.approved, joined by
// &&): a rejected gate cancels the run, so once the step is reached
// such a condition is always true.
func refPassedGates(in *Info, site *StepInfo, e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.ParenExpr:
		return refPassedGates(in, site, e.X)
	case *ast.BinaryExpr:
		return e.Op == "&&" && refPassedGates(in, site, e.X) && refPassedGates(in, site, e.Y)
	case *ast.StepRef:
		if len(e.Path) != 1 || e.Path[0].Name != "approved" {
			return false
		}
		res := in.Resolve(site, e.ID)
		if res.Visibility != Visible || res.LoopVar || !refIsGate(res.Target) || refCanStoreError(res.Target) {
			return false
		}
		_, cond := refIsConditional(res.Target)
		return !cond
	}
	return false
}

// refGuardSharesRef reports whether the condition of site (or of a step that
// encloses it) mentions a step that cond mentions: both steps then depend on
// the same test, as in two steps with the same when.
func refGuardSharesRef(site *StepInfo, cond ast.Expr) bool {
	shared := false
	refWalkStepRefs(cond, func(r *ast.StepRef) {
		if !shared && refGuardedBy(site, r.ID) {
			shared = true
		}
	})
	return shared
}

// refWalkStepRefs calls f for every step reference of a condition expression.
func refWalkStepRefs(e ast.Expr, f func(*ast.StepRef)) {
	switch e := e.(type) {
	case *ast.StepRef:
		f(e)
	case *ast.BinaryExpr:
		refWalkStepRefs(e.X, f)
		refWalkStepRefs(e.Y, f)
	case *ast.UnaryExpr:
		refWalkStepRefs(e.X, f)
	case *ast.ParenExpr:
		refWalkStepRefs(e.X, f)
	}
}
