package parser

import (
	"fmt"
	"strconv"
	"unsafe"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// yamlReader reads the YAML structure of a workflow file into generic nodes
// (*ast.Scalar, *ast.Mapping, *ast.Sequence, *ast.Alias) with exact byte
// ranges, and recovers from syntax errors so that the rest of the file stays
// readable. It covers the YAML that workflow files use: block and flow
// collections, every scalar style, comments, anchors, aliases and tags.
// Explicit keys ("? ") and collections as keys are reported as unsupported.
type yamlReader struct {
	src      string
	file     *source.File
	pos      int
	depth    int
	diags    []source.Diagnostic
	comments []*ast.Comment
	anchors  map[string]ast.Value
	anchored []*ast.Anchor
	used     map[string]bool
	stop     bool // a limit was hit: read no further
	// broken are the spans of text that a syntax error kept from being
	// read as written: the error and what recovery skipped after it.
	broken  []source.Span
	start   int  // where the text starts (after a byte order mark)
	part    bool // reads one part of a sequence for a parent reader
	aliases int  // aliases read

	// The rest of the current blocks of nodes: a file has thousands of
	// scalars, fields and mappings, allocated a block at a time.
	scalars   []ast.Scalar
	fields    []ast.Field
	mappings  []ast.Mapping
	fieldPtrs []*ast.Field // backing for the Fields slices of mappings

	// fieldStack collects the fields of the mappings being read (nested
	// mappings push above their parent's), so that each mapping gets one
	// slice of exactly its size.
	fieldStack []*ast.Field
}

const maxDepth = 64

// props are the node properties written before a node.
type props struct {
	anchor, tag    string
	start          int // offset of the first property, or -1
	anchorStart    int
	anchorNameFrom int
}

func newYAMLReader(file *source.File, start int) *yamlReader {
	return &yamlReader{src: unsafe.String(unsafe.SliceData(file.Content), len(file.Content)), file: file, pos: start, start: start, anchors: map[string]ast.Value{}, used: map[string]bool{}}
}

func (r *yamlReader) rng(a, b int) source.Span {
	return source.Span{Start: a, End: max(a, b)}
}

// newScalar allocates scalars in blocks: a file has thousands of them.
func (r *yamlReader) newScalar() *ast.Scalar { return nextOf(&r.scalars, 64) }

// newField allocates mapping fields in blocks.
func (r *yamlReader) newField() *ast.Field { return nextOf(&r.fields, 64) }

// newMapping allocates mappings in blocks.
func (r *yamlReader) newMapping() *ast.Mapping { return nextOf(&r.mappings, 32) }

// nextOf takes the first value of the block *free, after refilling it with n
// zero values when it is empty.
func nextOf[T any](free *[]T, n int) *T {
	if len(*free) == 0 {
		*free = make([]T, n)
	}
	v := &(*free)[0]
	*free = (*free)[1:]
	return v
}

// fieldSlice copies fields into a slice of exactly their number (nil for
// none), cut from a shared block when they are few.
func (r *yamlReader) fieldSlice(fields []*ast.Field) []*ast.Field {
	n := len(fields)
	switch {
	case n == 0:
		return nil
	case n > 32:
		return append([]*ast.Field(nil), fields...)
	}
	if len(r.fieldPtrs) < n {
		r.fieldPtrs = make([]*ast.Field, 256)
	}
	out := r.fieldPtrs[:n:n]
	r.fieldPtrs = r.fieldPtrs[n:]
	copy(out, fields)
	return out
}

func (r *yamlReader) errorAt(code string, a, b int, format string, args ...any) {
	if b < a {
		b = a
	}
	r.diags = append(r.diags, source.Diagnostic{
		File: r.file.Name, Range: r.file.Range(a, b), Severity: source.Error, Code: code,
		Message: fmt.Sprintf(format, args...),
	})
}

func (r *yamlReader) syntaxError(a, b int, format string, args ...any) {
	r.errorAt("yaml-syntax", a, b, "invalid YAML: "+format, args...)
	r.broken = append(r.broken, r.rng(a, b))
}

// skipped extends the last broken span over text that recovery skipped
// from the line of the error up to pos.
func (r *yamlReader) skipped(from int) {
	if n := len(r.broken); n > 0 && r.broken[n-1].End >= lineStartOf(r.src, from) {
		r.broken[n-1].End = max(r.broken[n-1].End, r.pos)
	}
}

func (r *yamlReader) at(i int) byte {
	if i < 0 || i >= len(r.src) {
		return 0
	}
	return r.src[i]
}

// blankOrEnd reports whether position i is a blank, a line break or the end.
func (r *yamlReader) blankOrEnd(i int) bool {
	return i >= len(r.src) || isBlank(r.src[i]) || lineBreakAt(r.src, i) > 0
}

func (r *yamlReader) atLineEnd(i int) bool { return i >= len(r.src) || lineBreakAt(r.src, i) > 0 }

// skipBlanks skips spaces and tabs on the current line.
func (r *yamlReader) skipBlanks() {
	for r.pos < len(r.src) && isBlank(r.src[r.pos]) {
		r.pos++
	}
}

// skipComment records a comment at pos, if any, and moves to the line end.
func (r *yamlReader) skipComment() {
	if r.at(r.pos) != '#' {
		return
	}
	start := r.pos
	for r.pos < len(r.src) && lineBreakAt(r.src, r.pos) == 0 {
		r.pos++
	}
	end := r.pos
	if end > start && r.src[end-1] == '\r' {
		end--
	}
	if n := len(r.comments); n > 0 && r.comments[n-1].Span.Start >= start {
		return // already recorded: the reader looked ahead past it before
	}
	r.comments = append(r.comments, &ast.Comment{Loc: ast.Loc{Span: r.rng(start, end)}, Text: string(r.src[start:end])})
}

// skipToContent skips blanks, comments and line breaks up to the next content
// byte. It reports whether a line break was crossed and whether the
// indentation of the content's line holds a tab.
func (r *yamlReader) skipToContent() (newLine, tabIndent bool) {
	// onlyBlanks: only blanks precede pos on its line. Computed lazily for
	// the first line: scanning back on every call would be quadratic on
	// long single-line (minified JSON) files.
	onlyBlanks := -1
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		switch {
		case c == ' ':
			r.pos++
		case c == '\t':
			if onlyBlanks < 0 {
				onlyBlanks = 0
				if isBlankPrefix(r.src, r.pos) {
					onlyBlanks = 1
				}
			}
			if onlyBlanks == 1 {
				tabIndent = true
			}
			r.pos++
		case c == '#' && (r.pos <= r.start || isBlank(r.src[r.pos-1]) || r.src[r.pos-1] == '\n'):
			r.skipComment()
		case lineBreakAt(r.src, r.pos) > 0:
			r.pos += lineBreakAt(r.src, r.pos)
			newLine = true
			tabIndent = false
			onlyBlanks = 1
		default:
			return newLine, tabIndent
		}
	}
	return newLine, false
}

