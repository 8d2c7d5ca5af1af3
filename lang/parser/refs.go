package parser

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file scans the Lobster references of a template string:
//
//	${name}         an *ast.ArgRef;    name = [A-Za-z0-9_-]+
//	${id.seg.seg}   an *ast.BracedRef; id and seg = [A-Za-z0-9_-]+ (not Lobster
//	                syntax: the user meant $id.seg; the checker reports it)
//	$id.path        an *ast.StepRef;   id = [A-Za-z0-9_-]+, path = one or more
//	                segments [A-Za-z0-9_]+ joined by '.', matched greedily
//
// The three forms are disjoint: a step reference never starts with "${", and
// an arg name contains no '.'. The text is scanned left to right like the
// reference's regular expressions: after a match the scan resumes after it,
// after a '$' that starts no reference it resumes at the next byte. There is
// no escaping ("$$" is two dollars).
//
// The scanner is hand-written and allocates only the nodes it returns: it
// runs over every template string of every file.

// refSpan is the decoded byte range [i, j) of one reference.
type refSpan struct{ i, j int }

// scanRefs finds the Lobster references in the decoded text of a template
// string scalar, in source order.
func scanRefs(f *source.File, s *ast.Scalar) []ast.Ref {
	return scanRefSpans(f, s, nil)
}

// parseTemplate wraps scanRefs: Template{Loc: s.Loc, Scalar: s, Refs: ...}.
func parseTemplate(f *source.File, s *ast.Scalar) *ast.Template {
	t := &ast.Template{}
	fillTemplate(t, f, s, nil)
	return t
}

// fillTemplate sets the zero template t to what parseTemplate returns, with
// the references' nodes taken from a (nil: allocated one by one).
func fillTemplate(t *ast.Template, f *source.File, s *ast.Scalar, a *refBlocks) {
	t.Scalar = s
	if s != nil {
		t.Loc = s.Loc
		t.Refs = scanRefSpansIn(f, s, nil, a)
	}
}

// refBlocks hands out reference nodes and slices from blocks, for a builder
// that scans thousands of templates.
type refBlocks struct {
	refs  []ast.Ref
	steps []stepRefBlock
}

// refSlice returns an empty slice with room for n references.
func (a *refBlocks) refSlice(n int) []ast.Ref {
	if a == nil || n > 16 {
		return make([]ast.Ref, 0, n)
	}
	if len(a.refs) < n {
		a.refs = make([]ast.Ref, 128)
	}
	out := a.refs[:0:n]
	a.refs = a.refs[n:]
	return out
}

// stepRef returns a zero stepRefBlock.
func (a *refBlocks) stepRef() *stepRefBlock {
	if a == nil {
		return &stepRefBlock{}
	}
	return nextOf(&a.steps, 32)
}

// scanRefSpans is scanRefs that also appends the decoded range of each
// reference to *spans when spans is not nil.
func scanRefSpans(f *source.File, s *ast.Scalar, spans *[]refSpan) []ast.Ref {
	return scanRefSpansIn(f, s, spans, nil)
}

// scanRefSpansIn is scanRefSpans with the nodes taken from a (nil:
// allocated one by one).
func scanRefSpansIn(f *source.File, s *ast.Scalar, spans *[]refSpan, a *refBlocks) []ast.Ref {
	if f == nil || s == nil {
		return nil
	}
	text := s.Text
	var refs []ast.Ref
	for i := 0; i < len(text); {
		k := strings.IndexByte(text[i:], '$')
		if k < 0 {
			break
		}
		i += k
		ref, end := refAt(f, s, i, a)
		if ref == nil {
			i++
			continue
		}
		if refs == nil {
			// Every reference starts with a '$': one allocation suffices.
			refs = a.refSlice(strings.Count(text[i:], "$"))
		}
		refs = append(refs, ref)
		if spans != nil {
			*spans = append(*spans, refSpan{i, end})
		}
		i = end
	}
	return refs
}

// refKind is the form of a matched reference.
type refKind uint8

const (
	refNone   refKind = iota
	refArg            // ${name}
	refBraced         // ${id.seg…}
	refStep           // $id.path
)

// refMatch is the shape of one reference matched at a '$'.
type refMatch struct {
	kind  refKind
	idEnd int // end of the name or id
	end   int // end of the reference
	n     int // path segments; 0 for an arg
}

// matchRef matches the reference that starts with the '$' at text[i], if
// any. It is the grammar of references; refAt and ScanText build on it.
func matchRef(text string, i int) refMatch {
	if i+1 < len(text) && text[i+1] == '{' {
		idStart := i + 2
		idEnd := refScanWhile(text, idStart, refID)
		if idEnd == idStart || idEnd >= len(text) {
			return refMatch{}
		}
		if text[idEnd] == '}' {
			return refMatch{kind: refArg, idEnd: idEnd, end: idEnd + 1}
		}
		if text[idEnd] != '.' {
			return refMatch{}
		}
		pathEnd, n := refScanPath(text, idEnd, refID)
		if n == 0 || pathEnd >= len(text) || text[pathEnd] != '}' {
			return refMatch{}
		}
		return refMatch{kind: refBraced, idEnd: idEnd, end: pathEnd + 1, n: n}
	}
	idEnd := refScanWhile(text, i+1, refID)
	if idEnd == i+1 || idEnd >= len(text) || text[idEnd] != '.' {
		return refMatch{}
	}
	end, n := refScanPath(text, idEnd, refSeg)
	if n == 0 {
		return refMatch{}
	}
	return refMatch{kind: refStep, idEnd: idEnd, end: end, n: n}
}

