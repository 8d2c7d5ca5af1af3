package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// PreferCanonicalKey reports synonyms where one spelling is preferred.
var PreferCanonicalKey = &Analyzer{
	Name:     "prefer-canonical-key",
	Severity: source.Hint,
	Summary:  "a synonym key is used where one spelling is preferred (command for run, condition for when, camelCase approval keys)",
	Doc: `The reference accepts ` + "`command`" + ` as a synonym of ` + "`run`" + ` (the README prefers ` + "`run`" + `),
` + "`condition`" + ` as a synonym of ` + "`when`" + `, and both spellings of the approval identity keys
(` + "`initiatedBy`" + ` and ` + "`initiated_by`" + `…). One spelling per file reads better,
and the preferred ones here are ` + "`run`" + `, ` + "`when`" + ` and the snake_case keys, like every other key of
the format. This is style only: turn the rule off if the project prefers the other spellings. When
both spellings are set, ` + "`run-and-command`" + `, ` + "`when-and-condition`" + ` or ` + "`duplicate-key-spelling`" + `
reports the conflict instead.`,
	Bad:  "- id: build\n  command: make\n  condition: $check.json.ok",
	Good: "- id: build\n  run: make\n  when: $check.json.ok",
	Fix:  "rename the key to the preferred spelling",
	Run:  func(p *Pass) { reportUnlessForeign(p, collectCanonicalKeys) },
}

func collectCanonicalKeys(p *Pass, emit func(source.Diagnostic)) {
	report := func(f *ast.Field, canonical, what string) {
		d := p.Finding(f.Key.Span, "%q is a synonym of %q; prefer %q%s", f.Name(), canonical, canonical, what)
		d.Fixes = []source.Fix{{Message: fmt.Sprintf("Rename %q to %q", f.Name(), canonical), Edits: []source.Edit{renameKey(p, f, canonical)}}}
		emit(d)
	}
	for _, s := range structureSteps(p.Info) {
		st := s.Step
		if st.Command != nil && st.Run == nil {
			report(st.Command, "run", "")
		}
		if st.Condition != nil && st.When == nil && st.Context != ast.BranchStep {
			report(st.Condition, "when", "")
		}
		a, ok := fieldValue(st.Approval).(*ast.Approval)
		if !ok || st.Context != ast.TopStep {
			continue
		}
		for _, pair := range [...][2]*ast.Field{
			{a.InitiatedBy, a.InitiatedByCC},
			{a.RequiredApprover, a.RequiredApproverCC},
			{a.RequireDifferentApprover, a.RequireDifferentApproverCC},
		} {
			if pair[0] == nil && pair[1] != nil {
				report(pair[1], snakeCase(pair[1].Name()), ", like the other keys of the file")
			}
		}
	}
}

// snakeCase turns camelCase into snake_case.
func snakeCase(s string) string {
	b := make([]byte, 0, len(s)+4)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			b = append(b, '_', c+'a'-'A')
			continue
		}
		b = append(b, c)
	}
	return string(b)
}
