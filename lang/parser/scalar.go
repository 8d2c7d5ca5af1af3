package parser

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lobsterdev/lobster/lang/source"
)

// This file scans YAML scalars: it finds where each one ends in the source,
// decodes its value and records the map from decoded bytes back to source
// bytes (source.TextMap). The goccy/go-yaml library reports rune columns and
// drifting offsets and no end positions, so the exact extents are computed
// here from the text, following the YAML 1.2 rules for each style.

// scalarText is the result of scanning one scalar.
type scalarText struct {
	text     string
	tm       source.TextMap
	end      int    // source offset just after the scalar
	err      string // a syntax error, reported at errPos
	errPos   int
	errEnd   int
	unclosed bool
}

// decoder accumulates decoded text and its map. While the text is one
// contiguous run of source bytes (the common case: a plain or quoted scalar
// without escapes or line folds) it is a substring of the source and costs
// no copy.
type decoder struct {
	src      string
	buf      strings.Builder // the text, once it is not one source run
	hint     int             // expected decoded size, for the first allocation
	from, to int             // the source run while buf is nil
	n        int             // decoded length
	tm       source.TextMap
	copied   bool
}

func newDecoder(src string) decoder { return decoder{src: src} }

// materialize switches from the source run to an owned buffer.
func (d *decoder) materialize() {
	if !d.copied {
		d.buf.Grow(max(d.hint, 2*d.n+16))
		d.buf.WriteString(d.src[d.from:d.to])
		d.copied = true
	}
}

func (d *decoder) verbatim(src string, from, to int) {
	if to <= from {
		return
	}
	d.tm.Add(source.Seg{Dec: d.n, DecLen: to - from, Src: from, SrcLen: to - from, Verbatim: true})
	switch {
	case d.copied:
		d.buf.WriteString(src[from:to])
	case d.n == 0:
		d.from, d.to = from, to
	case d.to == from:
		d.to = to
	default:
		d.materialize()
		d.buf.WriteString(src[from:to])
	}
	d.n += to - from
}

func (d *decoder) replace(from, to int, text string) {
	d.tm.Add(source.Seg{Dec: d.n, DecLen: len(text), Src: from, SrcLen: to - from})
	if text == "" {
		return
	}
	d.materialize()
	d.buf.WriteString(text)
	d.n += len(text)
}

// String is the decoded text.
func (d *decoder) String() string {
	if d.copied {
		return d.buf.String() // no copy: the builder's bytes are never written again
	}
	return d.src[d.from:d.to]
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// lineBreakAt returns the length of the line break at i (1 or 2 for \r\n), or 0.
func lineBreakAt(src string, i int) int {
	if i < len(src) {
		switch src[i] {
		case '\n':
			return 1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				return 2
			}
		}
	}
	return 0
}

// fold handles a line break inside a flow scalar (plain or quoted) starting at
// the break at i, after trailing blanks were already excluded by the caller at
// trailStart. It consumes the break, any empty lines and the next line's
// leading blanks, writes ' ' (no empty lines) or one '\n' per empty line, and
// returns the offset of the next line's first non-blank byte.
func (d *decoder) fold(src string, trailStart, i int, escapedBreak bool) int {
	j := i + lineBreakAt(src, i)
	empty := 0
	for {
		k := j
		for k < len(src) && isBlank(src[k]) {
			k++
		}
		if n := lineBreakAt(src, k); n > 0 {
			empty++
			j = k + n
			continue
		}
		j = k
		break
	}
	switch {
	case empty > 0:
		d.replace(trailStart, j, strings.Repeat("\n", empty))
	case escapedBreak:
		d.replace(trailStart, j, "")
	default:
		d.replace(trailStart, j, " ")
	}
	return j
}

// scanDoubleQuoted scans a double-quoted scalar whose opening quote is at start.
func scanDoubleQuoted(src string, start int) scalarText {
	d := newDecoder(src)
	i := start + 1
	runStart := i
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"':
			d.verbatim(src, runStart, i)
			return scalarText{text: d.String(), tm: d.tm, end: i + 1}
		case c == '\\':
			d.verbatim(src, runStart, i)
			if i+1 >= len(src) {
				return unclosedQuote(src, start, d)
			}
			if n := lineBreakAt(src, i+1); n > 0 {
				i = d.fold(src, i, i+1, true)
				runStart = i
				continue
			}
			text, n, ok := decodeEscape(src, i+1)
			if !ok {
				st := scalarText{text: d.String(), tm: d.tm, err: "invalid escape sequence \"\\" + string(src[i+1:i+1+n]) + "\" in double-quoted string", errPos: i, errEnd: i + 1 + n}
				i += 1 + n
				runStart = i
				st.end = i
				// Keep scanning to find the closing quote; the error stands.
				rest := scanDoubleQuoted(src, i-1)
				st.end = rest.end
				return st
			}
			d.replace(i, i+1+n, text)
			i += 1 + n
			runStart = i
		case c == '\n' || (c == '\r' && lineBreakAt(src, i) > 0):
			var ok bool
			if i, ok = d.quotedBreak(src, runStart, i); !ok {
				return unclosedQuote(src, start, d)
			}
			runStart = i
		default:
			i++
		}
	}
	return unclosedQuote(src, start, d)
}

