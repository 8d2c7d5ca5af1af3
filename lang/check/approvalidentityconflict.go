package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ApprovalIdentityConflict reports a gate whose identity policy cannot be met.
var ApprovalIdentityConflict = &Analyzer{
	Name:     "approval-identity-conflict",
	Severity: source.Error,
	Summary:  "an approval requires an approver who is also the initiator, and a different approver",
	Doc: `With ` + "`require_different_approver: true`" + `, the approver must differ from ` + "`initiated_by`" + `; with
` + "`required_approver`" + `, the approver must be that name. When both name
the same person, no one can approve: every resume fails with "approval must be granted by someone
other than …" or "approval requires approver …". (camelCase spellings win over snake_case ones.)`,
	Bad: `- id: release
  approval:
    initiated_by: alice
    required_approver: alice
    require_different_approver: true`,
	Good: `- id: release
  approval:
    initiated_by: alice
    required_approver: bob
    require_different_approver: true`,
	Run: runApprovalIdentityConflict,
}

func runApprovalIdentityConflict(p *Pass) {
	for _, a := range gateApprovals(p.Info) {
		rda := gatePick(a.RequireDifferentApprover, a.RequireDifferentApproverCC)
		if !gateTrue(rda) {
			continue
		}
		req, init := gatePick(a.RequiredApprover, a.RequiredApproverCC), gatePick(a.InitiatedBy, a.InitiatedByCC)
		if req == nil || init == nil {
			continue
		}
		rs, is := ast.StringOf(ast.Resolve(req.Value)), ast.StringOf(ast.Resolve(init.Value))
		if rs == nil || is == nil {
			continue
		}
		who := strings.TrimSpace(rs.Text)
		if who == "" || who != strings.TrimSpace(is.Text) {
			continue
		}
		d := p.Finding(ast.SpanOf(rda.Value), "this gate can never be approved: the approver must be %q and must differ from the initiator %q", who, who)
		d.Related = []source.Related{
			p.Related(ast.SpanOf(req.Value), "the required approver"),
			p.Related(ast.SpanOf(init.Value), "the initiator"),
		}
		p.Report(d)
	}
}
