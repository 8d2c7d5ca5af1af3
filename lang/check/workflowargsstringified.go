package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// WorkflowArgsStringified reports workflow_args values that reach the child
// as strings although they look like numbers, booleans or objects.
var WorkflowArgsStringified = &Analyzer{
	Name:     "workflow-args-stringified",
	Severity: source.Info,
	Summary:  "a workflow_args value built from a reference reaches the child as a string",
	Doc: `String values of workflow_args are templates: they are substituted and the result is a
string. "$data.json.count" with a count of 42 reaches the child as "42", not 42, an
object as its JSON text, and "${limit}" with a default of 5 as "5". Only non-string values written
in the file (numbers, mappings, lists) pass through unchanged. A child that compares or computes
with the value must convert it.`,
	Bad:  "steps:\n  - id: data\n    run: echo '{\"count\":42}'\n  - id: sub\n    workflow: child.lobster\n    workflow_args:\n      count: $data.json.count\n" + countChild,
	Good: "steps:\n  - id: sub\n    workflow: child.lobster\n    workflow_args:\n      count: 42   # or convert the string in the child\n" + countChild,
	Run:  runWorkflowArgsStringified,
}

// stringifiedFields are the result fields whose value is not necessarily a
// string.
var stringifiedFields = map[string]bool{"json": true, "response": true, "approved": true, "skipped": true, "error": true}

func runWorkflowArgsStringified(p *Pass) {
	var calls map[*StepInfo]subCall
	// childWantsString reports whether the child declares the arg with a
	// string default: then a string is what it expects.
	childWantsString := func(s *StepInfo, key string) bool {
		if calls == nil {
			calls = map[*StepInfo]subCall{}
			for _, c := range subCalls(p.Info, p.Options.Path) {
				calls[c.Step] = c
			}
		}
		c, ok := calls[s]
		if !ok {
			return false
		}
		child := p.sub(c.File)
		if child.Err != nil || child.File.Workflow == nil {
			return false
		}
		fd := child.Info().ArgBy[key]
		if fd == nil {
			return false
		}
		sc, ok := argDefaultValue(fd).(*ast.Scalar)
		return ok && sc.Kind == ast.String
	}
	for _, s := range p.Info.Steps {
		if s.Step.Workflow == nil {
			continue
		}
		m, _ := workflowArgsOf(s.Step)
		if m == nil {
			continue
		}
		for _, e := range m.Fields {
			t, ok := e.Value.(*ast.Template)
			if !ok || len(t.Refs) != 1 {
				continue
			}
			var msg string
			switch r := t.Refs[0].(type) {
			case *ast.StepRef:
				if !IsWholeRef(t) || !stringifiedFields[r.Path[0].Name] || p.Info.Resolve(s, r.ID).Visibility != Visible {
					continue // an unknown reference stays text: other rules report it
				}
				msg = fmt.Sprintf("%q is templated into a string: the child receives the text of the value (\"42\", not the number 42; an object as its JSON text); convert it in the child", ast.RefText(r))
			case *ast.ArgRef:
				if strings.TrimSpace(t.Scalar.Text) != "${"+r.Name+"}" || p.Info.ArgBy[r.Name] == nil {
					continue
				}
				sc, ok := argDefaultValue(p.Info.ArgBy[r.Name]).(*ast.Scalar)
				if !ok || sc.Kind != ast.Int && sc.Kind != ast.Float && sc.Kind != ast.Bool {
					continue
				}
				text, _ := argDefault(p.Info, r.Name)
				kind := "number"
				if sc.Kind == ast.Bool {
					kind = "boolean"
				}
				msg = fmt.Sprintf("\"${%s}\" is templated into a string: with the default the child receives %q, not the %s %s; convert it in the child", r.Name, text, kind, text)
			default:
				continue
			}
			if childWantsString(s, e.Name()) {
				continue
			}
			p.Reportf(ast.SpanOf(t.Refs[0]), "%s", msg)
		}
	}
}
