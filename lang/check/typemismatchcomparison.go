package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// TypeMismatchComparison reports == and != between operands of different types.
var TypeMismatchComparison = &Analyzer{
	Name:     "type-mismatch-comparison",
	Severity: source.Error,
	Summary:  "== or != compares values whose types differ, so the result is constant",
	Doc: `Condition equality is JavaScript's ` + "`Object.is`" + ` with no type coercion: ` + "`1 == \"1\"`" + ` is
false. So the result is fixed when the types are known to differ:

- ` + "`.approved`" + `, ` + "`.skipped`" + ` and ` + "`.error`" + ` are true or absent: compared with a string or a number
  they never match (` + "`$gate.approved == \"true\"`" + ` is always false);
- ` + "`.stdout`" + `, ` + "`.errorMessage`" + ` and ` + "`.id`" + ` are strings: compared with a number or a boolean they never match;
- a loop's index variable (` + "`$index.json`" + `) is a number: compared with a string it never matches.

These are errors. A ` + "`.json`" + `, ` + "`.response`" + ` or ` + "`.subject`" + ` path compared with a quoted number or
boolean (` + "`$x.json.n == \"1\"`" + `) is reported as info: its type is not known statically, but if the
value is the number 1 the comparison is false.`,
	Bad:  "- id: publish\n  when: '$confirm.approved == \"true\"'\n  run: ./publish.sh",
	Good: "- id: publish\n  when: $confirm.approved\n  run: ./publish.sh",
	Fix:  "compare truthiness (`$g.approved`, `!$g.approved`) instead of a quoted boolean, or drop the quotes around a number compared with a loop index",
	Run:  runTypeMismatchComparison,
}

func runTypeMismatchComparison(p *Pass) {
	condEachEquality(p, func(si *StepInfo, c *ast.Condition, b *ast.BinaryExpr, r *ast.StepRef, l *ast.Literal) {
		condTypeMismatch(p, si, c, b, r, l)
	})
}

func condTypeMismatch(p *Pass, si *StepInfo, c *ast.Condition, b *ast.BinaryExpr, r *ast.StepRef, l *ast.Literal) {
	ref := ast.RefText(r)
	outcome := "always false"
	if b.Op == "!=" {
		outcome = "always true"
	}
	cmp := ref + " " + b.Op + " " + condLitText(l)
	litDesc := func() string {
		switch {
		case condLitIsString(l):
			return "the string " + condLitText(l)
		case l.Kind == ast.LitNumber:
			return "the number " + l.Value
		}
		return "the boolean " + l.Value
	}
	var d source.Diagnostic
	switch {
	case condBoolField(r) && (condLitIsString(l) || l.Kind == ast.LitNumber):
		d = p.Finding(ast.SpanOf(b), "%q is true or absent, never a string or a number, so %q is %s (no type coercion)", ref, cmp, outcome)
		if condLitIsString(l) && (l.Value == "true" || l.Value == "false") {
			// == "true" and != "false" mean the field is set.
			set := (l.Value == "true") == (b.Op == "==")
			repl := p.Text(ast.SpanOf(r))
			if !set {
				repl = "!" + repl
			}
			d.Message += fmt.Sprintf("; use %q", repl)
			d.Fixes = []source.Fix{{Message: fmt.Sprintf("Replace with %q", repl), Edits: []source.Edit{condEdit(p, c, ast.SpanOf(b), repl)}}}
		}
	case condStringField(r) && (l.Kind == ast.LitNumber || condLitIsBool(l)):
		d = p.Finding(ast.SpanOf(b), "%q is a string, never %s, so %q is %s (no type coercion)", ref, litDesc(), cmp, outcome)
	case condLoopIndex(p.Info, si, r) && condLitIsString(l):
		d = p.Finding(ast.SpanOf(b), "%q is the loop index, a number, never %s, so %q is %s (no type coercion)", ref, litDesc(), cmp, outcome)
		if condStrictlyNumeric(l) && l.Kind == ast.LitString && condDecimalInt(l.Value) {
			d.Message += "; drop the quotes"
			d.Fixes = []source.Fix{{Message: "Drop the quotes", Edits: []source.Edit{p.Edit(ast.SpanOf(l), l.Value)}}}
		}
	case condDataPath(r) && l.Kind == ast.LitString && (condStrictlyNumeric(l) && condDecimalNumber(l.Value) || l.Value == "true" || l.Value == "false"):
		d = p.Finding(ast.SpanOf(b), "%q is compared with the string %s: if the value is %s (not a string) the comparison is %s, since there is no type coercion; drop the quotes to compare with %s", ref, condLitText(l), l.Value, outcome, l.Value)
		d.Severity = source.Info
	default:
		return
	}
	p.Report(d)
}

// condDecimalInt reports whether s is an optional "-" and digits.
func condDecimalInt(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// condDecimalNumber reports whether s is a number literal of the condition
// grammar: -?digits(.digits)?.
func condDecimalNumber(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	dot := -1
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '.' && dot < 0 && i > 0:
			dot = i
		case s[i] < '0' || s[i] > '9':
			return false
		}
	}
	return s != "" && dot != len(s)-1
}
