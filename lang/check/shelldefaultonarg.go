package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ShellDefaultOnArg reports ${arg:-x} and other shell expansion operators
// applied to the name of a declared arg.
var ShellDefaultOnArg = &Analyzer{
	Name:     "shell-default-on-arg",
	Severity: source.Error,
	Summary:  "a shell expansion such as ${arg:-x} or $arg names a declared arg, which the shell does not see",
	Doc: `Lobster substitutes only the exact form "${name}": there is no default syntax.
"${target:-prod}", "${target:?}", "${target#v}" or "${#target}" do not match the arg pattern and
reach the shell, which reads an environment variable named target. The runtime never sets one:
the arg is exported as LOBSTER_ARG_TARGET. So the default is always used (or the
expansion is always empty). Apply the operator to the LOBSTER_ARG_ variable instead. These forms
are errors. The bare form "$target" (or target in $((…))) has the same problem and is reported as a
warning, since the author may export such a variable. A name that an env block sets or that the
script assigns itself is not reported.`,
	Bad:  "args:\n  target: {default: staging}\nsteps:\n  - id: deploy\n    run: ./deploy.sh \"${target:-prod}\"",
	Good: "args:\n  target: {default: staging}\nsteps:\n  - id: deploy\n    run: ./deploy.sh \"${LOBSTER_ARG_TARGET:-prod}\"",
	Fix:  "replace the name with its LOBSTER_ARG_ variable",
	Run:  runShellDefaultOnArg,
}

func runShellDefaultOnArg(p *Pass) {
	if len(p.Info.Args) == 0 {
		return
	}
	var byVar map[string]*ast.Field
	for _, vs := range p.Info.Vars {
		v := vs.Var
		if v.Op == "" && v.Braced {
			continue // ${name} is an arg reference, not a shell variable
		}
		fd := p.Info.ArgBy[v.Name]
		if fd == nil {
			continue
		}
		if aeEnvSets(p.Info, vs.Step, v.Name) || aeAssigns(aeShellText(vs.Field), v.Name) {
			continue
		}
		n := ArgEnvName(v.Name)
		if n == "" {
			continue
		}
		if byVar == nil {
			byVar = aeArgByVar(p.Info)
		}
		written := p.Text(ast.SpanOf(v))
		name := "LOBSTER_ARG_" + n
		nameSpan := v.NameSpan
		rewritten := written
		if rel := nameSpan.Start - v.Pos(); rel >= 0 && rel+nameSpan.Len() <= len(written) {
			rewritten = written[:rel] + name + written[rel+nameSpan.Len():]
		}
		var d source.Diagnostic
		if v.Op == "" || v.Op == "arith" {
			// "$target": a likely bug, but the author may export such a
			// variable; the operator forms are errors.
			d = p.Finding(ast.SpanOf(v), "%q reads an environment variable named %q, which the runtime does not set: arg %q is exported as %s. use %q",
				written, v.Name, v.Name, name, rewritten)
			d.Severity = source.Warning
		} else {
			d = p.Finding(ast.SpanOf(v), "%q is not substituted by Lobster; the shell reads an environment variable named %q instead, which the runtime does not set. use %q",
				written, v.Name, rewritten)
		}
		d.Related = []source.Related{p.Related(fd.Key.Span, "the arg is declared here")}
		if byVar[n] == fd {
			d.Fixes = []source.Fix{{Message: fmt.Sprintf("Use %s", name), Edits: []source.Edit{p.Edit(nameSpan, name)}}}
		}
		p.Report(d)
	}
}
