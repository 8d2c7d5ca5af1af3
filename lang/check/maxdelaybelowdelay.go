package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// MaxDelayBelowDelay reports retry.max_delay_ms below retry.delay_ms.
var MaxDelayBelowDelay = &Analyzer{
	Name:     "max-delay-below-delay",
	Severity: source.Info,
	Summary:  "retry.max_delay_ms is below retry.delay_ms",
	Doc: "The delay before retry n is `delay_ms` with `backoff: fixed`, and `min(delay_ms * 2^(n-1), max_delay_ms)` " +
		"with `backoff: exponential`; jitter adds ±10% and then clamps to `max_delay_ms`. " +
		"`max_delay_ms` (default 30000) does not cap a fixed delay without jitter, so with a fixed backoff a " +
		"smaller `max_delay_ms` is ignored; with exponential backoff or jitter every retry waits at most " +
		"`max_delay_ms`, and `delay_ms` (default 1000) no longer matters.",
	Bad:  "- id: fetch\n  run: ./fetch.sh\n  retry:\n    max: 3\n    delay_ms: 5000\n    max_delay_ms: 2000",
	Good: "- id: fetch\n  run: ./fetch.sh\n  retry:\n    max: 3\n    backoff: exponential\n    delay_ms: 2000\n    max_delay_ms: 20000",
	Run:  runMaxDelayBelowDelay,
}

func runMaxDelayBelowDelay(p *Pass) {
	for _, si := range p.Info.Top {
		r := polRetry(si.Step)
		if r == nil || r.MaxDelayMs == nil {
			continue
		}
		maxDelay, ok := polNum(r.MaxDelayMs)
		if !ok || maxDelay < 0 {
			continue
		}
		delay := 1000.0
		if r.DelayMs != nil {
			if delay, ok = polNum(r.DelayMs); !ok {
				continue
			}
		}
		if maxDelay >= delay {
			continue
		}
		backoff, _ := polString(r.Backoff)
		jitter := false
		if s := polScalar(fieldValue(r.Jitter)); s != nil && s.Kind == ast.Bool {
			jitter = s.Bool
		}
		if backoff != "exponential" && !jitter {
			p.Reportf(ast.SpanOf(r.MaxDelayMs.Value), "max_delay_ms (%v) is below delay_ms (%v) but caps only exponential and jittered delays; with backoff \"fixed\" and no jitter, each retry still waits delay_ms (%vms)", maxDelay, delay, delay)
			continue
		}
		p.Reportf(ast.SpanOf(r.MaxDelayMs.Value), "max_delay_ms (%v) is below delay_ms (%v), so every retry waits at most %vms and delay_ms has no effect; raise max_delay_ms or lower delay_ms", maxDelay, delay, maxDelay)
	}
}
