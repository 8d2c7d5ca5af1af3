package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// CwdStepRef reports $id.path in a cwd, where only ${arg} is substituted.
var CwdStepRef = &Analyzer{
	Name:     "cwd-step-ref",
	Severity: source.Error,
	Summary:  "a step reference in cwd is not substituted",
	Doc: "`cwd` (top level, step, branch or sub-step) gets `${arg}` substitution only; `$id.path` stays " +
		"in the directory name as literal text, so the directory does not exist and the step " +
		"fails with \"workflow shell not found\". To run in a directory computed by an earlier step, pass " +
		"it through env and change directory in the command: `env: {DIR: $build.stdout}` and " +
		"`run: cd \"$DIR\" && …`. A variable followed by a dot (`$HOME.cache`) has the shape of a step " +
		"reference and is reported here too: it is not expanded either.",
	Bad:  "- id: checkout\n  run: ./checkout.sh\n- id: test\n  cwd: $checkout.json.dir\n  run: make test",
	Good: "- id: checkout\n  run: ./checkout.sh\n- id: test\n  run: cd \"$DIR\" && make test\n  env:\n    DIR: $checkout.json.dir",
	Run:  runCwdStepRef,
}

func runCwdStepRef(p *Pass) {
	for i := range p.Info.Refs {
		rs := &p.Info.Refs[i]
		r, ok := rs.Ref.(*ast.StepRef)
		if !ok || rs.Context != InCwd {
			continue
		}
		if _, ok := refTarget(p.Info, rs, r.ID); !ok && !IsResultField(r.Path[0].Name) {
			// "$HOME.cache": no step is meant, but nothing expands it either.
			p.Reportf(ast.SpanOf(r), "%q is not expanded in cwd (only ${arg} is substituted there): the directory name holds the literal text %q; pass the directory as an arg or write it in full", "$"+r.ID, ast.RefText(r))
			continue
		}
		p.Reportf(ast.SpanOf(r), "step references are not substituted in cwd (only ${arg} is): the directory name holds the literal text %q; pass the value through env and cd to it in the command", ast.RefText(r))
	}
}
