package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/source"
)

// ExecImplicitShell reports exec stages that run through the shell because
// their one argument holds a blank.
var ExecImplicitShell = &Analyzer{
	Name:     "exec-implicit-shell",
	Severity: source.Info,
	Summary:  "exec with one argument holding blanks runs it through the shell",
	Doc: `exec runs its single positional argument through /bin/sh -lc when it contains white space,
and runs the program directly otherwise. "exec 'echo hi'" is therefore a shell command
in disguise, with shell quoting, expansion and injection risks that "exec echo hi" does not have.
Write exec --shell to make that visible.`,
	Bad:  "- id: list\n  pipeline: exec 'ls -1 reports'",
	Good: "- id: list\n  pipeline: exec --shell 'ls -1 reports'",
	Fix:  "insert --shell before the argument",
	Run:  runExecImplicitShell,
}

func runExecImplicitShell(p *Pass) {
	plEachStage(p.Info, func(st *plStage) {
		if st.Name != "exec" || st.Cmd == nil || len(st.Pos) != 1 || st.FlagNamed("shell") != nil {
			return
		}
		w := st.Pos[0]
		if strings.IndexFunc(w.Text, js.IsSpace) < 0 {
			return
		}
		if st.HasRef && !plRefsOnlyIn(st, w) {
			return // a reference elsewhere may add words
		}
		d := p.Finding(ast.SpanOf(w), "a single argument with blanks runs through the shell (/bin/sh -lc); write exec --shell to make that explicit")
		d.Fixes = []source.Fix{{Message: "Insert --shell", Edits: []source.Edit{p.Edit(source.Span{Start: w.Pos(), End: w.Pos()}, "--shell ")}}}
		p.Report(d)
	})
}

// plRefsOnlyIn reports whether every reference of the stage lies in w.
func plRefsOnlyIn(st *plStage, w *ast.Word) bool {
	sp := ast.SpanOf(st.Stage)
	ws := ast.SpanOf(w)
	for _, r := range st.Pipe.Refs {
		rs := ast.SpanOf(r)
		if sp.Covers(rs) && !ws.Covers(rs) {
			return false
		}
	}
	return true
}
