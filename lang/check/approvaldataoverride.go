package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ApprovalDataOverride reports a configured approval that the step's own
// data can rewrite.
var ApprovalDataOverride = &Analyzer{
	Name:     "approval-data-override",
	Severity: source.Warning,
	Summary:  "the data being approved can replace the prompt and overlay the identity policy of an approval",
	Doc: `The approval request is built from the step's result: if the step's JSON
output (for an approval-only step: its ` + "`stdin`" + `) is an object with a truthy ` + "`prompt`" + ` or
` + "`requiresApproval.prompt`" + `, that object replaces the configured prompt, items and preview, and its
` + "`required_approver`" + ` and ` + "`initiated_by`" + ` overlay the configured ones [verified: data
` + "`{\"prompt\": \"Looks fine\", \"required_approver\": \"mallory\"}`" + ` replaced ` + "`alice`" + `]. When the data
is untrusted (a model's answer, a fetched document), whoever controls it controls what the approver
sees and who may approve. Keep an identity policy on a gate whose request data you control: an
approval-only step without ` + "`stdin`" + ` that describes the change in its prompt, items and preview, or
data that cannot be an object with a prompt (wrap it in a list, for example ` + "`jq -c '[.]'`" + `).

Only gates with an identity policy (` + "`required_approver`" + `, ` + "`initiated_by`" + `,
` + "`require_different_approver`" + `) are reported: a replaced prompt alone is what the recommended
approval-only step with ` + "`stdin: $plan.json`" + ` allows too, and the approver still sees the data. A
command that visibly builds the request itself (it mentions ` + "`requiresApproval`" + `, or has a word
such as ` + "`approve`" + ` or ` + "`--prompt`" + `) replaces the request on purpose and is not reported.`,
	Bad: `- id: release
  run: ./plan.sh
  approval:
    prompt: "Release?"
    required_approver: alice`,
	Good: `- id: plan
  run: ./plan.sh > plan.json
- id: release
  approval:
    prompt: "Release the plan in plan.json?"
    preview: Review plan.json before approving.
    required_approver: alice`,
	Run: runApprovalDataOverride,
}

func runApprovalDataOverride(p *Pass) {
	for _, si := range p.Info.Steps {
		if !gateStep(si) || !si.HasGate() {
			continue
		}
		s := si.Step
		a := gateApproval(s)
		if a == nil {
			continue
		}
		var configured []string
		if gatePick(a.RequiredApprover, a.RequiredApproverCC) != nil {
			configured = append(configured, "required_approver")
		}
		if gatePick(a.InitiatedBy, a.InitiatedByCC) != nil {
			configured = append(configured, "initiated_by")
		}
		if gateTrue(gatePick(a.RequireDifferentApprover, a.RequireDifferentApproverCC)) {
			configured = append(configured, "require_different_approver")
		}
		if len(configured) == 0 {
			continue
		}
		var from string
		var rel *ast.Field
		if f := executes(s); f != nil {
			if f == s.Parallel && !gateParallelMayPrompt(si) || gatePreparesRequest(f) {
				continue // a command that builds the request replaces the prompt on purpose
			}
			from, rel = "the output of", f
		} else if s.Stdin != nil && s.Input == nil && gateStdinMayPrompt(s.Stdin.Value) {
			from, rel = "the stdin of", s.Stdin
		} else {
			continue
		}
		name := si.ID
		d := p.Finding(s.Approval.Key.Span, "if %s %q is a JSON object with \"prompt\" (or \"requiresApproval.prompt\"), it replaces the prompt; under the reference runtime it also overlays \"required_approver\" and \"initiated_by\" (configured here: %s), which lobster run never allows; do not gate untrusted data this way", from, name, strings.Join(configured, ", "))
		d.Related = []source.Related{p.Related(rel.Key.Span, "the data comes from here")}
		p.Report(d)
	}
}

// gateParallelMayPrompt reports whether a parallel step's merged output
// (an object keyed by branch id) can hold a prompt.
func gateParallelMayPrompt(si *StepInfo) bool {
	for _, b := range si.Children {
		if b.ID == "prompt" || b.ID == "requiresApproval" {
			return true
		}
	}
	return false
}

// gateStdinMayPrompt reports whether an approval-only step's stdin can be
// an object with a prompt: a reference, or a literal that mentions one.
func gateStdinMayPrompt(v ast.Value) bool {
	switch v := ast.Resolve(v).(type) {
	case *ast.Template:
		return len(v.Refs) > 0 || strings.Contains(v.Scalar.Text, "prompt")
	case *ast.Mapping:
		for _, f := range v.Fields {
			if f.Name() == "prompt" || f.Name() == "requiresApproval" {
				return true
			}
		}
	}
	return false
}
