package check

import (
	"github.com/lobsterdev/lobster/lang/source"
)

// GateTimeoutIneffective reports timeout_ms on a step with an approval and an action.
var GateTimeoutIneffective = &Analyzer{
	Name:     "gate-timeout-ineffective",
	Severity: source.Info,
	Summary:  "timeout_ms on a step with an approval bounds the command, not the wait for the approver",
	Doc: `On a step that runs a command and has a gate, ` + "`timeout_ms`" + ` bounds each attempt of the command;
the gate fires afterwards and waits for the approver without a limit. In tool mode the
run halts with ` + "`needs_approval`" + ` and waits for ` + "`lobster resume`" + `; interactively the wait is bounded
only by ` + "`LOBSTER_APPROVAL_INPUT_TIMEOUT_MS`" + ` in the environment.`,
	Bad:  "- id: deploy\n  run: ./plan.sh\n  approval: Apply?\n  timeout_ms: 60000",
	Good: "- id: plan\n  run: ./plan.sh\n  timeout_ms: 60000\n- id: apply\n  approval: Apply?\n  stdin: $plan.json",
	Run:  runGateTimeoutIneffective,
}

func runGateTimeoutIneffective(p *Pass) {
	for _, si := range p.Info.Steps {
		s := si.Step
		if !gateStep(si) || !si.HasGate() || s.TimeoutMs == nil || executes(s) == nil {
			continue
		}
		p.Reportf(s.TimeoutMs.Key.Span, "timeout_ms bounds the command, not the wait for the approver")
	}
}
