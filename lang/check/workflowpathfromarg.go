package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// WorkflowPathFromArg reports workflow: paths built from args.
var WorkflowPathFromArg = &Analyzer{
	Name:     "workflow-path-from-arg",
	Severity: source.Warning,
	Summary:  "a workflow: path is built from an arg: whoever passes the args chooses the file that runs",
	Doc: "`workflow: ./flows/${flow}.lobster` runs whatever file the arg names. Args come from the " +
		"command line or the tool call (`--args-json`), and a value is not checked: `{\"flow\": \"../../x\"}` " +
		"runs a file outside the workflow's directory, with everything the workflow may do. Lobster refuses, " +
		"when the step runs, a path built from args or step output that resolves outside the directory of " +
		"the calling file (a path written literally may go anywhere); inside that directory any workflow " +
		"file can still be chosen. The reference runs any path.\n\n" +
		"Prefer a fixed set of children, one step each, chosen by a condition on a step that prints the arg; " +
		"or keep the children the arg may name in a directory of their own.",
	Bad: "args:\n  flow: {default: build}\nsteps:\n  - id: sub\n    workflow: ./flows/${flow}.lobster",
	Good: "args:\n  flow: {default: build}\nsteps:\n  - id: flow\n    run: printf '%s' \"$LOBSTER_ARG_FLOW\"\n" +
		"  - id: build\n    workflow: ./flows/build.lobster\n    when: $flow.stdout == \"build\"",
	Run: runWorkflowPathFromArg,
}

func runWorkflowPathFromArg(p *Pass) {
	for _, s := range p.Info.Steps {
		if s.Step.Workflow == nil {
			continue
		}
		t, ok := s.Step.Workflow.Value.(*ast.Template)
		if !ok {
			continue
		}
		for _, r := range t.Refs {
			a, ok := r.(*ast.ArgRef)
			if !ok {
				continue
			}
			d := p.Finding(ast.SpanOf(a), "the workflow: path is built from the arg %q: whoever passes the args chooses the file that runs "+
				"(a run refuses a path that leaves this file's directory, such as \"../x\", but any workflow file inside it can be named)", "${"+a.Name+"}")
			if fd := p.Info.ArgBy[a.Name]; fd != nil {
				d.Related = append(d.Related, p.Related(ast.SpanOf(fd.Key), "the arg is declared here"))
			}
			p.Report(d)
		}
	}
}
