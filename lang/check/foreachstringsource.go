package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ForEachStringSource reports for_each references to a result field that is
// never an array.
var ForEachStringSource = &Analyzer{
	Name:     "for-each-string-source",
	Severity: source.Error,
	Summary:  "a for_each reference reads a result field that is never an array, such as .stdout",
	Doc: `A whole-value for_each reference yields the raw value of the field. ` + "`stdout`" + `,
` + "`id`" + `, ` + "`approvedBy`" + `, ` + "`initiatedBy`" + ` and ` + "`errorMessage`" + ` are strings and ` + "`approved`" + `, ` + "`skipped`" + ` and ` + "`error`" + `
are booleans (or missing), so the run always fails with "for_each: expected array, got string"
(or "boolean", "undefined"). A step that prints a JSON array exposes it as ` + "`json`" + `.`,
	Bad:  "- id: list\n  run: echo '[1, 2, 3]'\n- id: each\n  for_each: $list.stdout\n  steps:\n    - {id: show, run: echo $item.stdout}",
	Good: "- id: list\n  run: echo '[1, 2, 3]'\n- id: each\n  for_each: $list.json\n  steps:\n    - {id: show, run: echo $item.stdout}",
	Fix:  "replace .stdout with .json (the step must print a JSON array)",
	Run:  runForEachStringSource,
}

// forEachScalarFields are the result fields that are strings or booleans.
var forEachScalarFields = map[string]string{
	"stdout": "a string", "id": "a string", "approvedBy": "a string", "initiatedBy": "a string", "errorMessage": "a string",
	"approved": "a boolean", "skipped": "a boolean", "error": "a boolean",
}

func runForEachStringSource(p *Pass) {
	for _, si := range p.Info.Steps {
		s := si.Step
		if s.ForEach == nil || s.Context != ast.TopStep {
			continue
		}
		t, ok := s.ForEach.Value.(*ast.Template)
		if !ok || !IsWholeRef(t) {
			continue
		}
		r := t.Refs[0].(*ast.StepRef)
		field := r.Path[0].Name
		kind, ok := forEachScalarFields[field]
		if !ok {
			continue
		}
		text := ast.RefText(r)
		d := p.Finding(ast.SpanOf(r.Path[0]), "%q is %s, never an array, so the run fails with \"for_each: expected array\"", text, kind)
		if len(r.Path) == 1 && field == "stdout" {
			d.Message += fmt.Sprintf("; use \"$%s.json\"", r.ID)
			d.Fixes = []source.Fix{{Message: "Read .json instead of .stdout", Edits: []source.Edit{p.Edit(ast.SpanOf(r.Path[0]), "json")}}}
		}
		p.Report(d)
	}
}
