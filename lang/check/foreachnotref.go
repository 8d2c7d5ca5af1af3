package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ForEachNotRef reports for_each values that are not exactly one $id.path
// reference.
var ForEachNotRef = &Analyzer{
	Name:     "for-each-not-ref",
	Severity: source.Error,
	Summary:  "a for_each value is not a single $id.path step reference",
	Doc: `The runtime reads ` + "`for_each`" + ` as a whole-value reference: the trimmed
string must be exactly one ` + "`$id.path`" + `, which is looked up strictly and yields the raw value.
Any other string (an arg such as "${items}", a literal "a,b,c", a reference with text around it
such as "[$list.json]") is templated into a string, and the run fails with "Workflow step <id>
for_each: expected array, got string". An arg can never supply the list: produce it in a step
(for example from $LOBSTER_ARGS_JSON) and loop over that step's json.`,
	Bad:  "- id: each\n  for_each: \"${items}\"\n  steps:\n    - {id: show, run: echo $item.stdout}",
	Good: "- id: list\n  run: echo \"$LOBSTER_ARGS_JSON\" | jq -c .items\n- id: each\n  for_each: $list.json\n  steps:\n    - {id: show, run: echo $item.stdout}",
	Fix:  "keep only the step reference when the value holds exactly one",
	Run:  runForEachNotRef,
}

func runForEachNotRef(p *Pass) {
	for _, si := range p.Info.Steps {
		s := si.Step
		if s.ForEach == nil || s.Context != ast.TopStep {
			continue
		}
		t, ok := s.ForEach.Value.(*ast.Template)
		if !ok || t.Scalar.Text == "" || IsWholeRef(t) {
			continue // not a string (wrong-type), empty (not a loop), or fine
		}
		text := strings.TrimSpace(t.Scalar.Text)
		var refs []*ast.StepRef
		args := 0
		for _, r := range t.Refs {
			switch r := r.(type) {
			case *ast.StepRef:
				refs = append(refs, r)
			case *ast.ArgRef:
				args++
			}
		}
		what := fmt.Sprintf("for_each %q is not a single step reference", text)
		switch {
		case len(refs) == 0 && args > 0:
			what = fmt.Sprintf("for_each %q is an arg, which is substituted as text", text)
		case len(refs) == 1:
			what = fmt.Sprintf("for_each %q has text around %q", text, ast.RefText(refs[0]))
		}
		d := p.Finding(ast.SpanOf(t.Scalar), "%s: any string other than one \"$id.path\" is templated into a string, and the run fails with \"for_each: expected array, got string\"", what)
		switch {
		case len(refs) == 1:
			ref := ast.RefText(refs[0])
			d.Message += fmt.Sprintf("; use %q alone", ref)
			d.Fixes = []source.Fix{{Message: fmt.Sprintf("Use %q alone", ref), Edits: []source.Edit{p.Edit(ast.SpanOf(t.Scalar), ref)}}}
		case args > 0:
			d.Message += "; an arg cannot supply a list: print it in a step (for example from $LOBSTER_ARGS_JSON) and loop over \"$<step>.json\""
		default:
			d.Message += "; loop over a step's output, such as \"$list.json\""
		}
		p.Report(d)
	}
}
