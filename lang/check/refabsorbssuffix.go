package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// RefAbsorbsSuffix reports $a.json.gz: a file extension written after a
// reference is read as one more path segment.
var RefAbsorbsSuffix = &Analyzer{
	Name:     "ref-absorbs-suffix",
	Severity: source.Info,
	Summary:  "a file extension after a reference is read as part of its path",
	Doc: `The path of ` + "`$id.path`" + ` is matched greedily: in ` + "`cp \"$a.json.name.gz\" backup/`" + ` the
reference is ` + "`$a.json.name.gz`" + `, which looks up a key ` + "`gz`" + ` (usually undefined, so empty), not
` + "`$a.json.name`" + ` followed by the text ` + "`.gz`" + `. End the reference before the dot: put the value in an
env variable (` + "`env: {NAME: $a.json.name}`" + ` and ` + "`\"$NAME.gz\"`" + `) or close the quote first
(` + "`\"$a.json.name\".gz`" + `). A suffix after ` + "`.stdout`" + ` is always empty and is reported by
` + "`field-not-produced`" + `.`,
	Bad:  "- id: pack\n  run: ./pack.sh\n- id: keep\n  run: cp \"$pack.json.name.gz\" backup/",
	Good: "- id: pack\n  run: ./pack.sh\n- id: keep\n  run: cp \"$NAME.gz\" backup/\n  env:\n    NAME: $pack.json.name",
	Run:  runRefAbsorbsSuffix,
}

func runRefAbsorbsSuffix(p *Pass) {
	forEachResolvedStepRef(p.Info, func(rs *RefSite, r *ast.StepRef) bool {
		n := len(r.Path)
		return rs.Context != InCondition && n >= 2 && refIsStructuredField(r.Path[0].Name) && refIsFileExtension(r.Path[n-1].Name)
	}, func(rs *RefSite, r *ast.StepRef, res Resolution) {
		n := len(r.Path)
		if rs.Context == InCondition || n < 2 || !refIsStructuredField(r.Path[0].Name) || !refIsFileExtension(r.Path[n-1].Name) {
			return
		}
		if res.LoopVar && r.Path[0].Name != "json" {
			return
		}
		last := r.Path[n-1]
		text := ast.RefText(r)
		sp := source.Span{Start: r.Path[n-2].End(), End: last.End()}
		p.Reportf(sp, "%q is read as part of the reference path (%q looks up a key %q), not as literal text after %q",
			"."+last.Name, text, last.Name, text[:len(text)-len(last.Name)-1])
	})
}