// refAt builds the reference that starts with the '$' at decoded offset i, and
// returns it with its decoded end; it returns nil when none starts there.
func refAt(f *source.File, s *ast.Scalar, i int, a *refBlocks) (ast.Ref, int) {
	text := s.Text
	m := matchRef(text, i)
	switch m.kind {
	case refArg:
		rg := newSpanRanger(f, s, i, m.end)
		return &ast.ArgRef{
			Loc:      ast.Loc{Span: rg.rng(i, m.end)},
			Name:     text[i+2 : m.idEnd],
			NameSpan: rg.rng(i+2, m.idEnd),
		}, m.end
	case refBraced:
		rg := newSpanRanger(f, s, i, m.end)
		return &ast.BracedRef{
			Loc:    ast.Loc{Span: rg.rng(i, m.end)},
			ID:     text[i+2 : m.idEnd],
			IDSpan: rg.rng(i+2, m.idEnd),
			Path:   refFillPath(&rg, m.idEnd, m.end-1, make([]ast.Ident, m.n), make([]*ast.Ident, 0, m.n)),
		}, m.end
	case refStep:
		rg := newSpanRanger(f, s, i, m.end)
		blk := a.stepRef()
		ref := &blk.ref
		ref.Loc = ast.Loc{Span: rg.rng(i, m.end)}
		ref.ID = text[i+1 : m.idEnd]
		ref.IDSpan = rg.rng(i+1, m.idEnd)
		if m.n <= len(blk.ids) {
			ref.Path = refFillPath(&rg, m.idEnd, m.end, blk.ids[:m.n], blk.ptrs[:0:m.n])
		} else {
			ref.Path = refFillPath(&rg, m.idEnd, m.end, make([]ast.Ident, m.n), make([]*ast.Ident, 0, m.n))
		}
		return ref, m.end
	}
	return nil, 0
}

// stepRefBlock holds a step reference with a short path in one allocation:
// most paths have one or two segments ($a.stdout, $a.json.field).
type stepRefBlock struct {
	ref  ast.StepRef
	ids  [2]ast.Ident
	ptrs [2]*ast.Ident
}

// refScanPath matches greedily, from the '.' at i, segments of bytes of the
// class, each after a '.'. It returns the end of the last whole segment and
// the number of segments; a '.' not followed by a segment byte is not part of
// it.
func refScanPath(text string, i int, class uint8) (end, n int) {
	end = i
	for end < len(text) && text[end] == '.' {
		j := refScanWhile(text, end+1, class)
		if j == end+1 {
			break
		}
		end = j
		n++
	}
	return end, n
}

// refFillPath fills store with the path segments found by refScanPath in the
// decoded text[i:end], which starts with a '.', and appends pointers to them
// to path, which it returns.
func refFillPath(rg *spanRanger, i, end int, store []ast.Ident, path []*ast.Ident) []*ast.Ident {
	text := rg.s.Text
	for k := 0; k < len(store) && i < end; k++ {
		start := i + 1 // skip the '.'
		j := strings.IndexByte(text[start:end], '.')
		if j < 0 {
			j = end
		} else {
			j += start
		}
		id := &store[k]
		id.Loc = ast.Loc{Span: rg.rng(start, j)}
		id.Name = text[start:j]
		path = append(path, id)
		i = j
	}
	return path
}

// spanRanger maps decoded ranges within one token [i, j) of a scalar's text
// to source spans. When the token lies inside one verbatim segment of the
// map, which is the common case, every offset is computed from the token's
// start instead of searching the map again.
type spanRanger struct {
	s    *ast.Scalar
	i    int // decoded start of the token
	base int // source offset of decoded offset i, when fast
	fast bool
}

// newSpanRanger prepares the ranges of the token [i, j).
func newSpanRanger(f *source.File, s *ast.Scalar, i, j int) spanRanger {
	rg := spanRanger{s: s, i: i}
	if j > len(s.Text) {
		return rg
	}
	src, ok := s.Map.VerbatimAt(i, j)
	if !ok || src < 0 || src+j-i > len(f.Content) {
		return rg
	}
	rg.base = src
	rg.fast = true
	return rg
}

// rng is the source range of the decoded range [a, b) of the token.
func (rg *spanRanger) rng(a, b int) source.Span {
	if !rg.fast {
		return rg.s.Map.Span(a, b)
	}
	b = max(a, b)
	return source.Span{Start: rg.base + a - rg.i, End: rg.base + b - rg.i}
}

// Byte classes of reference names, as bits of refClass.
const (
	refSeg uint8 = 1 << iota // [A-Za-z0-9_]: a step reference path segment
	refID                    // [A-Za-z0-9_-]: a step id, an arg name, a braced segment
)

// refClass holds the classes of each byte.
var refClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		b := byte(c)
		if 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || b == '_' {
			t[c] = refSeg | refID
		}
	}
	t['-'] = refID
	return t
}()

// IsNameByte reports whether c may stand in a step id or an arg name that a
// reference names: [A-Za-z0-9_-].
func IsNameByte(c byte) bool { return refClass[c]&refID != 0 }

// IsWordByte reports whether c may stand in a path segment of a step
// reference, or in a shell variable name: [A-Za-z0-9_].
func IsWordByte(c byte) bool { return refClass[c]&refSeg != 0 }

// IsRefName reports whether a name can be written in $id.path and ${name}:
// one or more bytes of [A-Za-z0-9_-].
func IsRefName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !IsNameByte(name[i]) {
			return false
		}
	}
	return true
}

// refScanWhile returns the first offset at or after i whose byte is not of
// the class.
func refScanWhile(text string, i int, class uint8) int {
	for i < len(text) && refClass[text[i]]&class != 0 {
		i++
	}
	return i
}
