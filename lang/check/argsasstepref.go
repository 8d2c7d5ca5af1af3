package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// ArgsAsStepRef reports $args.name: an arg read as if "args" were a step.
var ArgsAsStepRef = &Analyzer{
	Name:     "args-as-step-ref",
	Severity: source.Error,
	Summary:  "$args.name reads an arg as if \"args\" were a step",
	Doc: `Args are written ${name}; there is no step or object called "args". In shell text
"$args.name" is left as it is and the shell expands $args, which is not set, so the command gets
".name" [verified: echo "[$args.name]" printed "[.name]"]. In env values, pipelines and other
templates the text stays literal. In shell text read the arg from its environment variable,
"$LOBSTER_ARG_NAME" (safe inside double quotes); elsewhere write ${name}.`,
	Bad:  "args:\n  name: {default: world}\nsteps:\n  - id: greet\n    run: echo \"hello $args.name\"",
	Good: "args:\n  name: {default: world}\nsteps:\n  - id: greet\n    run: echo \"hello $LOBSTER_ARG_NAME\"",
	Fix:  "in shell text, read $LOBSTER_ARG_<NAME>; elsewhere write ${name} (when the arg is declared)",
	Run:  runArgsAsStepRef,
}

func runArgsAsStepRef(p *Pass) {
	for i := range p.Info.Refs {
		rs := &p.Info.Refs[i]
		r, ok := rs.Ref.(*ast.StepRef)
		if !ok || r.ID != "args" || p.Info.ResolveSite(rs, r.ID).Target != nil {
			continue
		}
		name := r.Path[0].Name
		declared := p.Info.ArgBy[name] != nil && len(r.Path) == 1
		var d source.Diagnostic
		switch rs.Context {
		case InShell:
			env := "LOBSTER_ARG_" + ArgEnvName(name)
			d = p.Finding(ast.SpanOf(r), "%q is not an arg reference: the shell expands $args, which is not set, so the command gets %q; read the arg as \"$%s\"", ast.RefText(r), ast.RefText(r)[len("$args"):], env)
			if declared && ArgEnvName(name) != "" {
				repl := "$" + env
				if after := p.File.Src.Content[r.End():]; len(after) > 0 && parser.IsWordByte(after[0]) {
					repl = "${" + env + "}"
				}
				d.Fixes = []source.Fix{{Message: fmt.Sprintf("Read %s", repl), Edits: []source.Edit{p.Edit(ast.SpanOf(r), repl)}}}
			}
		case InTemplate, InPipeline, InWhole:
			d = p.Finding(ast.SpanOf(r), "%q is not an arg reference: no step is called \"args\", so the text stays as written; write \"${%s}\"", ast.RefText(r), name)
			if declared {
				d.Fixes = []source.Fix{{Message: fmt.Sprintf("Write ${%s}", name), Edits: []source.Edit{p.Edit(ast.SpanOf(r), "${"+name+"}")}}}
			}
		default:
			continue // conditions: unknown-step-ref
		}
		p.Report(d)
	}
}
