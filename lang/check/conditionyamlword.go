package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ConditionYAMLWord reports when: yes/no/on/off/y/n.
var ConditionYAMLWord = &Analyzer{
	Name:     "condition-yaml-word",
	Severity: source.Error,
	Summary:  "a condition is a YAML 1.1 boolean word (yes, no, on, off, y, n), which YAML 1.2 reads as a string",
	Doc: `The reference reads YAML 1.2, where only true and false are booleans: ` + "`when: yes`" + `
is the string "yes", which the condition grammar rejects as a bare word, so the run fails with
"Unsupported condition: yes".`,
	Bad:        "- id: deploy\n  when: yes\n  run: ./deploy.sh",
	Good:       "- id: deploy\n  when: true\n  run: ./deploy.sh",
	Fix:        "replace yes/on/y with true and no/off/n with false",
	Supersedes: []string{"condition-syntax"},
	Run:        runConditionYAMLWord,
}

func runConditionYAMLWord(p *Pass) {
	for _, si := range p.Info.Steps {
		f := condField(si.Step)
		if f == nil {
			continue
		}
		c, ok := ast.Resolve(f.Value).(*ast.Condition)
		if !ok || c.Scalar.Style != ast.Plain || c.Scalar.Tag() != "" {
			continue
		}
		val, ok := yaml11Word(c.Scalar.Text)
		if !ok {
			continue
		}
		repl := "false"
		if val {
			repl = "true"
		}
		d := p.Finding(c.Scalar.Span, "%q is a string in YAML 1.2, not a boolean; the run fails with \"Unsupported condition: %s\". use %s", c.Scalar.Text, c.Scalar.Text, repl)
		d.Fixes = []source.Fix{{Message: "Replace " + c.Scalar.Text + " with " + repl, Edits: []source.Edit{p.Edit(c.Scalar.Span, repl)}}}
		p.Report(d)
	}
}
