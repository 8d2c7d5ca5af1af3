package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// WhenAndCondition reports when and condition on the same step.
var WhenAndCondition = &Analyzer{
	Name:     "when-and-condition",
	Severity: source.Warning,
	Summary:  "both when and condition are set; when is evaluated and condition is ignored",
	Doc: `` + "`when`" + ` and ` + "`condition`" + ` are synonyms. The reference evaluates ` + "`when ?? condition`" + `, so
when both are given ` + "`condition`" + ` is silently ignored: the step runs whenever ` + "`when`" + `
holds, whatever ` + "`condition`" + ` says. On a parallel branch both are ignored
(` + "`ignored-step-policy`" + `).`,
	Bad:  "- id: post\n  run: ./post.sh\n  condition: $approve.approved\n  when: $check.json.ok",
	Good: "- id: post\n  run: ./post.sh\n  when: ($check.json.ok) && ($approve.approved)",
	Fix:  "combine both into when: \"(<when>) && (<condition>)\" (unsafe: the step then runs less often than today)",
	Run:  runWhenAndCondition,
}

func runWhenAndCondition(p *Pass) {
	for _, s := range structureSteps(p.Info) {
		st := s.Step
		if st.When == nil || st.Condition == nil || st.Context == ast.BranchStep || isNull(st.When) {
			continue
		}
		d := p.Finding(st.Condition.Key.Span, "both \"when\" and \"condition\" are set on %s; \"when\" is evaluated and \"condition\" is ignored", stepLabel(s))
		d.Related = []source.Related{p.Related(st.When.Key.Span, "\"when\" is evaluated")}
		wc, wok := st.When.Value.(*ast.Condition)
		cc, cok := st.Condition.Value.(*ast.Condition)
		if wok && cok && wc.Expr != nil && cc.Expr != nil {
			remove, ok := removeField(p, &st.Object, st.Condition)
			if ok {
				wt, ct := strings.TrimSpace(wc.Scalar.Text), strings.TrimSpace(cc.Scalar.Text)
				if wt == ct {
					d.Message += " (both hold the same expression)"
					d.Fixes = []source.Fix{{Message: "Remove the duplicate \"condition\"", Edits: []source.Edit{remove}}}
				} else {
					combined := fmt.Sprintf("(%s) && (%s)", wt, ct)
					d.Fixes = []source.Fix{{
						Message: fmt.Sprintf("Combine into when: %q (unsafe: the step then also needs the condition)", combined),
						Edits:   []source.Edit{p.Edit(ast.SpanOf(st.When.Value), jsonQuote(combined)), remove},
						Unsafe:  true,
					}}
				}
			}
		}
		p.Report(d)
	}
}
