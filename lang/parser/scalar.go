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
	next     int    // where reading goes on (after a block scalar's lines)
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
func (d *decoder) fold(src string, trailStart, i int) int {
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
	if empty > 0 {
		d.replace(trailStart, j, strings.Repeat("\n", empty))
	} else {
		d.replace(trailStart, j, " ")
	}
	return j
}

// scanDoubleQuoted scans a double-quoted scalar whose opening quote is at
// start; its lines after the first must be indented by minIndent spaces.
// As in the reference, the scalar ends at the first quote that an even
// number of backslashes precede, whatever the escapes between mean.
func scanDoubleQuoted(src string, start, minIndent int) scalarText {
	d := newDecoder(src)
	end, after, ok := quoteExtent(src, start, minIndent)
	if !ok {
		return unclosedQuote(src, start, d)
	}
	var st scalarText
	i := start + 1
	runStart := i
	for i < end {
		c := src[i]
		switch {
		case c == '\\':
			d.verbatim(src, runStart, i)
			if n := lineBreakAt(src, i+1); n > 0 {
				// An escaped line break joins the lines: it and the next
				// line's leading blanks are dropped (a further empty line
				// folds as usual).
				k := i + 1 + n
				for k < end && isBlank(src[k]) {
					k++
				}
				d.replace(i, k, "")
				i = k
				runStart = i
				continue
			}
			text, n, ok := decodeEscape(src[:end], i+1)
			if !ok {
				// Kept as written, as the reference does; the error stands.
				n = min(n, end-i-1)
				if st.err == "" {
					st.err = "invalid escape sequence \"\\" + src[i+1:i+1+n] + "\" in double-quoted string"
					st.errPos, st.errEnd = i, i+1+n
				}
				d.replace(i, i+1+n, src[i:i+1+n])
			} else {
				d.replace(i, i+1+n, text)
			}
			i += 1 + n
			runStart = i
		case c == '\n' || (c == '\r' && lineBreakAt(src, i) > 0):
			i = d.quotedBreak(src, runStart, i)
			runStart = i
		default:
			i++
		}
	}
	d.verbatim(src, runStart, end)
	st.text, st.tm, st.end = d.String(), d.tm, after
	return st
}

// continuesQuote reports whether a quoted scalar may go on on the line that
// starts at i: the line is empty, or indented by at least minIndent spaces,
// or (at the top level) not a document marker.
func continuesQuote(src string, i, minIndent int) bool {
	if minIndent == 0 {
		return !isDocumentMarker(src, i)
	}
	j := i
	for j < len(src) && src[j] == ' ' {
		j++
	}
	return lineBreakAt(src, j) > 0 || j-i >= minIndent
}