// quotedBreak folds the line break at i inside a quoted scalar whose current
// run of text started at runStart: blanks before the break are dropped, the
// break and the next line's indentation fold. It returns where the text goes
// on, and false when a document marker starts there (the quote never closes).
func (d *decoder) quotedBreak(src string, runStart, i int) (int, bool) {
	trail := i
	for trail > runStart && isBlank(src[trail-1]) {
		trail--
	}
	d.verbatim(src, runStart, trail)
	i = d.fold(src, trail, i, false)
	return i, !isDocumentMarker(src, i)
}

// unclosedQuote reports a quote that never closes. To keep the rest of the
// file readable, the scalar is taken to end at the end of its first line.
func unclosedQuote(src string, start int, d decoder) scalarText {
	end := start
	for end < len(src) && src[end] != '\n' && src[end] != '\r' {
		end++
	}
	text := string(src[start+1 : end])
	return scalarText{
		text: text, tm: source.Verbatim(start+1, len(text)), end: end,
		err: "unterminated quoted string: the closing quote is missing", errPos: start, errEnd: end, unclosed: true,
	}
}

// decodeEscape decodes the escape after a backslash at src[i]; n is the
// number of bytes after the backslash.
func decodeEscape(src string, i int) (text string, n int, ok bool) {
	switch src[i] {
	case '0':
		return "\x00", 1, true
	case 'a':
		return "\a", 1, true
	case 'b':
		return "\b", 1, true
	case 't', '\t':
		return "\t", 1, true
	case 'n':
		return "\n", 1, true
	case 'v':
		return "\v", 1, true
	case 'f':
		return "\f", 1, true
	case 'r':
		return "\r", 1, true
	case 'e':
		return "\x1b", 1, true
	case ' ':
		return " ", 1, true
	case '"':
		return "\"", 1, true
	case '/':
		return "/", 1, true
	case '\\':
		return "\\", 1, true
	case 'N':
		return "\u0085", 1, true
	case '_':
		return "\u00a0", 1, true
	case 'L':
		return "\u2028", 1, true
	case 'P':
		return "\u2029", 1, true
	case 'x':
		return hexEscape(src, i, 2)
	case 'u':
		text, n, ok := hexEscape(src, i, 4)
		// A UTF-16 surrogate pair (JSON's way to write U+10000 and above)
		// is one character, as in JavaScript.
		if ok && i+1+4+6 <= len(src) && src[i+5] == '\\' && src[i+6] == 'u' {
			hi, _ := strconv.ParseUint(src[i+1:i+5], 16, 32)
			lo, err := strconv.ParseUint(src[i+7:i+11], 16, 32)
			if err == nil && hi >= 0xD800 && hi < 0xDC00 && lo >= 0xDC00 && lo < 0xE000 {
				return string(rune((hi-0xD800)<<10 + (lo - 0xDC00) + 0x10000)), 11, true
			}
		}
		return text, n, ok
	case 'U':
		return hexEscape(src, i, 8)
	}
	_, size := utf8.DecodeRuneInString(src[i:])
	return "", size, false
}

func hexEscape(src string, i, digits int) (string, int, bool) {
	if i+1+digits > len(src) {
		return "", len(src) - i, false
	}
	v, err := strconv.ParseUint(string(src[i+1:i+1+digits]), 16, 32)
	if err != nil || v > utf8.MaxRune {
		return "", 1 + digits, false
	}
	return string(rune(v)), 1 + digits, true
}

// scanSingleQuoted scans a single-quoted scalar whose opening quote is at start.
func scanSingleQuoted(src string, start int) scalarText {
	d := newDecoder(src)
	i := start + 1
	runStart := i
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\'':
			if i+1 < len(src) && src[i+1] == '\'' {
				d.verbatim(src, runStart, i)
				d.replace(i, i+2, "'")
				i += 2
				runStart = i
				continue
			}
			d.verbatim(src, runStart, i)
			return scalarText{text: d.String(), tm: d.tm, end: i + 1}
		case c == '\n' || (c == '\r' && lineBreakAt(src, i) > 0):
			var ok bool
			if i, ok = d.quotedBreak(src, runStart, i); !ok {
				return unclosedQuote(src, start, d)
			}
			runStart = i
		default:
			i++
		}
	}
	return unclosedQuote(src, start, d)
}

