package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// DashdashPositional reports words starting with "--" meant for the program
// that exec runs.
var DashdashPositional = &Analyzer{
	Name:     "dashdash-positional",
	Severity: source.Warning,
	Summary:  "a --option meant for the program run by exec is taken by exec itself",
	Doc: `A word that starts with "--" is always a flag of the pipeline command, never a
positional, and quoting does not change that. In "exec gh pr view 1 --json title",
exec takes --json itself: gh never sees it, and exec parses gh's output as JSON (since lobster
2026.9.13 --json takes no value, so "title" becomes an argument of gh). Options exec does not know
are dropped with the word after them. Run such commands through the shell:
exec --shell 'gh pr view 1 --json title'.`,
	Bad:  "- id: pr\n  pipeline: exec gh pr view 1 --repo acme/app",
	Good: "- id: pr\n  pipeline: exec --shell 'gh pr view 1 --repo acme/app'",
	Fix:  "run the program through exec --shell (unsafe: the shell interprets the line)",
	Run:  runDashdashPositional,
}

func runDashdashPositional(p *Pass) {
	plEachStage(p.Info, func(st *plStage) {
		if st.Name != "exec" || len(st.Pos) == 0 || st.FlagNamed("shell") != nil {
			return
		}
		prog := st.Pos[0]
		fixed := false
		for i := range st.Flags {
			f := &st.Flags[i]
			fl := f.Flag
			if fl.Pos() < prog.Pos() || f.NameRef {
				continue
			}
			var msg string
			switch {
			case f.Def == nil && fl.Value != nil && !fl.Eq:
				msg = fmt.Sprintf("%q is taken by exec itself, not passed to %s: exec ignores it and the word %q after it", "--"+fl.Name, prog.Text, fl.Value.Text)
			case f.Def == nil:
				msg = fmt.Sprintf("%q is taken by exec itself, not passed to %s: exec ignores it", p.Text(ast.SpanOf(fl)), prog.Text)
			case f.Def.Name == "json":
				msg = fmt.Sprintf("\"--json\" is exec's own switch, not passed to %s: exec parses %s's output as JSON instead", prog.Text, prog.Text)
			default:
				msg = fmt.Sprintf("%q is exec's own flag, not passed to %s", "--"+fl.Name, prog.Text)
			}
			d := p.Finding(ast.SpanOf(fl), "%s; use exec --shell '%s …'", msg, prog.Text)
			if !fixed {
				if edit, ok := plShellFix(p, st, prog); ok {
					fixed = true
					d.Fixes = []source.Fix{{Message: "Run the command line through exec --shell (unsafe: the shell interprets the line)", Edits: []source.Edit{edit}, Unsafe: true}}
				}
			}
			p.Report(d)
		}
	})
}

// plShellFix rewrites the words of an exec stage from prog to the end of the
// stage as --shell '<the words>', when they are written plainly (no quotes,
// escapes or references) and can be quoted in the scalar.
func plShellFix(p *Pass, st *plStage, prog *ast.Word) (source.Edit, bool) {
	if st.HasRef {
		return source.Edit{}, false
	}
	sp := source.Span{Start: prog.Pos(), End: st.Stage.End()}
	line := p.Text(sp)
	if strings.ContainsAny(line, "'\"\\\n") {
		return source.Edit{}, false
	}
	text, ok := plYAMLText(st.Pipe.Scalar, "--shell '"+line+"'")
	if !ok {
		return source.Edit{}, false
	}
	return p.Edit(sp, text), true
}