// quotedBreak folds the line break at i inside a quoted scalar whose current
// run of text started at runStart: blanks before the break are dropped, the
// break and the next line's indentation fold. It returns where the text goes
// on. quoteExtent has already decided where the scalar ends, so every line
// break before its end folds: even a document marker or a line indented too
// little is text when the reference's scanner reads the scalar across it (an
// unclosed quote whose text happens to end with a quote character).
func (d *decoder) quotedBreak(src string, runStart, i int) int {
	trail := i
	for trail > runStart && isBlank(src[trail-1]) {
		trail--
	}
	d.verbatim(src, runStart, trail)
	return d.fold(src, trail, i)
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

// scanSingleQuoted scans a single-quoted scalar whose opening quote is at
// start; its lines after the first must be indented by minIndent spaces.
func scanSingleQuoted(src string, start, minIndent int) scalarText {
	d := newDecoder(src)
	end, after, ok := quoteExtent(src, start, minIndent)
	if !ok {
		return unclosedQuote(src, start, d)
	}
	i := start + 1
	runStart := i
	for i < end {
		c := src[i]
		switch {
		case c == '\'' && i+1 < end && src[i+1] == '\'':
			d.verbatim(src, runStart, i)
			d.replace(i, i+2, "'")
			i += 2
			runStart = i
		case c == '\n' || (c == '\r' && lineBreakAt(src, i) > 0):
			i = d.quotedBreak(src, runStart, i)
			runStart = i
		default:
			i++
		}
	}
	d.verbatim(src, runStart, end)
	return scalarText{text: d.String(), tm: d.tm, end: after}
}

// quoteExtent finds, as the reference's scanner does, the text of the
// quoted scalar whose quote is at start: up to its closing quote (for
// double quotes, the first that an even number of backslashes precede;
// for single quotes, the first not doubled), and reports whether it is
// closed. Its text is src[start+1:end]; it ends at after.
//
// Where a line break inside is followed by a line indented less than
// minIndent, or where no quote closes it, the reference cuts the scalar
// (at that line break, or at the end of the text) and misses its closing
// quote, unless the cut text happens to end with the quote character (an
// escaped or doubled one): it then reads that text, an open quote and all.
func quoteExtent(src string, start, minIndent int) (end, after int, ok bool) {
	q := src[start]
	end = -1
	for j := start + 1; j < len(src) && end < 0; j++ {
		if src[j] != q {
			continue
		}
		if q == '\'' {
			if j+1 < len(src) && src[j+1] == '\'' {
				j++
				continue
			}
			end = j
			break
		}
		n := 0
		for src[j-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			end = j
		}
	}
	cut := func(e int) (int, int, bool) {
		if e-1 <= start || src[e-1] != q {
			return 0, 0, false
		}
		if q == '\'' {
			return e - 1, e, true // the last quote is dropped
		}
		return e, e, true // the escaped quote stays
	}
	if end < 0 {
		return cut(len(src))
	}
	for j := start + 1; j < end; j++ {
		if src[j] == '\n' && !continuesQuote(src, j+1, minIndent) {
			e := j
			if e > start+1 && src[e-1] == '\r' {
				e--
			}
			return cut(e)
		}
	}
	return end, end + 1, true
}

// isDocumentMarker reports whether a "---" or "..." marker starts at the line start i.
// As for the reference, a carriage return after it counts even alone.
func isDocumentMarker(src string, i int) bool {
	if i+3 > len(src) || (i > 0 && src[i-1] != '\n') {
		return false
	}
	m := string(src[i : i+3])
	if m != "---" && m != "..." {
		return false
	}
	return i+3 == len(src) || isBlank(src[i+3]) || src[i+3] == '\n' || src[i+3] == '\r'
}

// plainContext tells the plain scalar scanner where it stands.
type plainContext struct {
	flow      bool        // inside [ ] or { }
	minIndent int         // continuation lines must be indented by this many spaces
	indent    *lazyIndent // or by these, when set (computed if the scalar goes on)
	key       bool        // scanning a possible implicit key: one line only
	lineEnd   int         // where the scalar ends on its first line, when known (> 0)
}

// min is the indentation continuation lines need.
func (c plainContext) min() int {
	if c.indent != nil {
		return c.indent.get()
	}
	return c.minIndent
}

// continues is continuesPlain for the line that starts at i. A line
// indented less than the parent's indentation plus one never continues,
// whatever min is: most scalars end so, and min is not computed for them.
func (c plainContext) continues(src string, i int) bool {
	if c.indent == nil || c.indent.parentIndent < 0 {
		return continuesPlain(src, i, c.min())
	}
	j := i
	for j < len(src) && src[j] == ' ' {
		j++
	}
	if j < len(src) && lineBreakAt(src, j) > 0 {
		return true
	}
	return j-i > c.indent.parentIndent && j-i >= c.min()
}

// plainEndOnLine returns where a plain scalar starting at i ends on its line
// (before trailing blanks), following the YAML rules for ": ", " #" and, in
// flow context, flow indicators.
func plainEndOnLine(src string, i int, flow bool) int {
	end := i
	for j := i; j < len(src); j++ {
		switch c := src[j]; c {
		case ' ', '\t':
			continue
		case '\n':
			return end
		case '\r':
			if lineBreakAt(src, j) > 0 {
				return end
			}
		case ':':
			next := byte(' ')
			if j+1 < len(src) {
				next = src[j+1]
			}
			if next == ' ' || next == '\t' || next == '\n' || next == '\r' || (flow && isFlowIndicator(next)) {
				return end
			}
		case '#':
			if j > i && (isBlank(src[j-1]) || src[j-1] == '\r') {
				// After a carriage return that breaks no line the
				// comment is an error, as in the reference.
				return end
			}
		case ',', '[', ']', '{', '}':
			if flow {
				return end
			}
		}
		end = j + 1
	}
	return end
}

func isFlowIndicator(c byte) bool { return c == ',' || c == '[' || c == ']' || c == '{' || c == '}' }

// scanPlain scans a plain scalar starting at i (its first byte is not blank).
// It goes on over lines indented by at least ctx.min() spaces (at the
// top level, up to a document marker); a comment line, a line that starts
// with ": " or, in a flow collection, with a flow indicator ends it.
func scanPlain(src string, i int, ctx plainContext) scalarText {
	d := newDecoder(src)
	lineEnd := ctx.lineEnd
	if lineEnd <= 0 {
		lineEnd = plainEndOnLine(src, i, ctx.flow)
	}
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
		// Find the next line with content; every line on the way must
		// continue the scalar.
		k := j
		ok := true
		for {
			k += lineBreakAt(src, k)
			if !ctx.continues(src, k) {
				ok = false
				break
			}
			for k < len(src) && isBlank(src[k]) {
				k++
			}
			if lineBreakAt(src, k) == 0 {
				break
			}
		}
		if !ok || k >= len(src) || src[k] == '#' {
			break
		}
		if ctx.flow && isFlowIndicator(src[k]) {
			break
		}
		next := plainEndOnLine(src, k, ctx.flow)
		if next == k {
			break
		}
		d.fold(src, end, j)
		d.verbatim(src, k, next)
		end = next
	}
	return scalarText{text: d.String(), tm: d.tm, end: end}
}