// isDocumentMarker reports whether a "---" or "..." marker starts at the line start i.
func isDocumentMarker(src string, i int) bool {
	if i+3 > len(src) || (i > 0 && src[i-1] != '\n') {
		return false
	}
	m := string(src[i : i+3])
	if m != "---" && m != "..." {
		return false
	}
	return i+3 == len(src) || isBlank(src[i+3]) || lineBreakAt(src, i+3) > 0
}

// plainContext tells the plain scalar scanner where it stands.
type plainContext struct {
	flow   bool // inside [ ] or { }
	indent int  // continuation lines must be indented more than this (block context)
	key    bool // scanning a possible implicit key: one line only
}

// plainEndOnLine returns where a plain scalar starting at i ends on its line
// (before trailing blanks), following the YAML rules for ": ", " #" and, in
// flow context, flow indicators.
func plainEndOnLine(src string, i int, flow bool) int {
	end := i
	for j := i; j < len(src); j++ {
		c := src[j]
		if c == '\n' || (c == '\r' && lineBreakAt(src, j) > 0) {
			break
		}
		if c == ':' {
			next := byte(' ')
			if j+1 < len(src) {
				next = src[j+1]
			}
			if next == ' ' || next == '\t' || next == '\n' || next == '\r' || (flow && isFlowIndicator(next)) {
				break
			}
		}
		if c == '#' && j > i && isBlank(src[j-1]) {
			break
		}
		if flow && isFlowIndicator(c) {
			break
		}
		if !isBlank(c) {
			end = j + 1
		}
	}
	return end
}

func isFlowIndicator(c byte) bool { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}' }

// scanPlain scans a plain scalar starting at i (its first byte is not blank).
func scanPlain(src string, i int, ctx plainContext) scalarText {
	d := newDecoder(src)
	lineEnd := plainEndOnLine(src, i, ctx.flow)
	d.verbatim(src, i, lineEnd)
	end := lineEnd
	if ctx.key {
		return scalarText{text: d.String(), tm: d.tm, end: end}
	}
	for {
		// Only blanks may follow on this line for the scalar to continue.
		j := end
		for j < len(src) && isBlank(src[j]) {
			j++
		}
		if lineBreakAt(src, j) == 0 {
			break
		}
		// Find the next non-empty line.
		k := j
		for {
			k += lineBreakAt(src, k)
			for k < len(src) && isBlank(src[k]) {
				k++
			}
			if lineBreakAt(src, k) == 0 {
				break
			}
		}
		if k >= len(src) || src[k] == '#' || isDocumentMarker(src, k) {
			break
		}
		if !ctx.flow && indentOf(src, k) <= ctx.indent {
			break
		}
		if ctx.flow && isFlowIndicator(src[k]) {
			break
		}
		next := plainEndOnLine(src, k, ctx.flow)
		if next == k {
			break
		}
		d.fold(src, end, j, false)
		d.verbatim(src, k, next)
		end = next
	}
	return scalarText{text: d.String(), tm: d.tm, end: end}
}

func lineStartOf(src string, i int) int {
	for i > 0 && src[i-1] != '\n' {
		i--
	}
	return i
}

// indentOf is the number of spaces before position i on its line, if only
// blanks precede it there; it is the column of i (0-based) either way.
func indentOf(src string, i int) int { return i - lineStartOf(src, i) }

// blockHeader is the parsed header of a | or > scalar.
type blockHeader struct {
	folded  bool
	chomp   byte // '-', '+' or 0 for clip
	explict int  // explicit indentation indicator, 0 if none
	end     int  // offset after the header's indicators
}

