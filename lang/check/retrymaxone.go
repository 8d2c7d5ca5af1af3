package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// RetryMaxOne reports retry blocks that never retry.
var RetryMaxOne = &Analyzer{
	Name:     "retry-max-one",
	Severity: source.Warning,
	Summary:  "retry.max is 1 (or missing), so the step is never retried",
	Doc: "`retry.max` is the total number of attempts, not the number of retries, and it defaults to 1: " +
		"`max: 1`, or a retry block without `max`, runs the step once and never retries. " +
		"Use `max: 2` for one retry. Only steps where retry applies are checked: shell, pipeline, " +
		"workflow and parallel steps, and for_each loops (2026.9.13 retries a failed loop as a whole, " +
		"although the documents say retry is ignored there); retry on sub-steps, branches and input " +
		"steps is ignored altogether.",
	Bad:  "- id: fetch\n  run: ./fetch.sh\n  retry:\n    max: 1\n    delay_ms: 2000",
	Good: "- id: fetch\n  run: ./fetch.sh\n  retry:\n    max: 2\n    delay_ms: 2000",
	Run:  runRetryMaxOne,
}

func runRetryMaxOne(p *Pass) {
	for _, si := range p.Info.Top {
		r := polRetry(si.Step)
		if r == nil || si.ID == "" {
			continue
		}
		if r.Max == nil {
			p.Reportf(si.Step.Retry.Key.Span, "retry has no max, which defaults to 1 attempt in total, so %q is never retried; add max: 2 for one retry", si.ID)
			continue
		}
		if n, ok := polNum(r.Max); ok && n == 1 {
			p.Reportf(ast.SpanOf(r.Max.Value), "retry.max counts attempts, not retries: max: 1 never retries %q; use max: 2 for one retry", si.ID)
		}
	}
}