// continuesPlain reports whether a plain scalar may go on on the line that
// starts at i, as the reference's scanner decides: the line is empty or
// indented by at least minIndent spaces, or at the top level (minIndent 0)
// not a document marker.
func continuesPlain(src string, i, minIndent int) bool {
	if minIndent == 0 {
		return !isDocumentMarker(src, i)
	}
	j := i
	for j < len(src) && src[j] == ' ' {
		j++
	}
	return j < len(src) && lineBreakAt(src, j) > 0 || j-i >= minIndent
}

func lineStartOf(src string, i int) int {
	for i > 0 && src[i-1] != '\n' {
		i--
	}
	return i
}

// blockHeader is the parsed header of a | or > scalar.
type blockHeader struct {
	folded   bool
	chomp    byte // '-', '+' or 0 for clip
	explicit int  // explicit indentation indicator, 0 if none
	end      int  // offset after the header's indicators
}

// blockLine is one line of a block scalar's body.
type blockLine struct {
	start  int // where the line starts
	spaces int // its leading spaces
	end    int // where its text ends (before "\r\n" or "\n")
	brk    int // the length of its line break (0 on the last line of the text)
}

func (l blockLine) empty() bool { return l.start+l.spaces >= l.end }

// scanBlockScalar scans a literal or folded block scalar whose indicator is
// at start, as the reference reads it. parentIndent is the indentation of
// the collection holding it (-1 for the document's node), from which an
// indentation indicator counts; its lines must be indented more than
// lineIndent (at least parentIndent: more where the indicator's line is
// indented more than the collection, as "  : |" below a key). The scalar's
// text ends at end (its last content line); reading goes on at next, after
// the lines that belong to it.
func scanBlockScalar(src string, start, parentIndent, lineIndent int) (st scalarText, h blockHeader) {
	h.folded = src[start] == '>'
	i := start + 1
	bad := -1
	for i < len(src) && !isBlank(src[i]) && src[i] != '\n' && src[i] != '\r' && src[i] != '#' {
		switch c := src[i]; {
		case (c == '-' || c == '+') && h.chomp == 0:
			h.chomp = c
		case c >= '1' && c <= '9' && h.explicit == 0:
			h.explicit = int(c - '0')
		default:
			if bad < 0 {
				bad = i
			}
		}
		i++
	}
	h.end = i
	if bad >= 0 {
		st.err = "a block scalar header holds only a chomping indicator (- or +) and an indentation digit (1-9)"
		st.errPos, st.errEnd = bad, i
	}
	// The rest of the header line may hold only blanks and a comment.
	j := i
	for j < len(src) && isBlank(src[j]) {
		j++
	}
	if j < len(src) && lineBreakAt(src, j) == 0 && src[j] != '#' && st.err == "" {
		st.err = "unexpected text after a block scalar indicator"
		st.errPos, st.errEnd = j, j+1
	}
	for j < len(src) && lineBreakAt(src, j) == 0 {
		j++
	}
	st.end, st.next = h.end, j
	if j >= len(src) {
		return st, h
	}
	body := j + lineBreakAt(src, j)
	st.next = body

	// The lines that belong to the scalar: from the indentation of the
	// first line with text (or an explicit indicator), every line that is
	// empty or indented that much.
	minIndent := lineIndent + 1
	var buf [16]blockLine
	lines := buf[:0] // the lines that belong to the scalar, as the reference splits them
	// line appends the line that starts at k (its text ends before any
	// line break) and returns where the next one starts.
	line := func(k, e int) int {
		le := e
		for le < len(src) && src[le] != '\n' {
			le++
		}
		end := le
		if end > e && src[end-1] == '\r' {
			end--
		}
		next := le
		if le < len(src) {
			next++
		}
		lines = append(lines, blockLine{start: k, spaces: e - k, end: end, brk: next - end})
		return next
	}
	// The first line with text decides the indentation (unless an
	// indicator gives it); the empty lines before it belong to the scalar.
	detected := 0
	extent := body // the end of the lines that belong to the scalar
	for {
		e := extent
		for e < len(src) && src[e] == ' ' {
			e++
		}
		if lineBreakAt(src, e) > 0 {
			extent = line(extent, e)
			continue
		}
		detected = e - extent
		break
	}
	if detected >= minIndent {
		// Every line empty or indented that much belongs to it.
		indent := detected
		if h.explicit > 0 {
			indent = h.explicit + max(lineIndent, 0)
		}
		for extent < len(src) {
			k := extent
			e := k
			for e < len(src) && src[e] == ' ' {
				e++
			}
			if indent == 0 && isDocumentMarker(src, k) || indent > 0 && lineBreakAt(src, e) == 0 && e-k < indent {
				break
			}
			extent = line(k, e)
		}
	}
	// A tab at the start of the next line is taken into the scalar (where
	// it is less indented than the text): the reference rejects it.
	tab := extent
	for tab < len(src) && src[tab] == ' ' {
		tab++
	}
	if tab < len(src) && src[tab] == '\t' {
		if st.err == "" {
			st.err = "tabs cannot be used for indentation"
			st.errPos, st.errEnd = tab, tab+1
		}
	} else if h.chomp != '+' {
		// Trailing lines of spaces no deeper than the first line with
		// text are not the scalar's (the first line always is).
		for n := len(lines); n > 1 && lines[n-1].empty() && lines[n-1].end-lines[n-1].start <= detected; n-- {
			extent = lines[n-1].start
			lines = lines[:n-1]
		}
	}
	st.next = extent
	if n := len(lines); n > 0 && lines[n-1].brk > 0 {
		// A text ending with a line break splits into one more, empty line.
		lines = append(lines, blockLine{start: extent, end: extent})
	}

	chompStart := len(lines)
	for chompStart > 0 && lines[chompStart-1].empty() {
		chompStart--
	}
	d := newDecoder(src)
	if chompStart == 0 {
		if h.chomp == '+' && len(lines) > 0 {
			d.replace(h.end, h.end, strings.Repeat("\n", max(1, len(lines)-1)))
		}
		st.text, st.tm = d.String(), d.tm
		return st, h
	}
	trim := max(parentIndent, 0) + h.explicit
	contentStart := 0
	var deepest blockLine // the leading empty line indented most
	for li, l := range lines[:chompStart] {
		if l.empty() {
			if h.explicit == 0 && l.spaces > trim {
				trim, deepest = l.spaces, l
			}
			continue
		}
		if l.spaces < trim && st.err == "" {
			// At the spaces of that line beyond the text's indentation.
			st.err = "the leading empty lines of this block scalar are indented more than its text; give the indentation with an indicator such as |2"
			st.errPos, st.errEnd = deepest.start+l.spaces, deepest.start+deepest.spaces
		}
		if h.explicit == 0 {
			trim = l.spaces
		}
		contentStart = li
		if trim == 0 && parentIndent >= 0 && st.err == "" {
			st.err = "a block scalar in a collection must be indented"
			st.errPos, st.errEnd = l.start, l.end
		}
		break
	}
	// Trailing empty lines indented more than the text are text.
	for li := len(lines) - 1; li >= chompStart; li-- {
		if lines[li].spaces > trim {
			chompStart = li + 1
			break
		}
	}
	content := lines[:chompStart]
	d.hint = content[len(content)-1].end - content[0].start + 8
	if len(content) > 1 {
		d.tm.Segs = make([]source.Seg, 0, 2*len(content))
	}
	// put maps a separator (a line break and indentation) to its source.
	put := func(from, to int, text string) {
		if text != "" {
			d.replace(from, to, text)
		}
	}
	// text appends the part of line l after the indentation that is cut.
	text := func(l blockLine) {
		d.verbatim(src, l.start+min(trim, l.spaces), max(l.end, l.start+min(trim, l.spaces)))
	}
	prevEnd := h.end // where the previous line's text ended
	for _, l := range content[:contentStart] {
		text(l)
		put(l.end, l.end+l.brk, "\n")
		prevEnd = l.end + l.brk
	}
	sep := ""
	prevMore := false
	for _, l := range content[contentStart:] {
		if !l.empty() && l.spaces < trim && st.err == "" {
			st.err = "this line of a block scalar is indented less than its first line"
			st.errPos, st.errEnd = l.start, l.end
		}
		from := l.start + min(trim, l.spaces)
		switch {
		case !h.folded:
			put(prevEnd, from, sep)
			text(l)
			sep = "\n"
		case l.spaces > trim || from < l.end && src[from] == '\t':
			switch {
			case sep == " ":
				sep = "\n"
			case !prevMore && sep == "\n":
				sep = "\n\n"
			}
			put(prevEnd, from, sep)
			text(l)
			sep = "\n"
			prevMore = true
		case l.empty():
			if sep == "\n" {
				put(prevEnd, l.end, "\n")
				prevEnd = l.end
				continue
			}
			sep = "\n"
			continue
		default:
			put(prevEnd, from, sep)
			text(l)
			sep = " "
			prevMore = false
		}
		prevEnd = l.end
		st.end = l.end
	}
	switch h.chomp {
	case '-':
	case '+':
		// Kept line breaks have no text of their own: they map to the
		// end of the content, which is where the scalar's range ends.
		tail := ""
		for _, l := range lines[chompStart:] {
			tail += "\n" + src[l.start+min(trim, l.spaces):l.start+l.spaces]
		}
		if !strings.HasSuffix(d.String()+tail, "\n") {
			tail += "\n"
		}
		put(prevEnd, prevEnd, tail)
	default:
		put(prevEnd, prevEnd, "\n")
	}
	st.text, st.tm = d.String(), d.tm
	return st, h
}
