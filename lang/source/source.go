// Package source holds what every other package of the toolchain shares about
// a workflow file's text: positions, ranges, the map from a decoded YAML
// string back to its source bytes, and diagnostics.
//
// Positions are byte based: an offset counts bytes from the start of the file,
// lines are 1-based and columns are 1-based byte columns. UTF-16 exists only at
// the LSP edge.
package source

import (
	"fmt"
	"sort"
)

// Pos is a position in a file. The zero value means "no position".
type Pos struct {
	Offset int `json:"offset"` // byte offset from the start of the file, 0-based
	Line   int `json:"line"`   // 1-based line
	Col    int `json:"col"`    // 1-based byte column
}

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as "line:col".
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Range is a half-open byte range [Start, End).
type Range struct {
	Start Pos `json:"start"`
	End   Pos `json:"end"`
}

// IsValid reports whether r has a start position.
func (r Range) IsValid() bool { return r.Start.IsValid() }

// Len is the number of bytes in r.
func (r Range) Len() int { return r.End.Offset - r.Start.Offset }

// Contains reports whether the byte offset lies within r (half-open).
func (r Range) Contains(offset int) bool {
	return r.Start.Offset <= offset && offset < r.End.Offset
}

// Covers reports whether inner lies entirely within r.
func (r Range) Covers(inner Range) bool {
	return r.Start.Offset <= inner.Start.Offset && inner.End.Offset <= r.End.Offset
}

// String formats r as "line:col-line:col".
func (r Range) String() string { return r.Start.String() + "-" + r.End.String() }

// Span is a half-open byte range [Start, End) of a file. Syntax tree nodes
// keep spans; a File turns one into a Range with lines and columns.
type Span struct {
	Start, End int
}

// Len is the number of bytes in s.
func (s Span) Len() int { return s.End - s.Start }

// Contains reports whether the byte offset lies within s (half-open).
func (s Span) Contains(offset int) bool { return s.Start <= offset && offset < s.End }

// Covers reports whether inner lies entirely within s.
func (s Span) Covers(inner Span) bool { return s.Start <= inner.Start && inner.End <= s.End }

// Span is the byte range of r.
func (r Range) Span() Span { return Span{Start: r.Start.Offset, End: r.End.Offset} }

// File is the text of one workflow file with its line table.
type File struct {
	Name    string
	Content []byte
	lines   []int // byte offset of the start of each line
}

// NewFile builds the line table of content.
func NewFile(name string, content []byte) *File {
	lines := make([]int, 1, len(content)/24+1)
	for i, c := range content {
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	return &File{Name: name, Content: content, lines: lines}
}

// LineCount is the number of lines (a final line without a newline counts).
func (f *File) LineCount() int { return len(f.lines) }

// Pos converts a byte offset to a position. Offsets are clamped to the file.
func (f *File) Pos(offset int) Pos {
	if offset < 0 {
		offset = 0
	}
	if offset > len(f.Content) {
		offset = len(f.Content)
	}
	i := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > offset }) - 1
	return Pos{Offset: offset, Line: i + 1, Col: offset - f.lines[i] + 1}
}

// Range converts a half-open byte range to a Range.
func (f *File) Range(start, end int) Range {
	if end < start {
		end = start
	}
	s := f.Pos(start)
	return Range{Start: s, End: f.posFrom(s, end)}
}

// RangeOf converts a span to a Range.
func (f *File) RangeOf(s Span) Range { return f.Range(s.Start, s.End) }

// TextOf is the source text of a span.
func (f *File) TextOf(s Span) string {
	if s.Start < 0 || s.End > len(f.Content) || s.Start > s.End {
		return ""
	}
	return string(f.Content[s.Start:s.End])
}

// posFrom converts offset, which is at or after from, without a binary search
// when both lie on the same line: ranges are mostly short.
func (f *File) posFrom(from Pos, offset int) Pos {
	if offset > len(f.Content) {
		offset = len(f.Content)
	}
	next := len(f.Content) + 1
	if from.Line < len(f.lines) {
		next = f.lines[from.Line]
	}
	if offset < next {
		return Pos{Offset: offset, Line: from.Line, Col: from.Col + offset - from.Offset}
	}
	return f.Pos(offset)
}

// LineStart is the byte offset where the 1-based line starts.
func (f *File) LineStart(line int) int {
	if line < 1 {
		return 0
	}
	if line > len(f.lines) {
		return len(f.Content)
	}
	return f.lines[line-1]
}

// LineText is the text of the 1-based line, without its line ending.
func (f *File) LineText(line int) []byte {
	if line < 1 || line > len(f.lines) {
		return nil
	}
	start := f.lines[line-1]
	end := len(f.Content)
	if line < len(f.lines) {
		end = f.lines[line] - 1
	}
	if end > start && f.Content[end-1] == '\r' {
		end--
	}
	return f.Content[start:end]
}

// Text is the source text of r.
func (f *File) Text(r Range) string {
	if r.Start.Offset < 0 || r.End.Offset > len(f.Content) || r.Start.Offset > r.End.Offset {
		return ""
	}
	return string(f.Content[r.Start.Offset:r.End.Offset])
}
