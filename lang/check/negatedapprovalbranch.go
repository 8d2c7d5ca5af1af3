package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// NegatedApprovalBranch reports conditions that test for a rejected gate.
var NegatedApprovalBranch = &Analyzer{
	Name:     "negated-approval-branch",
	Severity: source.Warning,
	Summary:  "a condition tests that a gate was not approved, which never happens after a rejection",
	Doc: `A rejection never stores ` + "`approved: false`" + `: rejecting a gate cancels the whole run in tool
mode and fails it with "Not approved" interactively, so no later step runs. So a
"not approved" branch (` + "`!$gate.approved`" + `, ` + "`$gate.approved != true`" + `, ` + "`$gate.approved == false`" + `)
runs only when the gate step was skipped by its own condition or failed under ` + "`on_error`" + `. When
the gate can be neither skipped nor failed, the branch never runs (warning); otherwise the test may
be meant for those cases and the finding is info.`,
	Bad: `- id: gate
  approval: "Post the thread?"
- id: skipped_note
  when: "!$gate.approved"
  run: echo "not posted"`,
	Good: `- id: gate
  approval: "Post the thread? (rejecting cancels the run)"
- id: post
  run: ./post.sh`,
	Run: runNegatedApprovalBranch,
}

func runNegatedApprovalBranch(p *Pass) {
	condEachExpr(p, func(si *StepInfo, c *ast.Condition) {
		condWalk(c.Expr, func(e ast.Expr) {
			var r *ast.StepRef
			switch e := e.(type) {
			case *ast.UnaryExpr:
				x := e.X
				for {
					pe, ok := x.(*ast.ParenExpr)
					if !ok {
						break
					}
					x = pe.X
				}
				r, _ = x.(*ast.StepRef)
			case *ast.BinaryExpr:
				ref, l := condRefAndLit(e)
				if ref != nil && (e.Op == "!=" && l.Kind == ast.LitTrue || e.Op == "==" && l.Kind == ast.LitFalse) {
					r = ref
				}
			}
			if r == nil {
				return
			}
			if name, single := condRefField(r); !single || name != "approved" {
				return
			}
			res := p.Info.Resolve(si, r.ID)
			if res.Visibility != Visible || res.LoopVar || res.Target == nil || !gateStep(res.Target) || !res.Target.HasGate() {
				return
			}
			g := res.Target
			d := p.Finding(ast.SpanOf(e), "this branch never runs after a rejection: rejecting %q cancels the run (tool mode) or fails it with \"Not approved\" (interactive). %q is true only when %q was skipped or failed",
				g.ID, p.Text(ast.SpanOf(e)), g.ID)
			if gateMayBeSkippedOrFail(g.Step) {
				d.Severity = source.Info
			} else {
				d.Message += ", which cannot happen here"
			}
			d.Related = []source.Related{p.Related(g.Step.Approval.Key.Span, "the gate")}
			p.Report(d)
		})
	})
}

// gateMayBeSkippedOrFail reports whether a gate step can end without
// asking: a condition that can be false, or an action that can fail under
// on_error continue/skip_rest.
func gateMayBeSkippedOrFail(s *ast.Step) bool {
	if _, ok := condSkippable(s); ok {
		return true
	}
	if s.OnError != nil && executes(s) != nil {
		if v := ast.StringOf(ast.Resolve(s.OnError.Value)); v != nil && (v.Text == "continue" || v.Text == "skip_rest") {
			return true
		}
	}
	return false
}
