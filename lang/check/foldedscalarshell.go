package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// FoldedScalarShell reports run/command text written as a folded block
// scalar whose folding joins lines that are separate shell lines.
var FoldedScalarShell = &Analyzer{
	Name:     "folded-scalar-shell",
	Severity: source.Warning,
	Summary:  "a \">\" block scalar folds separate shell lines into one",
	Doc: `In a folded block scalar (">", ">-", ">+") YAML joins lines of the same indentation with a
space; only more-indented and empty lines keep their line breaks. A script written that way runs
as one line: a "# comment" swallows everything after it, "then" or "done" become arguments of the
line before, a here-document loses its body, a trailing "\" escapes a space instead of continuing
the line, and two commands become one command with the second as arguments. Use a literal block
scalar ("|") for multi-line scripts. Folding that joins the parts of one command (lines ending in
"|" or "&&", lines starting with an option) is not reported.`,
	Bad:  "- id: setup\n  run: >\n    mkdir -p out\n    cp report.json out/",
	Good: "- id: setup\n  run: |\n    mkdir -p out\n    cp report.json out/",
	Fix:  "change \">\" to \"|\" (unsafe: it changes the command if the folding was meant)",
	Run:  runFoldedScalarShell,
}

func runFoldedScalarShell(p *Pass) {
	plShellFields(p.Info, func(si *StepInfo, f *ast.Field, sh *ast.Shell) {
		s := sh.Scalar
		if s.Style != ast.FoldedBlock {
			return
		}
		why, at, k := plHarmfulFoldIn(p.File, s)
		if why == "" {
			return
		}
		// The finding starts at the key: a comment after a block header is
		// not kept by the parser, so it could not suppress a finding that
		// starts there.
		header := source.Span{Start: s.Pos(), End: s.Pos() + 1}
		d := p.Finding(source.Span{Start: f.Key.Pos(), End: header.End}, "\">\" folds these lines into one, so %s; use \"|\" for multi-line scripts", why)
		d.Related = []source.Related{p.Related(s.Map.Span(at, k), "this line is joined with the next one")}
		d.Fixes = []source.Fix{{Message: "Use a literal block scalar (unsafe: it changes the command if the folding was meant)", Edits: []source.Edit{p.Edit(header, "|")}, Unsafe: true}}
		p.Report(d)
	})
}