// scanBlockScalar scans a literal or folded block scalar whose indicator is at
// start. parentIndent is the indentation of the collection holding it (-1 at
// the top level).
func scanBlockScalar(src string, start, parentIndent int) (scalarText, blockHeader) {
	h := blockHeader{folded: src[start] == '>'}
	i := start + 1
	var st scalarText
	for i < len(src) {
		c := src[i]
		if (c == '-' || c == '+') && h.chomp == 0 {
			h.chomp = c
		} else if c >= '1' && c <= '9' && h.explict == 0 {
			h.explict = int(c - '0')
		} else {
			break
		}
		i++
	}
	h.end = i
	// The rest of the header line may hold only blanks and a comment.
	j := i
	for j < len(src) && isBlank(src[j]) {
		j++
	}
	if j < len(src) && lineBreakAt(src, j) == 0 && !(src[j] == '#' && j > i) {
		st.err = "unexpected text after a block scalar indicator"
		st.errPos, st.errEnd = j, j+1
	}
	for j < len(src) && lineBreakAt(src, j) == 0 {
		j++
	}
	if j >= len(src) {
		st.end = h.end
		return st, h
	}
	bodyStart := j + lineBreakAt(src, j)

	// Determine the content indentation.
	indent := -1
	if h.explict > 0 {
		base := parentIndent
		if base < 0 {
			base = 0
		}
		indent = base + h.explict
	} else {
		k := bodyStart
		for k < len(src) {
			e := k
			for e < len(src) && src[e] == ' ' {
				e++
			}
			if lineBreakAt(src, e) > 0 {
				k = e + lineBreakAt(src, e)
				continue
			}
			if e < len(src) {
				indent = e - k
			}
			break
		}
		if indent <= parentIndent {
			indent = -1 // no content lines
		}
	}

	d := newDecoder(src)
	type line struct{ start, textStart, end, brk int }
	var lineBuf [16]line
	lines := lineBuf[:0]
	k := bodyStart
	lastContentEnd := h.end
	for k < len(src) {
		e := k
		for e < len(src) && src[e] == ' ' {
			e++
		}
		lineEnd := e
		for lineEnd < len(src) && lineBreakAt(src, lineEnd) == 0 {
			lineEnd++
		}
		brk := lineBreakAt(src, lineEnd)
		emptyLine := e == lineEnd || (lineBreakAt(src, e) > 0)
		if !emptyLine && (indent < 0 || e-k < indent) {
			break
		}
		if isDocumentMarker(src, k) {
			break
		}
		if emptyLine && e-k < indent || indent < 0 {
			lines = append(lines, line{k, min(e, lineEnd), lineEnd, brk})
		} else {
			lines = append(lines, line{k, k + indent, lineEnd, brk})
			if !emptyLine || e-k > indent {
				lastContentEnd = lineEnd
			}
		}
		k = lineEnd + brk
		if brk == 0 {
			break
		}
	}
	// Trailing empty lines are not part of the content (but count for keep).
	n := len(lines)
	for n > 0 && lines[n-1].textStart >= lines[n-1].end {
		n--
	}
	content := lines[:n]
	trailing := lines[n:]

	if len(content) > 0 {
		d.hint = content[len(content)-1].end - content[0].textStart + 8
	}
	if len(content) > 1 {
		// A line, a break, …, a line, and the final break: the map's
		// segments in one allocation (the map is never a one-piece text
		// here, so starting with Segs changes nothing else).
		d.tm.Segs = make([]source.Seg, 0, 2*len(content))
	}
	for li, l := range content {
		moreIndented := l.textStart < l.end && isBlank(src[l.textStart])
		emptyText := l.textStart >= l.end
		d.verbatim(src, l.textStart, l.end)
		if li == len(content)-1 {
			break
		}
		next := content[li+1]
		if !h.folded {
			d.replace(l.end, next.textStart, "\n")
			continue
		}
		// Folding: a break between two normal, non-empty lines becomes a
		// space; empty lines in between become newlines; breaks around
		// more-indented lines are kept.
		nextMore := next.textStart < next.end && isBlank(src[next.textStart])
		nextEmpty := next.textStart >= next.end
		switch {
		case emptyText || moreIndented || nextMore:
			d.replace(l.end, next.textStart, "\n")
		case nextEmpty:
			// A break into a run of empty lines is dropped (each empty
			// line adds a newline) unless the run ends at a
			// more-indented line.
			brk := ""
			for _, m := range content[li+1:] {
				if m.textStart < m.end {
					if isBlank(src[m.textStart]) {
						brk = "\n"
					}
					break
				}
			}
			d.replace(l.end, next.textStart, brk)
		default:
			d.replace(l.end, next.textStart, " ")
		}
	}
	if len(content) > 0 {
		last := content[len(content)-1]
		switch h.chomp {
		case '-':
		case '+':
			// Kept line breaks have no text of their own: they map to
			// the end of the content, which is where the scalar's range
			// ends.
			tail := ""
			if last.brk > 0 {
				tail = "\n"
			}
			for _, t := range trailing {
				if t.brk > 0 {
					tail += "\n"
				}
			}
			d.replace(last.end, last.end, tail)
		default:
			if last.brk > 0 {
				d.replace(last.end, last.end, "\n")
			}
		}
	} else if h.chomp == '+' && len(trailing) > 0 {
		tail := strings.Repeat("\n", len(trailing))
		if trailing[len(trailing)-1].brk == 0 {
			tail = tail[:len(tail)-1]
		}
		d.replace(h.end, h.end, tail)
	}
	st.text = d.String()
	st.tm = d.tm
	st.end = max(lastContentEnd, h.end)
	return st, h
}
