package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// WhereOddOperator reports where expressions that parse, through
// backtracking, into a comparison with a string that starts with an
// operator character.
var WhereOddOperator = &Analyzer{
	Name:     "where-odd-operator",
	Severity: source.Error,
	Summary:  "a where expression parses into a comparison with a string such as \"=1\"",
	Doc: `where tries its operators in the order ==, =, !=, <=, >=, <, > and takes the rest of the word
as the value. Operators it does not have are therefore read as a shorter operator
followed by a value: "a===1" compares a with the string "=1", "a!==1" is a != "=1", "a=>1" is
a == ">1", "a<>1" is a < ">1", and "x==" compares x with "=". None of these filters as written.`,
	Bad:  "- id: done\n  pipeline: exec --json cat tasks.json | where done===true",
	Good: "- id: done\n  pipeline: exec --json cat tasks.json | where done==true",
	Fix:  "replace the operator with the one that was meant",
	Run:  runWhereOddOperator,
}

// plOddOperators maps what was written to the operator that was meant.
var plOddOperators = map[string]string{
	"===": "==", "!==": "!=", "=>": ">=", "=<": "<=", "<>": "!=", "=!": "!=", "==>": ">=", "==<": "<=",
}

func runWhereOddOperator(p *Pass) {
	plEachStage(p.Info, func(st *plStage) {
		if st.Name != "where" || st.Cmd == nil || len(st.Pos) == 0 {
			return
		}
		w := st.Pos[0]
		if st.WordRef(w) {
			return
		}
		e, ok := plParseWhere(w.Text)
		if !ok || !strings.ContainsAny(e.Value[:1], "=<>!") {
			return
		}
		k := 0
		for k < len(e.Value) && strings.IndexByte("=<>!", e.Value[k]) >= 0 {
			k++
		}
		written := e.Op + e.Value[:k]
		rest := e.Value[k:]
		op := "=="
		if e.Op != "=" {
			op = e.Op
		}
		d := p.Finding(ast.SpanOf(w), "%q is read as %s %s %q, a comparison with the string %q", w.Text, e.Path, op, e.Value, e.Value)
		if meant, ok := plOddOperators[written]; ok && rest != "" {
			fixed := e.Path + meant + rest
			d.Message += "; use " + fixed
			if plPlainWord(p, w) {
				d.Fixes = []source.Fix{{Message: "Use " + meant, Edits: []source.Edit{p.Edit(ast.SpanOf(w), fixed)}}}
			}
		} else {
			d.Message += "; use one of ==, !=, <=, >=, < and >"
		}
		p.Report(d)
	})
}
