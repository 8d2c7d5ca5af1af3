package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ExecShellIgnoredArgs reports exec --shell stages whose positionals are
// ignored.
var ExecShellIgnoredArgs = &Analyzer{
	Name:     "exec-shell-ignored-args",
	Severity: source.Error,
	Summary:  "exec --shell runs one shell line and ignores the other words",
	Doc: `With --shell, exec runs the flag's value as the shell line: in
"exec --shell echo hi" the line is "echo" and "hi" is ignored. A bare --shell ("exec echo hi
--shell") runs only the first positional through the shell, here "echo". Quote the whole line:
exec --shell 'echo hi'.`,
	Bad:  "- id: greet\n  pipeline: exec --shell echo hello world",
	Good: "- id: greet\n  pipeline: exec --shell 'echo hello world'",
	Fix:  "quote the words as one shell line",
	Run:  runExecShellIgnoredArgs,
}

func runExecShellIgnoredArgs(p *Pass) {
	plEachStage(p.Info, func(st *plStage) {
		if st.Name != "exec" || st.Cmd == nil || st.HasRef || len(st.Pos) == 0 {
			return
		}
		sh := st.FlagNamed("shell")
		if sh == nil {
			return
		}
		if sh.Value != nil {
			if sh.Value.Text == "" {
				return
			}
			words := append([]*ast.Word{sh.Value}, st.Pos...)
			line := plJoinWords(words)
			d := p.Finding(plWordsSpan(st.Pos), "with --shell, only the shell line %q runs; %s; quote the whole line: exec --shell '%s'", sh.Value.Text, plWordList(st.Pos), line)
			if !sh.Flag.Eq && plAfter(st.Pos, sh.Value) {
				if edit, ok := plQuoteWords(p, st, words, line); ok {
					d.Fixes = []source.Fix{{Message: "Quote the shell line", Edits: []source.Edit{edit}}}
				}
			}
			p.Report(d)
			return
		}
		if len(st.Pos) < 2 {
			return
		}
		line := plJoinWords(st.Pos)
		d := p.Finding(plWordsSpan(st.Pos[1:]), "a bare --shell runs only the first positional %q through the shell; %s; quote the whole line: exec --shell '%s'", st.Pos[0].Text, plWordList(st.Pos[1:]), line)
		if edit, ok := plQuoteWords(p, st, st.Pos, line); ok {
			d.Fixes = []source.Fix{{Message: "Quote the shell line", Edits: []source.Edit{edit}}}
		}
		p.Report(d)
	})
}

// plJoinWords joins the texts of words with spaces.
func plJoinWords(ws []*ast.Word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.Text
	}
	return strings.Join(parts, " ")
}

// plWordsSpan spans a list of words.
func plWordsSpan(ws []*ast.Word) source.Span {
	return source.Span{Start: ws[0].Pos(), End: ws[len(ws)-1].End()}
}

// plAfter reports whether every word of ws comes after w.
func plAfter(ws []*ast.Word, w *ast.Word) bool {
	for _, x := range ws {
		if x.Pos() < w.Pos() {
			return false
		}
	}
	return true
}

// plQuoteWords replaces consecutive plain words, with nothing but blanks
// between them, by one single-quoted word holding line.
func plQuoteWords(p *Pass, st *plStage, ws []*ast.Word, line string) (source.Edit, bool) {
	for i, w := range ws {
		if !plPlainWord(p, w) || strings.Contains(w.Text, "'") {
			return source.Edit{}, false
		}
		if i > 0 && strings.TrimSpace(p.Text(source.Span{Start: ws[i-1].End(), End: w.Pos()})) != "" {
			return source.Edit{}, false
		}
	}
	text, ok := plYAMLText(st.Pipe.Scalar, fmt.Sprintf("'%s'", line))
	if !ok {
		return source.Edit{}, false
	}
	return p.Edit(plWordsSpan(ws), text), true
}
