package check

import (
	"github.com/lobsterdev/lobster/lang/source"
)

// DifferentApproverNoInitiator reports require_different_approver without initiated_by.
var DifferentApproverNoInitiator = &Analyzer{
	Name:     "different-approver-no-initiator",
	Severity: source.Info,
	Summary:  "require_different_approver is set but no initiated_by is configured",
	Doc: `The different-approver check runs only when the initiator is known: from
` + "`initiated_by`" + `, from the step's data, or from ` + "`LOBSTER_APPROVAL_INITIATED_BY`" + ` in the environment
of the run. Without any of them, any non-empty approver passes, including the person who started
the run.`,
	Bad: `- id: release
  approval:
    prompt: Release?
    require_different_approver: true`,
	Good: `- id: release
  approval:
    prompt: Release?
    initiated_by: release-bot
    require_different_approver: true`,
	Run: runDifferentApproverNoInitiator,
}

func runDifferentApproverNoInitiator(p *Pass) {
	for _, a := range gateApprovals(p.Info) {
		rda := gatePick(a.RequireDifferentApprover, a.RequireDifferentApproverCC)
		if !gateTrue(rda) || gatePick(a.InitiatedBy, a.InitiatedByCC) != nil {
			continue
		}
		p.Reportf(rda.Key.Span, "with no \"initiated_by\" (and LOBSTER_APPROVAL_INITIATED_BY unset), any non-empty approver passes the different-approver check")
	}
}