func isBlankPrefix(src string, i int) bool {
	for j := lineStartOf(src, i); j < i; j++ {
		if !isBlank(src[j]) {
			return false
		}
	}
	return true
}

func (r *yamlReader) column(i int) int { return i - max(lineStartOf(r.src, i), r.start) }

// isSeqEntry reports whether a block sequence entry indicator "- " is at i.
func (r *yamlReader) isSeqEntry(i int) bool { return r.at(i) == '-' && r.blankOrEnd(i+1) }

// readDocument reads the single document of the file and reports any
// further documents and leftover text.
func (r *yamlReader) readDocument() ast.Value {
	r.skipToContent()
	// Directives end with a "---" marker.
	for r.at(r.pos) == '%' && r.column(r.pos) == 0 {
		for r.pos < len(r.src) && lineBreakAt(r.src, r.pos) == 0 {
			r.pos++
		}
		r.skipToContent()
	}
	if isDocumentMarker(r.src, r.pos) && r.at(r.pos) == '-' {
		r.pos += 3
	}
	doc := r.blockValue(-1, blockCtx{})
	for !r.stop {
		r.skipToContent()
		if r.pos >= len(r.src) {
			break
		}
		if isDocumentMarker(r.src, r.pos) && r.at(r.pos) == '.' {
			r.pos += 3
			continue
		}
		if isDocumentMarker(r.src, r.pos) && r.at(r.pos) == '-' {
			// A second document only counts when it has content.
			start := r.pos
			r.pos += 3
			r.skipToContent()
			if r.pos < len(r.src) {
				r.errorAt("yaml-multi-document", start, start+3,
					"a workflow file holds exactly one YAML document; the reference rejects the file (\"Source contains multiple documents\")")
			}
			break
		}
		// Everything from here on is outside the document: one error, and
		// the rest of the file is not read.
		r.syntaxError(r.pos, r.lineEnd(r.pos), "unexpected content after the document")
		r.pos = len(r.src)
		r.skipped(r.broken[len(r.broken)-1].Start)
		break
	}
	return doc
}

