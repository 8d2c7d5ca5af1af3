package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// HyphenInRefPath reports a reference path followed directly by "-" and
// more name characters: $a.json.some-key.
var HyphenInRefPath = &Analyzer{
	Name:     "hyphen-in-ref-path",
	Severity: source.Warning, // "$x.json.name-suffix" can be meant: the value followed by "-suffix"
	Summary:  "a reference path runs into a \"-\": JSON keys with hyphens cannot be reached",
	Doc: `Path segments of ` + "`$id.path`" + ` are ` + "`[A-Za-z0-9_]+`" + `: the match stops at the first
"-". ` + "`$a.json.some-key`" + ` reads ` + "`$a.json.some`" + ` (usually undefined, so empty) and leaves ` + "`-key`" + ` as
literal text. A key with a hyphen cannot be reached by a reference at all: pass the parent object
through ` + "`stdin`" + ` and extract the key with jq. A "-" followed by another reference or by nothing
(` + "`$a.json.name-$b.json.tag`" + `) is not reported.`,
	Bad:  "- id: meta\n  run: cat package.json\n- id: show\n  run: echo \"$meta.json.dev-dependencies\"",
	Good: "- id: meta\n  run: cat package.json\n- id: show\n  run: jq '.[\"dev-dependencies\"]'\n  stdin: $meta.json",
	Run:  runHyphenInRefPath,
}

func runHyphenInRefPath(p *Pass) {
	forEachResolvedStepRef(p.Info, func(rs *RefSite, r *ast.StepRef) bool {
		if rs.Context == InCondition || len(r.Path) < 2 || !refIsStructuredField(r.Path[0].Name) {
			return false
		}
		_, rest, _, ok := refTextAfter(rs)
		return ok && len(rest) >= 2 && rest[0] == '-' && parser.IsWordByte(rest[1])
	}, func(rs *RefSite, r *ast.StepRef, res Resolution) {
		if res.LoopVar && r.Path[0].Name != "json" {
			return
		}
		s, rest, at, _ := refTextAfter(rs)
		n := 1
		for n < len(rest) && (parser.IsWordByte(rest[n]) || rest[n] == '-' || rest[n] == '.' && n+1 < len(rest) && parser.IsWordByte(rest[n+1])) {
			n++
		}
		tail := rest[:n]
		last := r.Path[len(r.Path)-1]
		text := ast.RefText(r)
		parent := text[:len(text)-len(last.Name)-1]
		sp := source.Span{Start: last.Pos(), End: s.Map.End(at + n)}
		p.Report(p.Finding(sp, "reference paths cannot contain \"-\": %q reads %q and leaves %q as literal text; pass %q through stdin and extract the key with jq '.[\"%s%s\"]'",
			text+tail, text, tail, parent, last.Name, refFirstKey(tail)))
	})
}

// refFirstKey is the rest of the hyphenated key in a tail such as "-key.sub".
func refFirstKey(tail string) string {
	for i := 0; i < len(tail); i++ {
		if tail[i] == '.' {
			return tail[:i]
		}
	}
	return tail
}
