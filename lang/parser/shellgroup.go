package parser

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// Shell texts are parsed in groups: the shell parser allocates two blocks of
// nodes for every text it parses, however short, which made it most of the
// memory a check uses. A group's texts are joined with newlines and parsed
// once. The result is the same as parsing each text alone when the joined
// text parses and no top-level statement crosses from one text into the next
// (a text ending inside a quote, a pipeline or an if would): each text is then
// a run of complete statements, read from the parser's initial state. Texts
// with heredocs (whose bodies follow the line that opens them) are parsed
// alone, and so is every text of a group that fails the check.

// shellGroupSize is how many texts are parsed together.
const shellGroupSize = 32

// shellGrouping can be turned off by tests, to compare with texts parsed alone.
var shellGrouping = true

// parseShellGroup parses the shell texts of group into their nodes, and
// fills recs (parallel to group; nil when not recording) for a Cache.
func parseShellGroup(f *source.File, group []*ast.Shell, recs []shellResult) {
	if !shellGrouping || len(group) < 2 || !parseJoined(f, group, recs) {
		for i, sh := range group {
			var rec *shellResult
			if recs != nil {
				rec = &recs[i]
			}
			*sh = *parseShellRecord(f, sh.Scalar, rec)
		}
	}
}

// parseJoined parses the texts of group as one text and reports whether the
// result could be split back; on false the nodes are left as they were.
func parseJoined(f *source.File, group []*ast.Shell, recs []shellResult) bool {
	type part struct {
		base  int
		refs  []ast.Ref
		spans []refSpan
	}
	parts := make([]part, len(group))
	size := 0
	for _, sh := range group {
		text := sh.Scalar.Text
		if strings.Contains(text, "<<") {
			return false
		}
		size += len(text) + 1
	}
	joined := make([]byte, 0, size)
	for i, sh := range group {
		text := sh.Scalar.Text
		p := &parts[i]
		p.base = len(joined)
		p.refs = shellRefSpans(f, sh.Scalar, &p.spans)
		joined = append(joined, text...)
		masked := joined[p.base:]
		for _, sp := range p.spans {
			for k := sp.i; k < sp.j && k < len(masked); k++ {
				masked[k] = 'x'
			}
		}
		joined = append(joined, '\n')
	}
	text := string(joined)
	sc := shellPool.Get().(*shellScratch)
	defer sc.release()
	sc.toks = sc.toks[:0]
	sc.sr.Reset(text)
	file, err := sc.parser.Parse(&sc.sr, "")
	if err != nil {
		return false
	}
	partOf := func(off int) int {
		i, found := slices.BinarySearchFunc(parts, off, func(p part, off int) int { return p.base - off })
		if !found {
			i--
		}
		return i
	}
	for _, st := range file.Stmts {
		if partOf(int(st.Pos().Offset())) != partOf(int(st.End().Offset())-1) {
			return false
		}
	}
	sc.text = text
	syntax.Walk(file, sc.visit)
	toks := sc.toks
	slices.SortStableFunc(toks, func(a, b shellTok) int { return a.start - b.start })
	k := 0
	// The variables of all the texts, cut from two blocks.
	store := make([]ast.ShellVar, len(toks))
	ptrs := make([]*ast.ShellVar, len(toks))
	for i, sh := range group {
		p := parts[i]
		end := p.base + len(sh.Scalar.Text)
		from := k
		for k < len(toks) && toks[k].start < end {
			k++
		}
		mine := toks[from:k:k] // the scratch tokens are not used again
		for j := range mine {
			mine[j].start -= p.base
			mine[j].end -= p.base
			mine[j].nameStart -= p.base
			mine[j].nameEnd -= p.base
		}
		if recs != nil {
			record(&recs[i], mine, nil)
		}
		s := sh.Scalar
		n := len(mine)
		vars := shellVarsIn(f, s, mine, p.spans, store[:n:n], ptrs[:n:n])
		store, ptrs = store[n:], ptrs[n:]
		*sh = ast.Shell{Loc: s.Loc, Scalar: s, Refs: p.refs, Vars: vars}
	}
	return true
}
