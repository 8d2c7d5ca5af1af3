package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// SubworkflowEnvLeak reports children that read a LOBSTER_ARG_* variable
// they do not set, which they then inherit from the parent.
var SubworkflowEnvLeak = &Analyzer{
	Name:     "subworkflow-env-leak",
	Severity: source.Info,
	Summary:  "the child workflow reads a LOBSTER_ARG_* variable of the parent's arg that it does not set itself",
	Doc: `A child workflow runs with the calling step's environment as its base, and that includes
the parent's LOBSTER_ARG_* variables. The child sets LOBSTER_ARG_N only for its own
args that have a value: a default, or a key of workflow_args. When it reads LOBSTER_ARG_N for
another name and the parent has an arg of that name, it silently gets the parent's value: the
composition works, but only because of the parent, and the child's own args do not say so.
Declare the arg in the child and pass it explicitly.`,
	Bad:  "args:\n  target: {default: staging}\nsteps:\n  - id: sub\n    workflow: child.lobster\n-- child.lobster --\nsteps:\n  - id: go\n    run: deploy \"$LOBSTER_ARG_TARGET\"\n",
	Good: "args:\n  target: {default: staging}\nsteps:\n  - id: sub\n    workflow: child.lobster\n    workflow_args:\n      target: ${target}\n-- child.lobster --\nargs:\n  target: {}\nsteps:\n  - id: go\n    run: deploy \"$LOBSTER_ARG_TARGET\"\n",
	Run:  runSubworkflowEnvLeak,
}

func runSubworkflowEnvLeak(p *Pass) {
	if len(p.Info.Args) == 0 {
		return
	}
	parent := map[string]string{} // mangled name → the parent's arg
	for _, fd := range p.Info.Args {
		if n := ArgEnvName(fd.Name()); n != "" {
			if _, dup := parent[n]; !dup {
				parent[n] = fd.Name()
			}
		}
	}
	eachSub(p, func(c subCall, child *subFile) {
		m, ok := workflowArgsOf(c.Step.Step)
		if !ok {
			return
		}
		set := map[string]bool{} // the child's LOBSTER_ARG_N with a value
		declared := map[string]string{}
		for _, fd := range child.Info().Args {
			n := ArgEnvName(fd.Name())
			declared[n] = fd.Name()
			if argDefaultValue(fd) != nil {
				set[n] = true
			}
		}
		if m != nil {
			for _, e := range m.Fields {
				set[ArgEnvName(e.Name())] = true
			}
		}
		use := argUseOf(child)
		for _, n := range use.EnvList {
			arg, ok := parent[n]
			if !ok || set[n] {
				continue
			}
			why, fix := fmt.Sprintf("without declaring %q", arg), "declare the arg in the child and pass it"
			if name, ok := declared[n]; ok {
				why, fix = fmt.Sprintf("although its arg %q has no default and is not passed", name), "pass it"
			}
			d := p.Finding(ast.SpanOf(c.Value), "sub-workflow %q reads LOBSTER_ARG_%s %s; it silently inherits this file's value of arg %q; %s: workflow_args: {%s: \"${%s}\"}",
				c.Value.Scalar.Text, n, why, arg, fix, arg, arg)
			d.Related = []source.Related{
				childRelated(child, use.Env[n], fmt.Sprintf("LOBSTER_ARG_%s is read here", n)),
				p.Related(ast.SpanOf(p.Info.ArgBy[arg].Key), fmt.Sprintf("this file's arg %q", arg)),
			}
			p.Report(d)
		}
	})
}