func (r *yamlReader) lineEnd(i int) int {
	for i < len(r.src) && lineBreakAt(r.src, i) == 0 {
		i++
	}
	if i > 0 && i <= len(r.src) && r.at(i-1) == '\r' {
		i--
	}
	return i
}

// skipLine moves past the current line.
func (r *yamlReader) skipLine() {
	from := r.pos
	for r.pos < len(r.src) && lineBreakAt(r.src, r.pos) == 0 {
		r.pos++
	}
	r.skipped(from)
}

// blockCtx tells blockValue where the value stands.
type blockCtx struct {
	inline   bool // the value may start on the indicator's line (after "key:" or "- ")
	fromSeq  bool // after "- ": a compact mapping or sequence may start inline
	keyIndex bool // a mapping value: a sequence may sit at the parent's indentation
	after    int  // offset after the indicator, for empty values
}

// emptyAt is a null scalar with an empty range.
func (r *yamlReader) emptyAt(i int, p props) *ast.Scalar {
	s := r.newScalar()
	*s = ast.Scalar{Kind: ast.Null, Style: ast.Plain, Props: p.props(), Map: source.Verbatim(i, 0)}
	s.Span = r.rng(i, i)
	if p.start >= 0 {
		s.Span = r.rng(p.start, max(i, p.start))
	}
	r.define(p, s)
	return s
}

// blockValue reads the value that follows a mapping key, a sequence entry
// indicator or the document start; parentIndent is the indentation of the
// collection that holds it.
func (r *yamlReader) blockValue(parentIndent int, ctx blockCtx) ast.Value {
	if r.stop {
		return r.emptyAt(ctx.after, props{start: -1})
	}
	r.depth++
	defer func() { r.depth-- }()
	if r.depth > maxDepth {
		r.errorAt("limit-exceeded", r.pos, r.pos, "nesting is deeper than %d levels; the file is not read further", maxDepth)
		r.stop = true
		r.pos = len(r.src)
		return r.emptyAt(ctx.after, props{start: -1})
	}
	p := props{start: -1}
	inline := ctx.inline
	for {
		r.skipBlanks()
		if r.at(r.pos) == '#' && (r.pos == 0 || isBlank(r.src[r.pos-1])) {
			r.skipComment()
		}
		if r.atLineEnd(r.pos) {
			save := r.pos
			_, tab := r.skipToContent()
			col := r.column(r.pos)
			if r.pos >= len(r.src) || isDocumentMarker(r.src, r.pos) ||
				col < parentIndent+1 && !(ctx.keyIndex && col == parentIndent && r.isSeqEntry(r.pos)) {
				r.pos = save
				return r.emptyAt(ctx.after, p)
			}
			if tab {
				r.syntaxError(lineStartOf(r.src, r.pos), r.pos, "tabs cannot be used for indentation")
			}
			inline = false
		}
		c := r.at(r.pos)
		if c == '&' || c == '!' {
			r.readProperty(&p)
			continue
		}
		break
	}
	start := r.pos
	col := r.column(start)
	c := r.at(start)
	var v ast.Value
	switch {
	case r.isSeqEntry(start):
		if inline && !ctx.fromSeq {
			r.syntaxError(start, start+1, "a block sequence cannot start on the same line as its key")
		}
		v = r.blockSequence(col, p)
	case c == '[' || c == '{':
		v = r.flowCollection(p)
		if r.isImplicitKeyAhead() {
			r.syntaxError(start, r.pos, "collections cannot be used as mapping keys")
			r.skipLine()
		}
	case c == '|' || c == '>':
		st, h := scanBlockScalar(r.src, start, parentIndent)
		if st.err != "" {
			r.syntaxError(st.errPos, st.errEnd, "%s", st.err)
		}
		// A comment after the header ("run: | # note") is a real comment.
		r.pos = h.end
		r.skipBlanks()
		if r.at(r.pos) == '#' && r.pos > h.end {
			r.skipComment()
		}
		style := ast.LiteralBlock
		if c == '>' {
			style = ast.FoldedBlock
		}
		s := r.scalar(p, start, st.end, ast.String, style, st.text, st.tm)
		r.pos = st.end
		r.skipLineRest(start)
		v = s
	case c == '*':
		v = r.alias(p)
		if r.isImplicitKeyAhead() {
			r.syntaxError(start, r.pos, "aliases cannot be used as mapping keys here")
			r.skipLine()
		}
	case c == '?' && r.blankOrEnd(start+1):
		r.syntaxError(start, start+1, "explicit mapping keys (\"? \") are not supported in workflow files")
		r.skipBlock(col)
		v = r.emptyAt(start, p)
	default:
		if key, ok := r.implicitKey(); ok {
			if inline && !ctx.fromSeq {
				r.syntaxError(key.colon, key.colon+1, "mapping values are not allowed here; quote the value if it contains \": \"")
				v = r.scalarFromText(p, start, key)
				r.pos = key.end
				r.skipLine()
				break
			}
			v = r.blockMapping(col, p)
			break
		}
		v = r.flowOrPlainScalar(p, plainContext{indent: parentIndent})
		r.skipLineRest(start)
	}
	return v
}

