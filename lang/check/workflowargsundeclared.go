package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// WorkflowArgsUndeclared reports workflow_args keys the child neither
// declares nor reads.
var WorkflowArgsUndeclared = &Analyzer{
	Name:     "workflow-args-undeclared",
	Severity: source.Warning,
	Summary:  "a workflow_args key names no arg of the child workflow",
	Doc: `The child receives every workflow_args key as an arg, declared or not, without any
check. A key the child neither declares under args nor reads (as ${name},
LOBSTER_ARG_NAME or through LOBSTER_ARGS_JSON) is passed for nothing: usually a typo of an arg
the child does declare, which then keeps its default.`,
	Bad:  "steps:\n  - id: sub\n    workflow: child.lobster\n    workflow_args:\n      nmae: lobster\n" + greetChild,
	Good: "steps:\n  - id: sub\n    workflow: child.lobster\n    workflow_args:\n      name: lobster\n" + greetChild,
	Fix:  "rename the key to the child's arg with a close name",
	Run:  runWorkflowArgsUndeclared,
}

func runWorkflowArgsUndeclared(p *Pass) {
	eachSub(p, func(c subCall, child *subFile) {
		m, _ := workflowArgsOf(c.Step.Step)
		if m == nil {
			return
		}
		cin := child.Info()
		var use *argUse
		var candidates []string
		for _, e := range m.Fields {
			k := e.Name()
			if cin.ArgBy[k] != nil {
				continue
			}
			if use == nil {
				use = argUseOf(child)
				passed := map[string]bool{}
				for _, e := range m.Fields {
					passed[e.Name()] = true
				}
				for _, fd := range cin.Args {
					if !passed[fd.Name()] {
						candidates = append(candidates, fd.Name())
					}
				}
			}
			if use.JSON {
				return
			}
			if _, ok := use.Refs[k]; ok {
				continue
			}
			if n := ArgEnvName(k); n != "" {
				if _, ok := use.Env[n]; ok {
					continue
				}
			}
			d := p.Finding(ast.SpanOf(e.Key), "sub-workflow %q declares no arg %q and never reads it, so the value is passed for nothing", c.Value.Scalar.Text, k)
			if near := Suggest(k, candidates); near != "" {
				d.Message += fmt.Sprintf("; did you mean %q?", near)
				d.Fixes = []source.Fix{{Message: fmt.Sprintf("Rename %q to %q", k, near),
					Edits: []source.Edit{p.Edit(e.Key.Map.Span(0, len(e.Key.Text)), near)}}}
				if fd := cin.ArgBy[near]; fd != nil {
					d.Related = []source.Related{childRelated(child, ast.SpanOf(fd.Key), fmt.Sprintf("arg %q is declared here", near))}
				}
			} else if len(cin.Args) == 0 {
				d.Message += "; the child declares no args"
			} else {
				d.Message += fmt.Sprintf("; it declares %s", quotedList(cin.Args))
			}
			p.Report(d)
		}
	})
}

// quotedList lists arg names, quoted, at most five.
func quotedList(args []*ast.Field) string {
	var b strings.Builder
	for i, fd := range args {
		if i == 5 {
			fmt.Fprintf(&b, " and %d more", len(args)-5)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", fd.Name())
	}
	return b.String()
}
