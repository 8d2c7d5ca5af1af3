package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// WorkflowArgsMissing reports child args without a default that the call
// does not pass.
var WorkflowArgsMissing = &Analyzer{
	Name:     "workflow-args-missing",
	Severity: source.Warning,
	Summary:  "a workflow: step does not pass an arg the child uses and gives no default",
	Doc: `A child's args are its own defaults overlaid with the call's workflow_args;
nothing else reaches ${name} in the child. An arg the child declares without a default and
the call does not pass leaves every "${name}" of the child as literal text (the shell then expands
an unset variable to nothing). The child does inherit the parent's LOBSTER_ARG_* variables, but
not its ${…} substitutions.`,
	Bad:  "steps:\n  - id: sub\n    workflow: child.lobster\n" + deployChild,
	Good: "steps:\n  - id: sub\n    workflow: child.lobster\n    workflow_args:\n      target: prod\n" + deployChild,
	Run:  runWorkflowArgsMissing,
}

func runWorkflowArgsMissing(p *Pass) {
	eachSub(p, func(c subCall, child *subFile) {
		m, ok := workflowArgsOf(c.Step.Step)
		if !ok {
			return
		}
		passed := map[string]bool{}
		if m != nil {
			for _, e := range m.Fields {
				passed[e.Name()] = true
			}
		}
		var use *argUse
		for _, fd := range child.Info().Args {
			name := fd.Name()
			if passed[name] || argDefaultValue(fd) != nil {
				continue
			}
			if use == nil {
				use = argUseOf(child)
			}
			at, used := use.Refs[name]
			if !used {
				continue
			}
			d := p.Finding(ast.SpanOf(c.Value), "sub-workflow %q uses arg %q, which has no default and is not passed in workflow_args; its \"${%s}\" stays literal in the child", c.Value.Scalar.Text, name, name)
			if p.Info.ArgBy[name] != nil {
				d.Message += fmt.Sprintf(" (this file's arg %q reaches it only as LOBSTER_ARG_%s); pass it: workflow_args: {%s: \"${%s}\"}", name, ArgEnvName(name), name, name)
			} else {
				d.Message += "; pass it in workflow_args or give it a default in the child"
			}
			d.Related = []source.Related{
				childRelated(child, ast.SpanOf(fd.Key), fmt.Sprintf("arg %q is declared here without a default", name)),
				childRelated(child, at, fmt.Sprintf("\"${%s}\" is used here", name)),
			}
			p.Report(d)
		}
	})
}