// skipLineRest checks that only blanks and a comment follow a node on its line.
func (r *yamlReader) skipLineRest(nodeStart int) {
	r.skipBlanks()
	if r.at(r.pos) == '#' {
		r.skipComment()
		return
	}
	if r.atLineEnd(r.pos) {
		return
	}
	start := r.pos
	end := r.lineEnd(start)
	if r.at(start) == ':' {
		r.syntaxError(start, start+1, "mapping values are not allowed here; quote the value if it contains \": \"")
	} else {
		r.syntaxError(start, end, "unexpected text after the value")
	}
	r.pos = end
	r.skipped(start)
}

// skipBlock skips the current line and the lines indented more than indent.
func (r *yamlReader) skipBlock(indent int) {
	from := r.pos
	r.skipLine()
	for r.pos < len(r.src) {
		save := r.pos
		r.skipToContent()
		if r.pos >= len(r.src) || r.column(r.pos) <= indent {
			r.pos = save
			break
		}
		r.skipLine()
	}
	r.skipped(from)
}

// readProperty reads an anchor (&name) or a tag (!tag) at pos.
func (r *yamlReader) readProperty(p *props) {
	start := r.pos
	if p.start < 0 {
		p.start = start
	}
	r.pos++
	for r.pos < len(r.src) && !r.blankOrEnd(r.pos) && !isFlowIndicator(r.src[r.pos]) {
		r.pos++
	}
	name := string(r.src[start+1 : r.pos])
	if r.src[start] == '&' {
		if name == "" {
			r.syntaxError(start, r.pos, "an anchor needs a name")
		}
		p.anchor, p.anchorStart, p.anchorNameFrom = name, start, start+1
	} else {
		p.tag = "!" + name
	}
}

// props returns the scalar properties, or nil when there are none.
func (p props) props() *ast.Props {
	if p.tag == "" && p.anchor == "" {
		return nil
	}
	return &ast.Props{Tag: p.tag, Anchor: p.anchor}
}

// define registers an anchored node.
func (r *yamlReader) define(p props, v ast.Value) {
	if p.anchor != "" {
		r.anchors[p.anchor] = v
		a := &ast.Anchor{Name: p.anchor, NameSpan: r.rng(p.anchorNameFrom, p.anchorNameFrom+len(p.anchor)), Value: v}
		a.Span = ast.SpanOf(v)
		r.anchored = append(r.anchored, a)
	}
}

// alias reads an alias (*name) at pos.
func (r *yamlReader) alias(p props) ast.Value {
	start := r.pos
	r.pos++
	for r.pos < len(r.src) && !r.blankOrEnd(r.pos) && !isFlowIndicator(r.src[r.pos]) {
		r.pos++
	}
	name := string(r.src[start+1 : r.pos])
	r.aliases++
	a := &ast.Alias{Name: name, Target: r.anchors[name]}
	a.Span = r.rng(start, r.pos)
	if p.start >= 0 {
		r.syntaxError(p.start, start, "an alias cannot have an anchor or a tag")
	}
	if a.Target == nil {
		r.errorAt("yaml-undefined-alias", start, r.pos, "alias %q refers to no anchor defined before it", "*"+name)
	} else {
		r.used[name] = true
	}
	return a
}

