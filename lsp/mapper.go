package lsp

import (
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/lobsterdev/lobster/lang/source"
)

// A Mapper converts between the byte offsets of a file's text and LSP
// positions: a 0-based line and a 0-based character counted in UTF-16 code
// units. This is the only place where UTF-16 appears.
//
// Bytes that are not valid UTF-8 count as one code unit each, as VS Code
// shows them as one replacement character. A line ends before its "\n" (and
// before a "\r" that precedes it).
type Mapper struct {
	File *source.File
}

// Position is the LSP position of a byte offset (clamped to the text).
func (m Mapper) Position(offset int) protocol.Position {
	p := m.File.Pos(offset)
	line := m.File.LineText(p.Line)
	col := min(p.Col-1, len(line))
	return protocol.Position{Line: uint32(p.Line - 1), Character: uint32(utf16Len(line[:col]))}
}

// Range is the LSP range of a byte span.
func (m Mapper) Range(s source.Span) protocol.Range {
	return protocol.Range{Start: m.Position(s.Start), End: m.Position(s.End)}
}

// SourceRange is the LSP range of a source range.
func (m Mapper) SourceRange(r source.Range) protocol.Range {
	return m.Range(r.Span())
}

// Offset is the byte offset of an LSP position, and whether the position
// lies within the text. A line past the end maps to the end of the text, a
// character past the end of its line to the end of the line, and a character
// inside a surrogate pair to the start of its character.
func (m Mapper) Offset(p protocol.Position) (int, bool) {
	n := m.File.LineCount()
	if int(p.Line) >= n {
		return len(m.File.Content), false
	}
	start := m.File.LineStart(int(p.Line) + 1)
	line := m.File.LineText(int(p.Line) + 1)
	want := int(p.Character)
	units := 0
	for i := 0; i < len(line); {
		if units >= want {
			return start + i, true
		}
		r, size := utf8.DecodeRune(line[i:])
		u := 1
		if r >= 0x10000 && size > 1 {
			u = 2
		}
		if units+u > want {
			return start + i, true // inside a surrogate pair
		}
		units += u
		i += size
	}
	return start + len(line), units == want
}

// SpanOf is the byte span of an LSP range (clamped).
func (m Mapper) SpanOf(r protocol.Range) source.Span {
	s, _ := m.Offset(r.Start)
	e, _ := m.Offset(r.End)
	if e < s {
		e = s
	}
	return source.Span{Start: s, End: e}
}

// utf16Len is the number of UTF-16 code units of b.
func utf16Len(b []byte) int {
	n := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x10000 && size > 1 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}
