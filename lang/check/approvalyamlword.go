package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ApprovalYAMLWord reports approval: yes/no/on/off/y/n.
var ApprovalYAMLWord = &Analyzer{
	Name:     "approval-yaml-word",
	Severity: source.Error,
	Summary:  "an approval is a YAML 1.1 boolean word (yes, no, on, off, y, n), which YAML 1.2 reads as a prompt string",
	Doc: `The reference reads YAML 1.2, where ` + "`yes`" + ` and ` + "`no`" + ` are strings, and any non-blank
string is the gate's prompt. So ` + "`approval: no`" + ` creates a gate whose prompt is "no": the
opposite of what is written (error). ` + "`approval: yes`" + ` creates the intended gate but with the prompt
"yes" (info).`,
	Bad:  "- id: cleanup\n  run: ./cleanup.sh\n  approval: no",
	Good: "- id: cleanup\n  run: ./cleanup.sh",
	Fix:  "replace yes/on/y with true; remove approval: no/off/n",
	Run:  runApprovalYAMLWord,
}

func runApprovalYAMLWord(p *Pass) {
	for _, si := range p.Info.Steps {
		if !gateStep(si) {
			continue
		}
		f := si.Step.Approval
		v, ok := ast.Resolve(f.Value).(*ast.Scalar)
		if !ok || v.Kind != ast.String || v.Style != ast.Plain || v.Tag() != "" {
			continue
		}
		val, ok := yaml11Word(v.Text)
		if !ok {
			continue
		}
		if val {
			d := p.Finding(v.Span, "%q is a string in YAML 1.2; the gate's prompt is literally %q. use approval: true or a prompt", v.Text, v.Text)
			d.Severity = source.Info
			d.Fixes = []source.Fix{{Message: "Replace " + v.Text + " with true", Edits: []source.Edit{p.Edit(v.Span, "true")}}}
			p.Report(d)
			continue
		}
		d := p.Finding(v.Span, "%q is a string in YAML 1.2, so this creates a gate whose prompt is %q; use approval: false or remove the key", v.Text, v.Text)
		if e, ok := gateDeleteLine(p, f); ok {
			d.Fixes = []source.Fix{{Message: "Remove approval: " + v.Text, Edits: []source.Edit{e}}}
		}
		p.Report(d)
	}
}