// keyScan is a scanned implicit key.
type keyScan struct {
	st    scalarText
	style ast.Style
	end   int // offset after the key text
	colon int // offset of the ':'
}

// implicitKey looks for an implicit mapping key at pos ("key:" followed by a
// blank or the line end) without moving.
func (r *yamlReader) implicitKey() (keyScan, bool) {
	start := r.pos
	var k keyScan
	switch r.at(start) {
	case '"':
		k.st, k.style = scanDoubleQuoted(r.src, start), ast.DoubleQuoted
	case '\'':
		k.st, k.style = scanSingleQuoted(r.src, start), ast.SingleQuoted
	default:
		if !canStartPlain(r.src, start, false) {
			return k, false
		}
		k.st, k.style = scanPlain(r.src, start, plainContext{key: true}), ast.Plain
	}
	k.end = k.st.end
	i := k.end
	if k.st.unclosed {
		return k, false
	}
	// A quoted key must end on its line.
	if k.style != ast.Plain && lineOf(r.src, start) != lineOf(r.src, i) {
		return k, false
	}
	for i < len(r.src) && isBlank(r.src[i]) {
		i++
	}
	if r.at(i) == ':' && r.blankOrEnd(i+1) {
		k.colon = i
		return k, true
	}
	return k, false
}

func lineOf(src string, i int) int { return lineStartOf(src, i) }

// isImplicitKeyAhead reports whether ": " follows on the current line.
func (r *yamlReader) isImplicitKeyAhead() bool {
	i := r.pos
	for i < len(r.src) && isBlank(r.src[i]) {
		i++
	}
	return r.at(i) == ':' && r.blankOrEnd(i+1)
}

// canStartPlain reports whether a plain scalar can start at i.
func canStartPlain(src string, i int, flow bool) bool {
	if i >= len(src) {
		return false
	}
	c := src[i]
	switch c {
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case '-', '?', ':':
		next := byte(' ')
		if i+1 < len(src) {
			next = src[i+1]
		}
		return !(next == ' ' || next == '\t' || next == '\n' || next == '\r' || (flow && isFlowIndicator(next)))
	}
	return !isBlank(c) && lineBreakAt(src, i) == 0
}

// scalarFromText builds a scalar node from a scanned key.
func (r *yamlReader) scalarFromText(p props, start int, k keyScan) *ast.Scalar {
	return r.scalar(p, start, k.end, ast.String, k.style, k.st.text, k.st.tm)
}

// scalar builds a scalar node; a plain scalar's kind is resolved here.
func (r *yamlReader) scalar(p props, start, end int, kind ast.ScalarKind, style ast.Style, text string, tm source.TextMap) *ast.Scalar {
	if len(tm.Segments()) == 0 {
		// An empty text maps to where its content would start.
		content := start
		if style == ast.SingleQuoted || style == ast.DoubleQuoted {
			content++
		}
		tm = source.Verbatim(min(content, end), 0)
	}
	s := r.newScalar()
	*s = ast.Scalar{Style: style, Text: text, Map: tm, Props: p.props()}
	if style == ast.Plain {
		resolvePlain(s)
	} else {
		s.Kind = kind
	}
	applyTag(s)
	from := start
	if p.start >= 0 && p.start < start {
		from = p.start
	}
	s.Span = r.rng(from, end)
	r.define(p, s)
	return s
}

