package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// IgnoredStepPolicy reports retry, timeout_ms, on_error (and when/condition
// on branches) where the runtime ignores them.
var IgnoredStepPolicy = &Analyzer{
	Name:     "ignored-step-policy",
	Severity: source.Warning,
	Summary:  "retry, timeout_ms, on_error or when where the runtime ignores them",
	Doc: `The step policies do not apply everywhere:

- a loop sub-step ignores ` + "`retry`" + `, ` + "`timeout_ms`" + ` and ` + "`on_error`" + ` (not even validated);
- a parallel branch ignores ` + "`when`" + `, ` + "`condition`" + `, ` + "`retry`" + `, ` + "`timeout_ms`" + ` and ` + "`on_error`" + `:
  every branch always runs, and the policies of the parallel step apply to the block as a whole;
- an input step ignores ` + "`retry`" + `, ` + "`timeout_ms`" + ` and ` + "`on_error`" + `;
- on an approval-only step they apply only to preparing the step, never to the wait for the
  approver (users expect ` + "`timeout_ms`" + ` to bound the wait).

The documents also call ` + "`retry`" + `, ` + "`timeout_ms`" + ` and ` + "`on_error`" + ` ignored on a for_each step itself, but
release 2026.9.13 applies all three to the loop (verified: a failing loop with retry: {max: 3} ran three
times), so they are not reported there.`,
	Bad:  "- id: each\n  for_each: $list.json\n  steps:\n    - {id: send, run: ./send.sh, retry: {max: 3}}",
	Good: "- id: each\n  for_each: $list.json\n  retry: {max: 3}\n  steps:\n    - {id: send, run: ./send.sh}",
	Run:  runIgnoredStepPolicy,
}

// Why each policy is ignored, per kind of step.
var (
	branchPolicy = map[string]string{
		"retry":      "put retry on the parallel step, which re-runs all branches",
		"timeout_ms": "use parallel.timeout_ms or the parallel step's timeout_ms, which bound the whole block",
		"on_error":   "put on_error on the parallel step",
	}
	subStepPolicy = map[string]string{
		"retry":      "a failing sub-step fails the whole loop at once",
		"timeout_ms": "put timeout_ms on the loop step, which bounds the whole loop",
		"on_error":   "a failing sub-step fails the whole loop; put on_error on the loop step",
	}
	inputPolicy = map[string]string{
		"retry":      "there is no command to retry",
		"timeout_ms": "the wait for the response is not bounded",
		"on_error":   "a rejected response is not a step failure",
	}
	approvalPolicy = map[string]string{
		"timeout_ms": "it applies only to preparing the step, never to the wait for the approver",
		// Without stdin there is nothing that can fail.
		"retry":    "there is no command to retry, and a rejection is not a failure",
		"on_error": "a rejection cancels the run whatever on_error says",
	}
	approvalStdinPolicy = map[string]string{
		"timeout_ms": "it applies only to preparing the step, never to the wait for the approver",
	}
)

func runIgnoredStepPolicy(p *Pass) {
	for _, s := range structureSteps(p.Info) {
		st := s.Step
		if st.Retry == nil && st.TimeoutMs == nil && st.OnError == nil && (st.Context != ast.BranchStep || st.When == nil && st.Condition == nil) {
			continue
		}
		switch st.Context {
		case ast.BranchStep:
			label := stepLabel(s)
			for _, f := range []*ast.Field{st.When, st.Condition} {
				if f != nil {
					p.Reportf(f.Key.Span, "%q is ignored on parallel branches (%s); every branch always runs: put the condition on the parallel step", f.Name(), label)
				}
			}
			policy(p, s, "is ignored on parallel branches", branchPolicy)
		case ast.SubStep:
			policy(p, s, "is ignored on a for_each sub-step", subStepPolicy)
		case ast.TopStep:
			switch {
			case st.ForEach != nil:
				// 2026.9.13 applies retry, timeout_ms and on_error to loops.
			case s.IsInput():
				policy(p, s, "has no effect on an input step", inputPolicy)
			case s.HasGate() && executes(st) == nil && st.Input == nil:
				if st.Stdin == nil {
					policy(p, s, "has no effect on an approval-only step", approvalPolicy)
				} else {
					policy(p, s, "has no effect on an approval-only step", approvalStdinPolicy)
				}
			}
		}
	}
}

// policy reports the retry, timeout_ms and on_error fields of a step that
// have an explanation in why.
func policy(p *Pass, s *StepInfo, what string, why map[string]string) {
	for _, f := range []*ast.Field{s.Step.Retry, s.Step.TimeoutMs, s.Step.OnError} {
		if f == nil {
			continue
		}
		if w, ok := why[f.Name()]; ok {
			p.Reportf(f.Key.Span, "%q %s (%s): %s", f.Name(), what, stepLabel(s), w)
		}
	}
}
