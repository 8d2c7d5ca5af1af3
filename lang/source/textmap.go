package source

import "sort"

// A TextMap maps byte offsets in a decoded string (the value of a YAML or JSON
// scalar, after quotes, escapes, folding and indentation are removed) back to
// byte offsets in the source. Tokens of the embedded languages (step
// references, conditions, pipelines, shell) are found in the decoded text and
// reported at the source bytes that spell them.
//
// The map is a list of segments in order. A verbatim segment copies source
// bytes one to one; any other segment (an escape such as \u00e9, a line fold,
// an indentation strip) maps as a whole: a range that starts inside it starts
// at its first source byte and a range that ends inside it ends after its last.
//
// A text copied in one piece from the source (most scalars) is stored
// without a segment list: only where it starts.
type TextMap struct {
	Segs []Seg // nil for a one-piece verbatim text

	base   int32 // the text is verbatim from base for n bytes, when inline
	n      int32
	inline bool
}

// Seg is one segment of a TextMap.
type Seg struct {
	Dec, DecLen int // decoded bytes [Dec, Dec+DecLen)
	Src, SrcLen int // source bytes [Src, Src+SrcLen)
	Verbatim    bool
}

// Add appends a segment, merging adjacent verbatim ones.
func (m *TextMap) Add(s Seg) {
	if s.DecLen == 0 && s.SrcLen == 0 {
		return
	}
	if m.Segs == nil {
		switch {
		case !m.inline && s.Verbatim && s.Dec == 0:
			m.inline, m.base, m.n = true, int32(s.Src), int32(s.DecLen)
			return
		case m.inline && s.Verbatim && s.Dec == int(m.n) && s.Src == int(m.base+m.n):
			m.n += int32(s.DecLen)
			return
		case m.inline:
			m.Segs = append(make([]Seg, 0, 4), Seg{Dec: 0, DecLen: int(m.n), Src: int(m.base), SrcLen: int(m.n), Verbatim: true})
			m.inline = false
		}
	}
	if n := len(m.Segs); n > 0 && s.Verbatim {
		last := &m.Segs[n-1]
		if last.Verbatim && last.Dec+last.DecLen == s.Dec && last.Src+last.SrcLen == s.Src {
			last.DecLen += s.DecLen
			last.SrcLen += s.SrcLen
			return
		}
	}
	m.Segs = append(m.Segs, s)
}

// Verbatim returns a map for text copied one to one from src.
func Verbatim(src, n int) TextMap {
	return TextMap{inline: true, base: int32(src), n: int32(n)}
}

// IsZero reports whether the map has no segment (the zero TextMap).
func (m *TextMap) IsZero() bool { return len(m.Segs) == 0 && !m.inline }

// Segments lists the segments (a one-piece text yields one).
func (m *TextMap) Segments() []Seg {
	if m.Segs == nil && m.inline {
		return []Seg{{Dec: 0, DecLen: int(m.n), Src: int(m.base), SrcLen: int(m.n), Verbatim: true}}
	}
	return m.Segs
}

// VerbatimAt reports whether decoded [i, j) lies inside one verbatim segment,
// and if so the source offset of decoded byte i.
func (m *TextMap) VerbatimAt(i, j int) (int, bool) {
	if i < 0 || j < i {
		return 0, false
	}
	if m.Segs == nil {
		return int(m.base) + i, m.inline && j <= int(m.n)
	}
	k := sort.Search(len(m.Segs), func(k int) bool { return m.Segs[k].Dec+m.Segs[k].DecLen > i })
	if k == len(m.Segs) {
		return 0, false
	}
	s := m.Segs[k]
	if !s.Verbatim || i < s.Dec || j > s.Dec+s.DecLen {
		return 0, false
	}
	return s.Src + i - s.Dec, true
}

// Start is the source offset where decoded byte i starts.
func (m *TextMap) Start(i int) int {
	if m.Segs == nil {
		return int(m.base) + min(max(i, 0), int(m.n))
	}
	if len(m.Segs) == 0 {
		return 0
	}
	k := sort.Search(len(m.Segs), func(k int) bool { return m.Segs[k].Dec+m.Segs[k].DecLen > i })
	if k == len(m.Segs) {
		last := m.Segs[len(m.Segs)-1]
		return last.Src + last.SrcLen
	}
	s := m.Segs[k]
	if i < s.Dec {
		return s.Src
	}
	if s.Verbatim {
		return s.Src + i - s.Dec
	}
	return s.Src
}

// End is the source offset just after decoded byte i-1, that is, where a
// range ending at decoded offset i ends.
func (m *TextMap) End(i int) int {
	if m.Segs == nil {
		return int(m.base) + min(max(i, 0), int(m.n))
	}
	if len(m.Segs) == 0 {
		return 0
	}
	k := sort.Search(len(m.Segs), func(k int) bool { return m.Segs[k].Dec+m.Segs[k].DecLen >= i })
	if k == len(m.Segs) {
		last := m.Segs[len(m.Segs)-1]
		return last.Src + last.SrcLen
	}
	s := m.Segs[k]
	if i <= s.Dec {
		return s.Src
	}
	if s.Verbatim {
		return s.Src + i - s.Dec
	}
	return s.Src + s.SrcLen
}

// Span maps the decoded byte range [i, j) to a source span.
func (m *TextMap) Span(i, j int) Span {
	if j <= i {
		o := m.Start(i)
		return Span{Start: o, End: o}
	}
	return Span{Start: m.Start(i), End: m.End(j)}
}

// Source is the decoded range [i, j) as source byte offsets.
func (m *TextMap) Source(i, j int) (start, end int) {
	if j <= i {
		o := m.Start(i)
		return o, o
	}
	return m.Start(i), m.End(j)
}
