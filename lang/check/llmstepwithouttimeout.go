package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// LLMStepWithoutTimeout reports model calls that no timeout_ms bounds.
var LLMStepWithoutTimeout = &Analyzer{
	Name:     "llm-step-without-timeout",
	Severity: source.Hint,
	Summary:  "a step calls a model without timeout_ms",
	Doc: "Model calls can hang for minutes, and a host's whole-run timeout is often shorter than one " +
		"call. `timeout_ms` bounds each attempt and ends a waiting `llm.invoke` at once. " +
		"The rule looks for the pipeline commands `llm.invoke`, `llm_task.invoke`, " +
		"`openclaw.agent` (unless it has its own `--timeout`), `email.triage --llm` and the llm-task tool " +
		"through `openclaw.invoke` / `clawd.invoke`, and for shell text that runs them. A branch is bounded by its parallel step's `timeout_ms` or " +
		"`parallel.timeout_ms`; a loop sub-step by the loop's `timeout_ms` (honoured by 2026.9.13).",
	Bad:  "- id: summarise\n  pipeline: llm.invoke --model gpt-4o-mini --prompt 'Summarise the report'",
	Good: "- id: summarise\n  pipeline: llm.invoke --model gpt-4o-mini --prompt 'Summarise the report'\n  timeout_ms: 120000",
	Run:  runLLMStepWithoutTimeout,
}

func runLLMStepWithoutTimeout(p *Pass) {
	for _, si := range p.Info.Steps {
		s := si.Step
		if si.ID == "" {
			continue // missing-id; a foreign dialect's step
		}
		at, name, stage, ok := polLLMCall(s)
		if !ok {
			continue
		}
		if stage != nil && name == "openclaw.agent" && polStageFlag(stage, "timeout") != nil {
			continue // the agent CLI's own timeout
		}
		var where string
		switch s.Context {
		case ast.TopStep:
			if s.TimeoutMs != nil || s.Input != nil {
				continue
			}
			where = fmt.Sprintf("set timeout_ms on %q", si.ID)
		case ast.BranchStep:
			par := si.Parent
			if par == nil {
				continue
			}
			if pl := polParallel(par.Step); par.Step.TimeoutMs != nil || pl != nil && pl.TimeoutMs != nil {
				continue
			}
			where = fmt.Sprintf("set timeout_ms (or parallel.timeout_ms) on the parallel step %q; branches ignore their own", par.ID)
		case ast.SubStep:
			loop := si.Parent
			if loop == nil || loop.Step.TimeoutMs != nil {
				continue
			}
			where = fmt.Sprintf("set timeout_ms on the loop %q; sub-steps ignore their own", loop.ID)
		}
		p.Reportf(at, "%q calls a model, and model calls can hang; %s", si.ID, where)
	}
}
