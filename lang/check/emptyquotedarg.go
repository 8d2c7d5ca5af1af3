package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// EmptyQuotedArg reports empty quoted words, whose meaning changed in
// lobster 2026.9.13.
var EmptyQuotedArg = &Analyzer{
	Name:     "empty-quoted-arg",
	Severity: source.Info,
	Summary:  "an empty quoted argument ('' or \"\") means different things in different lobster releases",
	Doc: `Since lobster 2026.9.13 empty quotes are an empty argument: "--title ''" sets title to the
empty string and "printf '<%s>' a '' b" passes three arguments. Releases up to 2026.6.11 dropped
the empty word instead, so "--title ''" made the flag the boolean true and took the
next word as its value. Write --title= for an empty value that every release reads the same way.
(A stage that is only '' fails with "Unknown command: ", see unknown-pipeline-command.)`,
	Bad:  "- id: draft\n  pipeline: template --text '' --file draft.txt",
	Good: "- id: draft\n  pipeline: template --text= --file draft.txt",
	Fix:  "rewrite --flag '' as --flag=",
	Run:  runEmptyQuotedArg,
}

func runEmptyQuotedArg(p *Pass) {
	plEachStage(p.Info, func(st *plStage) {
		for _, w := range st.Pos {
			if w.Text == "" {
				p.Reportf(ast.SpanOf(w), "an empty quoted argument: lobster 2026.9.13 passes it as an empty positional, older releases drop it")
			}
		}
		for i := range st.Flags {
			a := st.Flags[i].Flag
			v := st.Flags[i].Value
			if a.Eq || v == nil || v.Text != "" {
				continue
			}
			d := p.Finding(ast.SpanOf(v), "\"--%s %s\" is the empty string since lobster 2026.9.13, but older releases drop the empty word and read --%s as true; write --%s= for an empty value",
				a.Name, p.Text(ast.SpanOf(v)), a.Name, a.Name)
			gap := source.Span{Start: a.NameSpan.End, End: v.Pos()}
			if strings.TrimSpace(p.Text(gap)) == "" {
				d.Fixes = []source.Fix{{Message: fmt.Sprintf("Write --%s=", a.Name), Edits: []source.Edit{p.Edit(source.Span{Start: a.NameSpan.End, End: v.End()}, "=")}}}
			}
			p.Report(d)
		}
	})
}