// blockMapping reads a block mapping whose keys sit at column indent.
func (r *yamlReader) blockMapping(indent int, p props) *ast.Mapping {
	m := r.newMapping()
	m.Anchor = p.anchor
	start := r.pos
	if p.start >= 0 {
		start = p.start
	}
	var seen map[string]*ast.Field
	end := r.pos
	base := len(r.fieldStack)
	defer func() {
		m.Fields = r.fieldSlice(r.fieldStack[base:])
		clear(r.fieldStack[base:])
		r.fieldStack = r.fieldStack[:base]
	}()
	for !r.stop {
		keyStart := r.pos
		k, ok := r.implicitKey()
		if !ok {
			msg := "expected a mapping key followed by \":\""
			if k.st.unclosed {
				msg = k.st.err
			} else if r.isSeqEntry(keyStart) {
				msg = "a sequence entry cannot appear among mapping keys at the same indentation"
			}
			r.syntaxError(keyStart, r.lineEnd(keyStart), "%s", msg)
			r.skipBlock(indent)
		} else {
			key := r.scalarFromText(props{start: -1}, keyStart, k)
			key.Kind = ast.String // keys are compared as strings
			r.checkMergeKey(key)
			r.pos = k.colon + 1
			val := r.blockValue(indent, blockCtx{inline: true, keyIndex: true, after: k.colon + 1})
			pair := r.newField()
			pair.Key, pair.Value = key, val
			pairEnd := max(val.End(), k.colon+1)
			pair.Span = r.rng(keyStart, pairEnd)
			r.checkDuplicate(r.fieldStack[base:], key, &seen)
			r.fieldStack = append(r.fieldStack, pair)
			end = max(end, pairEnd)
		}
		if !r.nextEntry(indent, false) {
			break
		}
	}
	m.Span = r.rng(start, max(end, start))
	r.define(p, m)
	return m
}

// blockSequence reads a block sequence whose "-" indicators sit at column indent.
func (r *yamlReader) blockSequence(indent int, p props) *ast.Sequence {
	s := &ast.Sequence{Anchor: p.anchor}
	start := r.pos
	if p.start >= 0 {
		start = p.start
	}
	end := r.pos
	if !r.readItemsInParallel(indent, s) {
		r.readItems(indent, s)
	}
	for _, it := range s.Items {
		end = max(end, it.End())
	}
	s.Span = r.rng(start, max(end, start))
	r.define(p, s)
	return s
}

// readItems reads the entries of a block sequence whose "-" indicators sit at
// column indent, starting at the first one.
func (r *yamlReader) readItems(indent int, s *ast.Sequence) {
	for !r.stop {
		dash := r.pos
		r.pos++
		item := r.blockValue(indent, blockCtx{inline: true, fromSeq: true, after: dash + 1})
		s.Items = append(s.Items, item)
		if !r.nextEntry(indent, true) {
			return
		}
	}
}

// nextEntry moves to the next entry of the block collection at column indent:
// a "- " entry of a sequence (seq) or a key of a mapping. It reports lines
// indented too deep and skips them. On false the collection has ended and
// pos is back after its last entry.
func (r *yamlReader) nextEntry(indent int, seq bool) bool {
	save := r.pos
	_, tab := r.skipToContent()
	if r.pos >= len(r.src) || isDocumentMarker(r.src, r.pos) {
		r.pos = save
		return false
	}
	col := r.column(r.pos)
	if col < indent || (col == indent && r.isSeqEntry(r.pos) != seq) {
		r.pos = save
		return false
	}
	if tab {
		r.syntaxError(lineStartOf(r.src, r.pos), r.pos, "tabs cannot be used for indentation")
	}
	if col > indent {
		what := "a key"
		if seq {
			what = "\"- \""
		}
		r.syntaxError(r.pos, r.lineEnd(r.pos), "unexpected indentation: expected %s at column %d", what, indent+1)
		r.skipBlock(indent)
		save = r.pos
		r.skipToContent()
		if r.pos >= len(r.src) || r.column(r.pos) != indent || r.isSeqEntry(r.pos) != seq {
			r.pos = save
			return false
		}
	}
	return true
}

// flowOrPlainScalar reads a quoted or plain scalar at pos.
func (r *yamlReader) flowOrPlainScalar(p props, ctx plainContext) ast.Value {
	start := r.pos
	var st scalarText
	style := ast.Plain
	switch r.at(start) {
	case '"':
		st, style = scanDoubleQuoted(r.src, start), ast.DoubleQuoted
	case '\'':
		st, style = scanSingleQuoted(r.src, start), ast.SingleQuoted
	default:
		if start >= len(r.src) {
			return r.emptyAt(start, p)
		}
		if !canStartPlain(r.src, start, ctx.flow) {
			end := start + 1
			r.syntaxError(start, end, "unexpected character %q", string(r.src[start]))
			r.pos = end
			return r.emptyAt(start, p)
		}
		st = scanPlain(r.src, start, ctx)
	}
	if st.err != "" {
		r.syntaxError(st.errPos, st.errEnd, "%s", st.err)
	}
	r.pos = st.end
	return r.scalar(p, start, st.end, ast.String, style, st.text, st.tm)
}

