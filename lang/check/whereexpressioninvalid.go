package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// WhereExpressionInvalid reports where expressions the command rejects.
var WhereExpressionInvalid = &Analyzer{
	Name:     "where-expression-invalid",
	Severity: source.Error,
	Summary:  "a where expression does not match path op value",
	Doc: `where reads one word, its first positional argument, and matches it against
path op value, where the path holds only letters, digits, "_" and "." and op is one of ==, =, !=,
<=, >=, < and >. Anything else fails the stage with "Invalid where expression: <expr>".
Words are split on blanks first, so "where a == 1" makes the expression "a" and ignores the rest:
write the expression as one word, quoted if it holds spaces.`,
	Bad:  "- id: open\n  pipeline: exec --json cat issues.json | where state == open",
	Good: "- id: open\n  pipeline: exec --json cat issues.json | where 'state == open'",
	Fix:  "join the words into one quoted expression",
	Run:  runWhereExpressionInvalid,
}

func runWhereExpressionInvalid(p *Pass) {
	plEachStage(p.Info, func(st *plStage) {
		if st.Name != "where" || st.Cmd == nil || len(st.Pos) == 0 {
			return
		}
		w := st.Pos[0]
		if w.Text == "" || st.WordRef(w) {
			return
		}
		if _, ok := plParseWhere(w.Text); ok {
			return
		}
		fails := fmt.Sprintf("the run fails with \"Invalid where expression: %s\"", w.Text)
		if len(st.Pos) > 1 && !st.HasRef {
			texts := make([]string, len(st.Pos))
			for i, x := range st.Pos {
				texts[i] = x.Text
			}
			joined := strings.Join(texts, " ")
			if _, ok := plParseWhere(joined); ok {
				d := p.Finding(ast.SpanOf(w), "invalid where expression %q (the words after it are ignored); %s; write it as one word: where '%s'", w.Text, fails, joined)
				if edit, ok := plJoinFix(p, st, joined); ok {
					d.Fixes = []source.Fix{{Message: "Quote the expression", Edits: []source.Edit{edit}}}
				}
				p.Report(d)
				return
			}
		}
		hint := "write path op value, for example state==open"
		if i := strings.IndexByte(w.Text, '-'); i > 0 && !strings.ContainsAny(w.Text[:i], "=!<>") {
			hint = "a path may hold only letters, digits, \"_\" and \".\""
		}
		p.Reportf(ast.SpanOf(w), "invalid where expression %q; %s; %s", w.Text, fails, hint)
	})
}

// plJoinFix replaces the positionals of a stage with one single-quoted
// word, when they are written plainly.
func plJoinFix(p *Pass, st *plStage, joined string) (source.Edit, bool) {
	for _, x := range st.Pos {
		if !plPlainWord(p, x) {
			return source.Edit{}, false
		}
	}
	last := st.Pos[len(st.Pos)-1]
	for _, f := range st.Flags {
		if f.Flag.Pos() > st.Pos[0].Pos() && f.Flag.Pos() < last.Pos() {
			return source.Edit{}, false // a flag between the words
		}
	}
	text, ok := plYAMLText(st.Pipe.Scalar, "'"+joined+"'")
	if !ok {
		return source.Edit{}, false
	}
	return p.Edit(source.Span{Start: st.Pos[0].Pos(), End: last.End()}, text), true
}
