package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
)

// This file holds what the policy rules (rules_policies.go) share: the
// cost limit, the retry block, and a short form of a text for messages.

// polCostLimit is the workflow's cost_limit mapping, or nil.
func polCostLimit(f *ast.File) *ast.CostLimit {
	if f.Workflow == nil || f.Workflow.CostLimit == nil {
		return nil
	}
	c, _ := f.Workflow.CostLimit.Value.(*ast.CostLimit)
	return c
}

// polRetry is a step's retry mapping when retry applies to the step: a
// top-level shell, pipeline, workflow or parallel step, or a
// for_each loop (retried as a whole by 2026.9.13, verified).
func polRetry(s *ast.Step) *ast.Retry {
	if s.Retry == nil || s.Context != ast.TopStep || s.ForEach == nil && !polHasExecution(s) {
		return nil
	}
	r, _ := s.Retry.Value.(*ast.Retry)
	return r
}

func polShorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