// flowCollection reads a [ ] or { } collection at pos.
func (r *yamlReader) flowCollection(p props) ast.Value {
	r.depth++
	defer func() { r.depth-- }()
	open := r.pos
	if r.depth > maxDepth {
		r.errorAt("limit-exceeded", open, open+1, "nesting is deeper than %d levels; the file is not read further", maxDepth)
		r.stop = true
		r.pos = len(r.src)
		return r.emptyAt(open, p)
	}
	isMap := r.src[open] == '{'
	closer := byte(']')
	if isMap {
		closer = '}'
	}
	start := open
	if p.start >= 0 {
		start = p.start
	}
	var m *ast.Mapping
	var s *ast.Sequence
	if isMap {
		m = &ast.Mapping{Flow: true, Anchor: p.anchor}
	} else {
		s = &ast.Sequence{Flow: true, Anchor: p.anchor}
	}
	var seen map[string]*ast.Field
	r.pos++
	end := -1
	for !r.stop {
		r.skipToContent()
		if r.pos >= len(r.src) {
			what := "sequence"
			if isMap {
				what = "mapping"
			}
			r.syntaxError(open, open+1, "flow %s is not closed: missing %q", what, string(closer))
			end = r.pos
			break
		}
		c := r.src[r.pos]
		if c == closer {
			r.pos++
			end = r.pos
			break
		}
		if c == ']' || c == '}' {
			r.syntaxError(r.pos, r.pos+1, "unexpected %q: expected %q", string(c), string(closer))
			r.pos++
			continue
		}
		if c == ',' {
			r.syntaxError(r.pos, r.pos+1, "unexpected \",\": an entry is missing")
			r.pos++
			continue
		}
		entryStart := r.pos
		key := r.flowNode()
		r.skipToContent()
		var val ast.Value
		colon := -1
		if r.at(r.pos) == ':' {
			colon = r.pos
			r.pos++
			r.skipToContent()
			if r.at(r.pos) == ',' || r.at(r.pos) == closer {
				val = r.emptyAt(colon+1, props{start: -1})
			} else {
				val = r.flowNode()
			}
		}
		switch {
		case isMap:
			if val == nil {
				val = r.emptyAt(key.End(), props{start: -1})
			}
			pair := r.flowPair(key, val, entryStart)
			r.checkDuplicate(m.Fields, pair.Key, &seen)
			m.Fields = append(m.Fields, pair)
		case colon >= 0:
			single := &ast.Mapping{Flow: true}
			single.Fields = []*ast.Field{r.flowPair(key, val, entryStart)}
			single.Span = single.Fields[0].Span
			s.Items = append(s.Items, single)
		default:
			s.Items = append(s.Items, key)
		}
		r.skipToContent()
		switch r.at(r.pos) {
		case ',':
			r.pos++
		case closer:
		default:
			if r.pos >= len(r.src) {
				continue
			}
			r.syntaxError(r.pos, r.pos+1, "expected \",\" or %q", string(closer))
			// Skip to the next separator to recover.
			for r.pos < len(r.src) && r.src[r.pos] != ',' && r.src[r.pos] != closer && lineBreakAt(r.src, r.pos) == 0 {
				r.pos++
			}
		}
	}
	if end < 0 {
		end = r.pos
	}
	if isMap {
		m.Span = r.rng(start, end)
		r.define(p, m)
		return m
	}
	s.Span = r.rng(start, end)
	r.define(p, s)
	return s
}

// flowPair builds a pair of a flow mapping; non-scalar keys are reported.
func (r *yamlReader) flowPair(key, val ast.Value, start int) *ast.Field {
	k, ok := key.(*ast.Scalar)
	if !ok {
		// The structure is read as written: nothing is broken.
		r.errorAt("yaml-syntax", key.Pos(), key.End(), "invalid YAML: only scalars can be mapping keys in workflow files")
		k = &ast.Scalar{Kind: ast.String, Text: r.file.TextOf(ast.SpanOf(key))}
		k.Span = ast.SpanOf(key)
	}
	k.Kind = ast.String
	r.checkMergeKey(k)
	pair := &ast.Field{Key: k, Value: val}
	pair.Span = r.rng(start, max(val.End(), k.End()))
	return pair
}

// flowNode reads one node inside a flow collection.
func (r *yamlReader) flowNode() ast.Value {
	p := props{start: -1}
	for r.at(r.pos) == '&' || r.at(r.pos) == '!' {
		r.readProperty(&p)
		r.skipToContent()
	}
	switch c := r.at(r.pos); {
	case c == '[' || c == '{':
		return r.flowCollection(p)
	case c == '*':
		return r.alias(p)
	case c == ',' || c == ']' || c == '}' || c == ':' && r.blankOrEnd(r.pos+1):
		return r.emptyAt(r.pos, p)
	}
	return r.flowOrPlainScalar(p, plainContext{flow: true, indent: -1})
}

// resolvePlain sets the kind of a plain scalar under the YAML 1.2 core schema.
func resolvePlain(s *ast.Scalar) {
	t := s.Text
	switch t {
	case "", "~", "null", "Null", "NULL":
		s.Kind = ast.Null
		return
	case "true", "True", "TRUE":
		s.Kind, s.Bool = ast.Bool, true
		return
	case "false", "False", "FALSE":
		s.Kind, s.Bool = ast.Bool, false
		return
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF":
		s.Kind, s.Num = ast.Float, posInf
		return
	case "-.inf", "-.Inf", "-.INF":
		s.Kind, s.Num = ast.Float, -posInf
		return
	case ".nan", ".NaN", ".NAN":
		s.Kind, s.Num = ast.Float, nan
		return
	}
	if v, ok := coreInt(t); ok {
		s.Kind, s.Num = ast.Int, v
		return
	}
	if isCoreFloat(t) {
		if v, err := strconv.ParseFloat(t, 64); err == nil || isRangeErr(err) {
			s.Kind, s.Num = ast.Float, v
			return
		}
	}
	s.Kind = ast.String
}

// applyTag applies the standard tags that change a scalar's kind.
func applyTag(s *ast.Scalar) {
	switch s.Tag() {
	case "":
	case "!!str", "!":
		s.Kind = ast.String
	case "!!null":
		s.Kind = ast.Null
	case "!!bool":
		if s.Kind != ast.Bool {
			s.Kind = ast.String
		}
	case "!!int", "!!float":
		if v, err := strconv.ParseFloat(s.Text, 64); err == nil {
			s.Kind, s.Num = ast.Float, v
			if s.Tag() == "!!int" {
				s.Kind = ast.Int
			}
		}
	}
}

// checkMergeKey reports a "<<" merge key: the reference reads YAML 1.2, where
// "<<" is an ordinary key that it then ignores, so the merged fields are
// silently missing.
func (r *yamlReader) checkMergeKey(k *ast.Scalar) {
	if k.Style == ast.Plain && k.Text == "<<" {
		r.errorAt("yaml-merge-key", k.Span.Start, k.Span.End,
			"YAML merge keys are not supported: \"<<\" is an ordinary key that the reference ignores, so the merged fields are missing; write the fields out")
	}
}

// checkDuplicate reports key when an earlier pair has the same key. Small
// mappings (steps have a handful of keys) are searched directly; a map index
// is built only for large ones.
func (r *yamlReader) checkDuplicate(pairs []*ast.Field, key *ast.Scalar, index *map[string]*ast.Field) {
	var first *ast.Field
	if len(pairs) < 16 {
		for _, p := range pairs {
			if p.Key.Text == key.Text {
				first = p
				break
			}
		}
	} else {
		if *index == nil {
			*index = make(map[string]*ast.Field, 2*len(pairs))
			for i := len(pairs) - 1; i >= 0; i-- {
				(*index)[pairs[i].Key.Text] = pairs[i]
			}
		}
		first = (*index)[key.Text]
	}
	if first == nil {
		if *index != nil {
			(*index)[key.Text] = &ast.Field{Key: key}
		}
		return
	}
	r.diags = append(r.diags, source.Diagnostic{
		File: r.file.Name, Range: r.file.RangeOf(key.Span), Severity: source.Error, Code: "yaml-duplicate-key",
		Message: fmt.Sprintf("duplicate key %q; the reference rejects the file (\"Map keys must be unique\")", key.Text),
		Related: []source.Related{{File: r.file.Name, Range: r.file.RangeOf(first.Key.Span), Message: "first defined here"}},
	})
}
