package parser

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// yamlReader reads the YAML structure of a workflow file into generic nodes
// (*ast.Scalar, *ast.Mapping, *ast.Sequence, *ast.Alias) with exact byte
// ranges, and recovers from syntax errors so that the rest of the file stays
// readable. It accepts and rejects what the reference's YAML library (npm
// `yaml` 2.9, `YAML.parse`) accepts and rejects, and reads the same values:
// the yaml-test-suite and a differential fuzz test hold it to that.
//
// Indentation follows the library's notion: a line's indentation is its
// leading spaces, and the "- ", "? " and ": " indicators that open a compact
// collection count as indentation for what follows them on the line.
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
	broken []source.Span

	flowContent int // where the content of the last flow node read starts, after its properties
	start       int // where the text starts (after a byte order mark)
	aliases     int // aliases read

	tagPrefixes map[string]string       // the %TAG directives, or nil
	yaml11      bool                    // a %YAML 1.1 directive: YAML 1.1 scalars
	aliasUses   map[ast.Value]*aliasUse // per anchored node, for the alias limit
	aliasLimit  bool                    // the alias limit was reported
	flowEnded   bool                    // the open flow collections end here (an error)
	flowCut     bool                    // the last outermost flow collection ended so
	inFlow      int                     // the flow collections being read
	inAnchored  []anchoring             // the anchors of the collections being read
	// selfAliases are the aliases of a node read inside that node: an
	// error unless they end up in a key, which the reference names by
	// the alias ("*a") instead of building a circular value.
	selfAliases []*ast.Alias

	// key is the plain implicit key found at keyAt by blockValue, which
	// mapEntry then takes instead of scanning it again (-1: none).
	key   keyScan
	keyAt int

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
	end            int // offset after the last property
	anchorStart    int
	anchorNameFrom int
	tagStart       int
}

func noProps() props { return props{start: -1} }

func newYAMLReader(file *source.File, start int) *yamlReader {
	return &yamlReader{src: string(file.Content), file: file, pos: start, start: start, anchors: map[string]ast.Value{}, used: map[string]bool{}, keyAt: -1}
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
	d := source.Diagnostic{
		File: r.file.Name, Range: r.file.Range(a, b), Severity: source.Error, Code: code,
		Message: fmt.Sprintf(format, args...),
	}
	if n := len(r.diags); n > 0 && r.diags[n-1].Range == d.Range && r.diags[n-1].Code == d.Code && r.diags[n-1].Message == d.Message {
		return // found again by a second look at the same text
	}
	r.diags = append(r.diags, d)
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

// blankOrEnd reports whether position i is a blank, a line break or the
// end. As for the reference, a carriage return counts even alone (where it
// does not break the line).
func (r *yamlReader) blankOrEnd(i int) bool {
	return i >= len(r.src) || isBlank(r.src[i]) || r.src[i] == '\n' || r.src[i] == '\r'
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

// commentAt reads a comment that starts at pos; one that touches the text
// before it is an error.
func (r *yamlReader) commentAt() {
	if r.pos > r.start && !isBlank(r.src[r.pos-1]) && r.src[r.pos-1] != '\n' {
		msg := "a comment needs a space before \"#\""
		if r.src[r.pos-1] == '\r' {
			msg += " (a carriage return that ends no line is none)"
		}
		r.syntaxError(r.pos, r.pos+1, "%s", msg)
	}
	r.skipComment()
}

// skipToContent skips blanks, comments and line breaks up to the next content
// byte. It reports whether a line break was crossed.
func (r *yamlReader) skipToContent() (newLine bool) {
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		switch {
		case c == ' ' || c == '\t':
			r.pos++
		case c == '#':
			r.commentAt()
		case c == '\n':
			r.pos++
			newLine = true
		case c == '\r' && r.pos+1 < len(r.src) && r.src[r.pos+1] == '\n':
			r.pos += 2
			newLine = true
		default:
			return newLine
		}
	}
	return newLine
}

// lineIndent describes the indentation of the line holding offset i, whose
// line holds only blanks before i: its leading spaces (what counts as
// indentation) and whether a tab follows them.
func (r *yamlReader) lineIndent(i int) (spaces int, tab bool) {
	ls := max(lineStartOf(r.src, i), r.start)
	j := ls
	for j < i && r.src[j] == ' ' {
		j++
	}
	return j - ls, j < i && r.src[j] == '\t'
}

func (r *yamlReader) column(i int) int { return i - max(lineStartOf(r.src, i), r.start) }

// isSeqEntry reports whether a block sequence entry indicator "- " is at i.
func (r *yamlReader) isSeqEntry(i int) bool { return r.at(i) == '-' && r.blankOrEnd(i+1) }

// isIndicator reports whether the block indicator c ("-", "?" or ":")
// followed by a blank or the line end is at i.
func (r *yamlReader) isIndicator(i int, c byte) bool { return r.at(i) == c && r.blankOrEnd(i+1) }

func (r *yamlReader) lineEnd(i int) int {
	for i < len(r.src) && lineBreakAt(r.src, i) == 0 {
		i++
	}
	if i == len(r.src) && i > 0 && r.at(i-1) == '\r' {
		i-- // a carriage return ending the text (before a line break it is text)
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

// readDocument reads the single document of the file and reports any
// further documents and leftover text.
func (r *yamlReader) readDocument() ast.Value {
	r.skipToContent()
	directives := -1
	for r.pos < len(r.src) && r.src[r.pos] == '%' && r.column(r.pos) == 0 {
		if directives < 0 {
			directives = r.pos
		}
		r.directive()
		r.skipToContent()
	}
	var doc ast.Value
	if isDocumentMarker(r.src, r.pos) && r.src[r.pos] == '-' {
		r.pos += 3
		doc = r.blockValue(-1, blockCtx{kind: inDocument, inline: true, after: r.pos})
	} else {
		if directives >= 0 {
			r.syntaxError(directives, r.lineEnd(directives), "directives must be followed by a \"---\" line")
		}
		if isDocumentMarker(r.src, r.pos) {
			// A "..." line before any content ends an empty document.
			doc = r.emptyAt(r.pos, noProps())
		} else {
			after := r.pos
			r.pos = max(lineStartOf(r.src, r.pos), r.start) // its indentation is checked for tabs
			doc = r.blockValue(-1, blockCtx{kind: inDocument, after: after})
		}
	}
	r.reportSelfAliases()
	r.afterDocument()
	return doc
}

// afterDocument checks what follows the document: comments, "..." lines and
// directives after a "..." are fine; a second document is reported once, at
// its start.
func (r *yamlReader) afterDocument() {
	ended := false
	for !r.stop {
		r.skipToContent()
		if r.pos >= len(r.src) {
			return
		}
		switch {
		case ended && r.src[r.pos] == '%' && r.column(r.pos) == 0:
			r.directive()
			continue
		case isDocumentMarker(r.src, r.pos) && r.src[r.pos] == '.' && !ended:
			r.pos += 3
			ended = true
			r.skipBlanks()
			if r.at(r.pos) == '#' {
				r.commentAt()
			} else if !r.atLineEnd(r.pos) {
				r.syntaxError(r.pos, r.lineEnd(r.pos), "unexpected text after \"...\"")
				r.skipLine()
			}
			continue
		case ended || isDocumentMarker(r.src, r.pos):
			r.errorAt("yaml-multi-document", r.pos, max(r.pos+1, min(r.pos+3, r.lineEnd(r.pos))),
				"a workflow file holds exactly one YAML document; the reference rejects the file (\"Source contains multiple documents\")")
			r.pos = len(r.src)
			return
		}
		// Everything from here on is outside the document: one error, and
		// the rest of the file is not read.
		r.syntaxError(r.pos, r.lineEnd(r.pos), "unexpected content after the document")
		r.pos = len(r.src)
		r.skipped(r.broken[len(r.broken)-1].Start)
	}
}

// valueKind says what a block value follows.
type valueKind uint8

const (
	inDocument    valueKind = iota // the document's node
	afterKey                       // "key:": no compact collection on the key's line
	afterEntry                     // "- "
	afterQuestion                  // "? " (an explicit key)
	afterColon                     // ": " after an explicit key
)

// blockCtx tells blockValue where the value stands.
type blockCtx struct {
	kind   valueKind
	inline bool // the value may start on the indicator's line
	after  int  // offset after the indicator, for empty values
}

// emptyAt is a null scalar with an empty range.
func (r *yamlReader) emptyAt(i int, p props) *ast.Scalar {
	s := r.newScalar()
	*s = ast.Scalar{Kind: ast.Null, Style: ast.Plain, Props: p.props(), Map: source.Verbatim(i, 0)}
	s.Span = r.rng(i, i)
	if p.start >= 0 {
		s.Span = r.rng(p.start, max(i, p.start))
	}
	r.resolveScalar(s, p)
	r.define(p, s)
	return s
}

// mergeProps adds the properties on the node's line to those before it: a
// node has at most one anchor and one tag.
func (r *yamlReader) mergeProps(p *props, line props) {
	if line.start < 0 {
		return
	}
	if p.start < 0 {
		*p = line
		return
	}
	if line.anchor != "" || line.anchorStart > 0 && line.anchor == "" && line.anchorNameFrom > 0 {
		if p.anchor != "" || p.anchorNameFrom > 0 {
			r.syntaxError(line.anchorStart, line.anchorNameFrom+len(line.anchor), "a node can have at most one anchor")
		}
		p.anchor, p.anchorStart, p.anchorNameFrom = line.anchor, line.anchorStart, line.anchorNameFrom
	}
	if line.tag != "" {
		if p.tag != "" {
			r.syntaxError(line.tagStart, line.tagStart+len(line.tag), "a node can have at most one tag")
		}
		p.tag, p.tagStart = line.tag, line.tagStart
	}
	p.end = line.end
}

// blockValue reads the value that follows a mapping key, a sequence entry
// indicator or the document start; parentIndent is the indentation of the
// collection that holds it (-1 for the document).
func (r *yamlReader) blockValue(parentIndent int, ctx blockCtx) ast.Value {
	if r.stop {
		return r.emptyAt(ctx.after, noProps())
	}
	r.depth++
	defer func() { r.depth-- }()
	if r.depth > maxDepth {
		r.errorAt("limit-exceeded", r.pos, r.pos, "nesting is deeper than %d levels; the file is not read further", maxDepth)
		r.stop = true
		r.pos = len(r.src)
		return r.emptyAt(ctx.after, noProps())
	}
	p := noProps()    // properties of the node
	line := noProps() // properties on the line being read
	inline := ctx.inline
	// As the reference checks tabs: a tab in the blanks before a property
	// is an error where only indentation may stand (after a line break,
	// "- " or "? "), a tab before the content where the line is not
	// indented more than the parent, or before a block collection.
	atNewline := !ctx.inline || ctx.kind == afterEntry || ctx.kind == afterQuestion
	tab, tabCol := -1, 0 // a tab before the next token, the column its blanks start at
	docTab := -1         // a tab before the document's properties
	for {
		bl := r.pos
		r.skipBlanks()
		if r.pos > bl {
			if i := strings.IndexByte(r.src[bl:r.pos], '\t'); i >= 0 {
				tab, tabCol = bl+i, r.column(bl)
				if tabCol == 0 {
					tabCol, _ = r.lineIndent(tab)
				}
			}
		}
		if r.at(r.pos) == '#' {
			r.commentAt()
			tab, atNewline = -1, false
		}
		if r.atLineEnd(r.pos) {
			save := r.pos
			r.skipToContent()
			spaces, hasTab := r.lineIndent(r.pos)
			if r.pos >= len(r.src) || isDocumentMarker(r.src, r.pos) ||
				spaces <= parentIndent && !(spaces == parentIndent && r.isSeqEntry(r.pos) && ctx.kind != afterEntry) {
				if r.pos >= len(r.src) || (ctx.kind == afterKey || ctx.kind == afterColon) && spaces == parentIndent && !r.isSeqEntry(r.pos) {
					r.checkTabLine(save, parentIndent, r.pos >= len(r.src))
				}
				r.pos = save
				r.mergeProps(&p, line)
				if docTab >= 0 {
					r.syntaxError(docTab, docTab+1, "tabs cannot be used for indentation")
				}
				return r.emptyAt(ctx.after, p)
			}
			tab, tabCol, atNewline = -1, spaces, true
			if hasTab {
				tab = lineStartOf(r.src, r.pos) + spaces
			}
			r.mergeProps(&p, line)
			line = noProps()
			inline = false
		}
		c := r.at(r.pos)
		if c == '&' || c == '!' {
			switch {
			case tab >= 0 && atNewline && ctx.kind == inDocument:
				docTab = tab // an error unless a flow collection follows
			case tab >= 0 && atNewline:
				r.syntaxError(tab, tab+1, "tabs cannot be used for indentation")
			}
			r.readProperty(&line, false)
			tab, atNewline = -1, false
			continue
		}
		break
	}
	if c := r.at(r.pos); docTab >= 0 && c != '[' && c != '{' {
		// The reference lets a tab stand before the properties of a
		// document that is a flow collection.
		r.syntaxError(docTab, docTab+1, "tabs cannot be used for indentation")
	}
	if c := r.at(r.pos); tab >= 0 && atNewline && tabCol <= max(parentIndent, 0) &&
		!(ctx.kind == inDocument && (c == '[' || c == '{')) { // a document may start so
		r.syntaxError(tab, tab+1, "tabs cannot be used for indentation")
		tab = -1
	}
	start := r.pos
	c := r.at(start)
	onLine := line.start >= 0 // properties on the content's line
	// valueCol is the indentation of a collection that starts here: where
	// its first token (a property or the content) stands. Most values are
	// scalars, which do not need it.
	valueCol := func() int {
		if onLine {
			return r.column(line.start)
		}
		return r.column(start)
	}
	// The indentation the lines after a scalar's first need, computed
	// when a scalar goes on past its line.
	cont := lazyIndent{r: r, at: start, parentIndent: parentIndent, ctx: ctx, inline: inline}
	blockColl := func(what string) bool {
		switch {
		case inline && ctx.kind == afterKey:
			r.syntaxError(start, start+1, "%s cannot start on the same line as its key", what)
			return false
		case inline && ctx.kind == inDocument:
			r.syntaxError(start, start+1, "%s cannot start on the same line as \"---\"", what)
			return false
		case tab >= 0 && !onLine:
			r.syntaxError(tab, tab+1, "tabs cannot be used for indentation")
		}
		return true
	}
	var v ast.Value
	switch {
	case r.isSeqEntry(start):
		if blockColl("a block sequence") && onLine {
			r.syntaxError(line.start, line.end, "properties of a block sequence must be on the line before it")
		}
		r.mergeProps(&p, line)
		v = r.blockSequence(r.column(start), p)
	case ctx.kind == afterQuestion && !inline && r.isIndicator(start, ':'):
		// "?\n  : value", "?\n  !t : value": the reference takes the
		// ":" below an empty explicit key, even indented more, as the
		// key's value indicator (the properties are the key's).
		r.mergeProps(&p, line)
		return r.emptyAt(ctx.after, p)
	case r.isIndicator(start, '?') || r.isIndicator(start, ':'):
		blockColl("a mapping")
		if onLine && inline && (ctx.kind == afterColon || ctx.kind == afterQuestion && c == '?') {
			// "? &a ? b", ": &a ? b", ": &a : b": the properties are
			// the nested mapping's (in "? &a : b" and "- &a : b" the
			// empty key's).
			r.mergeProps(&p, line)
			line, onLine = noProps(), false
		} else if onLine && !inline && ctx.kind != afterEntry && ctx.kind != inDocument {
			// "key:\n  &a ? b", "key:\n  &a : b": the properties are the
			// mapping's, which starts at their column.
			col := valueCol()
			r.mergeProps(&p, line)
			v = r.blockMapping(col, p, noProps(), nil)
			break
		}
		v = r.blockMapping(valueCol(), p, line, nil)
	case c == '|' || c == '>':
		r.mergeProps(&p, line)
		// Its lines need the indentation a scalar's continuation lines
		// need: more than its indicator's line ("  : >" below a key
		// wants 3 spaces, not the mapping's 1).
		v = r.blockScalar(p, parentIndent, cont.get()-1)
	case c == '[' || c == '{' || c == '*':
		var node ast.Value
		// Properties on the lines before are the node's, or when it is
		// a key, the mapping's: an alias inside refers to the node
		// being read either way.
		done := r.build(p.anchor)
		if c == '*' {
			node = r.alias(line)
		} else {
			node = r.flowCollection(line, cont.get())
		}
		done()
		if c != '*' && r.flowCut {
			// Not closed, it ended at a line indented too little:
			// reading goes on there.
			if p.start >= 0 {
				r.retag(node, p)
			}
			v = node
			break
		}
		colon, isKey := r.colonAhead()
		flowValue := isKey && c != '*' && inline && ctx.kind == afterKey
		if isKey && !flowValue {
			if blockColl("a mapping") && !r.singleLine(start, colon) {
				r.multiLineKey(start, colon)
			}
			keyStart := start
			if onLine {
				keyStart = line.start // the key's properties
			}
			v = r.blockMapping(valueCol(), p, noProps(), &firstKey{node: node, colon: colon, start: keyStart})
			break
		}
		if c == '*' {
			if p.start >= 0 {
				r.syntaxError(p.start, p.end, "an alias cannot have an anchor or a tag")
			}
		} else if p.start >= 0 {
			both := p
			r.mergeProps(&both, line) // reports a second anchor or tag
			r.retag(node, p)
		}
		v = node
		if flowValue {
			// "key: [a]: b": the reference ends the value with the
			// collection and reads ": b" as an entry of the same
			// mapping with an empty key.
			break
		}
		r.skipLineRest(start)
	default:
		k, ok := r.implicitKey(&cont)
		if ok {
			if inline && ctx.kind == afterKey {
				// "key: a: b": most likely a value that holds ": ".
				r.syntaxError(k.colon, k.colon+1, "mapping values are not allowed here; quote the value if it contains \": \"")
				r.mergeProps(&p, line)
				v = r.scalar(p, start, k.end, k.style, k.st.text, k.st.tm)
				r.pos = k.end
				r.skipLine()
				break
			}
			if blockColl("a mapping") && k.multiLine {
				r.multiLineKey(start, k.colon)
			}
			if k.style == ast.Plain {
				// The mapping's first entry takes the plain key as
				// scanned (a quoted one is scanned again, without a
				// continuation indentation).
				r.key, r.keyAt = k, start
			}
			v = r.blockMapping(valueCol(), p, line, nil)
			break
		}
		r.mergeProps(&p, line)
		pc := plainContext{indent: &cont}
		if k.style == ast.Plain {
			pc.lineEnd = k.end // found by implicitKey
		}
		v = r.flowOrPlainScalar(p, pc)
		r.skipLineRest(start)
	}
	return v
}

// continuationIndent is the indentation the lines after the first of a
// plain or quoted scalar or a flow collection at at need, as the
// reference's scanner counts it:
// more than the indentation of the line of the indicator the scalar
// follows, where "- ", "? " and ": " at the start of a line count as
// indentation. A scalar on a later line may lower that to its line's
// indentation, unless the line's first character stands alone (the
// scanner takes it for an indicator).
func (r *yamlReader) continuationIndent(at, parentIndent int, ctx blockCtx, inline bool) int {
	if ctx.kind == inDocument || ctx.after <= 0 {
		return parentIndent + 1
	}
	ind := ctx.after - 1 // the indicator
	i := lineStartOf(r.src, ind)
	for i < ind && r.src[i] == ' ' {
		i++
	}
	for i < ind && (r.src[i] == '-' || r.src[i] == '?' || r.src[i] == ':') && r.blankOrEnd(i+1) {
		for i++; i < ind && isBlank(r.src[i]); i++ {
		}
	}
	next := r.column(i) + 1
	if !inline {
		ls := lineStartOf(r.src, at)
		f := ls
		for f < len(r.src) && r.src[f] == ' ' {
			f++
		}
		if next > f-ls && !r.blankOrEnd(f+1) {
			next = f - ls
		}
	}
	return max(next, parentIndent+1)
}

// lazyIndent is a continuationIndent computed on first use: most scalars
// fit on their line and never need it.
type lazyIndent struct {
	r            *yamlReader
	at           int // where the scalar starts
	parentIndent int
	ctx          blockCtx
	inline       bool
	done         bool
	n            int
}

// orZero is get, or 0 (any indentation) for a nil l.
func (l *lazyIndent) orZero() int {
	if l == nil {
		return 0
	}
	return l.get()
}

func (l *lazyIndent) get() int {
	if !l.done {
		l.n, l.done = l.r.continuationIndent(l.at, l.parentIndent, l.ctx, l.inline), true
	}
	return l.n
}

// retag applies properties read before a flow collection on earlier lines.
func (r *yamlReader) retag(v ast.Value, p props) {
	switch v := v.(type) {
	case *ast.Mapping:
		if p.anchor != "" {
			v.Anchor = p.anchor
		}
		v.Span.Start = min(v.Span.Start, p.start)
		r.checkCollectionTag(v, p)
	case *ast.Sequence:
		if p.anchor != "" {
			v.Anchor = p.anchor
		}
		v.Span.Start = min(v.Span.Start, p.start)
		r.checkCollectionTag(v, p)
	}
	r.define(p, v)
}

// singleLine reports whether src[a:b] holds no line break.
func (r *yamlReader) singleLine(a, b int) bool {
	return strings.IndexByte(r.src[a:b], '\n') < 0
}

// colonAhead reports whether a mapping value indicator (": " or ":" at the
// line end) follows on the current line, after blanks; pos does not move.
func (r *yamlReader) colonAhead() (int, bool) {
	i := r.pos
	for i < len(r.src) && isBlank(r.src[i]) {
		i++
	}
	if r.at(i) == ':' && r.blankOrEnd(i+1) {
		return i, true
	}
	return i, false
}

// propsEnd returns where the anchors and tags that start at i end (after
// the blanks that follow them).
func (r *yamlReader) propsEnd(i int) int {
	for c := r.at(i); c == '&' || c == '!'; c = r.at(i) {
		if c == '!' {
			i = scanTag(r.src, i)
		} else {
			for i++; i < len(r.src) && isAnchorChar(r.src[i]); i++ {
			}
		}
		for i < len(r.src) && isBlank(r.src[i]) {
			i++
		}
	}
	return i
}

// colonBelow reports a mapping value indicator on the next line with
// content when only blanks and a comment follow i on its line and that line
// is indented more than indent.
func (r *yamlReader) colonBelow(i, indent int) (int, bool) {
	for i < len(r.src) && isBlank(r.src[i]) {
		i++
	}
	if r.at(i) == '#' && isBlank(r.at(i-1)) {
		i = r.lineEnd(i)
	}
	if !r.atLineEnd(i) {
		return 0, false
	}
	save := r.pos
	r.pos = i
	r.skipToContentQuiet()
	j := r.pos
	r.pos = save
	if spaces, tab := r.lineIndent(j); j < len(r.src) && spaces > indent && r.isIndicator(j, ':') && !isDocumentMarker(r.src, j) {
		if tab {
			// "a\n \t: b": the reference takes the tab for indentation.
			t := lineStartOf(r.src, j) + spaces
			r.syntaxError(t, t+1, "tabs cannot be used for indentation")
		}
		return j, true
	}
	return 0, false
}

// multiLineKey reports an implicit key that starts at start and spans lines
// up to its ":" at colon.
func (r *yamlReader) multiLineKey(start, colon int) {
	end := colon
	for end > start && (isBlank(r.src[end-1]) || r.src[end-1] == '\n' || r.src[end-1] == '\r') {
		end--
	}
	r.syntaxError(start, end, "implicit keys need to be on a single line")
}

// skipLineRest checks that only blanks and a comment follow a node on its line.
func (r *yamlReader) skipLineRest(nodeStart int) {
	bl := r.pos
	r.skipBlanks()
	if r.at(r.pos) == '#' {
		if r.pos == bl {
			r.syntaxError(r.pos, r.pos+1, "a comment needs a space before \"#\"")
		}
		r.skipComment()
		return
	}
	if r.atLineEnd(r.pos) {
		return
	}
	start := r.pos
	end := r.lineEnd(start)
	if r.at(start) == ':' && r.blankOrEnd(start+1) {
		if !r.singleLine(nodeStart, start) {
			// At the ":": most often a line indented too much, as in
			// "run: echo\n     env: {}", where the text before it is
			// not meant as a key.
			r.syntaxError(start, start+1, "implicit keys need to be on a single line")
		} else {
			r.syntaxError(start, start+1, "mapping values are not allowed here; quote the value if it contains \": \"")
		}
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
		r.skipToContentQuiet()
		if r.pos >= len(r.src) || r.column(r.pos) <= indent {
			r.pos = save
			break
		}
		r.skipLine()
	}
	r.skipped(from)
}

// skipToContentQuiet is skipToContent without checking comments.
func (r *yamlReader) skipToContentQuiet() {
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			r.pos++
		case c == '#' && (r.pos == r.start || isBlank(r.src[r.pos-1]) || r.src[r.pos-1] == '\n'):
			r.skipComment()
		default:
			return
		}
	}
}

// readProperty reads an anchor (&name) or a tag (!tag) at pos. A blank, a
// line break or a "," must follow it, or in a flow collection a closing
// bracket; glued allows the node itself (the reference does so for the
// entries of a flow sequence).
func (r *yamlReader) readProperty(p *props, glued bool) {
	start := r.pos
	if p.start < 0 {
		p.start = start
	}
	if r.src[start] == '&' {
		r.pos++
		for r.pos < len(r.src) && isAnchorChar(r.src[r.pos]) {
			r.pos++
		}
		name := string(r.src[start+1 : r.pos])
		if p.anchorNameFrom > 0 {
			r.syntaxError(start, r.pos, "a node can have at most one anchor")
		}
		if name == "" {
			r.syntaxError(start, start+1, "an anchor needs a name")
		}
		p.anchor, p.anchorStart, p.anchorNameFrom = name, start, start+1
	} else {
		r.pos = scanTag(r.src, start)
		if p.tag != "" {
			r.syntaxError(start, r.pos, "a node can have at most one tag")
		}
		p.tag, p.tagStart = r.src[start:r.pos], start
		r.checkTag(p.tag, start)
	}
	p.end = r.pos
	sep := r.pos >= len(r.src) || isBlank(r.src[r.pos]) || lineBreakAt(r.src, r.pos) > 0 // not a lone "\r"
	if c := r.at(r.pos); !sep && c != ',' && !glued && !(r.inFlow > 0 && (c == ']' || c == '}')) {
		r.syntaxError(r.pos, r.pos+1, "an anchor or a tag must be followed by a space")
	}
}

// anchoring is a collection being read under an anchor: from is the number
// of anchors defined when it started.
type anchoring struct {
	name string
	from int
}

// build notes that the collection named by anchor is being read (the
// returned func ends that).
func (r *yamlReader) build(anchor string) func() {
	if anchor == "" {
		return func() {}
	}
	r.inAnchored = append(r.inAnchored, anchoring{anchor, len(r.anchored)})
	return func() { r.inAnchored = r.inAnchored[:len(r.inAnchored)-1] }
}

// building reports whether the latest anchor of that name names a
// collection being read: not when a node inside it took the name since.
func (r *yamlReader) building(anchor string) bool {
	for i := len(r.inAnchored) - 1; i >= 0; i-- {
		if b := r.inAnchored[i]; b.name == anchor {
			for _, a := range r.anchored[min(b.from, len(r.anchored)):] {
				if a.Name == anchor {
					return false
				}
			}
			return true
		}
	}
	return false
}

// isAnchorChar reports whether c may be part of an anchor or alias name:
// anything but blanks, line break characters and flow indicators.
func isAnchorChar(c byte) bool {
	return c != ' ' && c != '\t' && c != '\n' && c != '\r' && !isFlowIndicator(c)
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

// keyAliases accepts the aliases of nodes being read that stand in the key:
// the reference names such a key by the alias.
func (r *yamlReader) keyAliases(key ast.Value) {
	if len(r.selfAliases) == 0 {
		return
	}
	ast.Inspect(key, func(n ast.Node) bool {
		if a, ok := n.(*ast.Alias); ok {
			for i, b := range r.selfAliases {
				if a == b {
					r.selfAliases = append(r.selfAliases[:i], r.selfAliases[i+1:]...)
					r.used[a.Name] = true
					break
				}
			}
		}
		return true
	})
}

// reportSelfAliases reports the aliases of nodes read inside those nodes
// that are in no key.
func (r *yamlReader) reportSelfAliases() {
	for _, a := range r.selfAliases {
		r.errorAt("yaml-undefined-alias", a.Span.Start, a.Span.End, "alias %q refers to the node that holds it: the reference would build a circular value", "*"+a.Name)
	}
	r.selfAliases = nil
}

// alias reads an alias (*name) at pos.
func (r *yamlReader) alias(p props) ast.Value {
	start := r.pos
	r.pos++
	for r.pos < len(r.src) && isAnchorChar(r.src[r.pos]) {
		r.pos++
	}
	name := string(r.src[start+1 : r.pos])
	r.aliases++
	a := &ast.Alias{Name: name, Target: r.anchors[name]}
	a.Span = r.rng(start, r.pos)
	if p.start >= 0 {
		r.syntaxError(p.start, p.end, "an alias cannot have an anchor or a tag")
	}
	switch {
	case name == "":
		r.syntaxError(start, start+1, "an alias needs a name")
	case r.building(name):
		// The latest anchor of that name is the node being read, even
		// when an earlier node has the name too. Reported at the end
		// of the document unless it is in a key (keyAliases).
		a.Target = nil
		r.selfAliases = append(r.selfAliases, a)
	case a.Target == nil:
		r.errorAt("yaml-undefined-alias", start, r.pos, "alias %q refers to no anchor defined before it", "*"+name)
	default:
		r.used[name] = true
		r.countAlias(a)
	}
	return a
}

// keyScan is a scanned implicit key.
type keyScan struct {
	st        scalarText
	style     ast.Style
	end       int // offset after the key text
	colon     int // offset of the ':'
	multiLine bool
}

// implicitKey looks for an implicit mapping key at pos ("key:" followed by a
// blank or the line end) without moving. A quoted scalar's lines after the
// first need cont's spaces (nil: any), as the value the text is read as
// when it is no key.
func (r *yamlReader) implicitKey(cont *lazyIndent) (keyScan, bool) {
	start := r.pos
	var k keyScan
	switch r.at(start) {
	case '"':
		k.st, k.style = scanDoubleQuoted(r.src, start, cont.orZero()), ast.DoubleQuoted
	case '\'':
		k.st, k.style = scanSingleQuoted(r.src, start, cont.orZero()), ast.SingleQuoted
	default:
		if !canStartPlain(r.src, start, false) {
			return k, false
		}
		if r.keyAt == start {
			return r.key, true // found by blockValue, which starts the mapping
		}
		// Most plain scalars are no keys: their text is decoded by
		// flowOrPlainScalar only.
		end := plainEndOnLine(r.src, start, false)
		i := end
		for i < len(r.src) && isBlank(r.src[i]) {
			i++
		}
		if r.at(i) != ':' || !r.blankOrEnd(i+1) {
			k.end, k.style = end, ast.Plain // k.st is left empty
			return k, false
		}
		k.st, k.style = scanPlain(r.src, start, plainContext{key: true}), ast.Plain
	}
	k.end = k.st.end
	if k.st.unclosed {
		return k, false
	}
	i := k.end
	for i < len(r.src) && isBlank(r.src[i]) {
		i++
	}
	if r.at(i) == ':' && r.blankOrEnd(i+1) {
		k.colon = i
		k.multiLine = k.style != ast.Plain && !r.singleLine(start, i)
		return k, true
	}
	return k, false
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

// scalar builds a scalar node and resolves its kind and tag.
func (r *yamlReader) scalar(p props, start, end int, style ast.Style, text string, tm source.TextMap) *ast.Scalar {
	if tm.IsZero() {
		// An empty text maps to where its content would start.
		content := start
		if style == ast.SingleQuoted || style == ast.DoubleQuoted {
			content++
		}
		tm = source.Verbatim(min(content, end), 0)
	}
	s := r.newScalar() // zeroed: only what is set is written
	s.Style, s.Text, s.Map = style, text, tm
	if pp := p.props(); pp != nil {
		s.Props = pp
	}
	from := start
	if p.start >= 0 && p.start < start {
		from = p.start
	}
	s.Span = r.rng(from, end)
	r.resolveScalar(s, p)
	r.define(p, s)
	return s
}

// firstKey is the first key of a block mapping when blockValue has read it
// already (an alias or a flow collection, read before the ":" shows).
type firstKey struct {
	node  ast.Value
	start int
	colon int
}

// blockMapping reads a block mapping whose entries start at column indent;
// p are the mapping's properties, line those on the first key's line (the
// key's), first the first key when it is read already.
func (r *yamlReader) blockMapping(indent int, p props, line props, first *firstKey) *ast.Mapping {
	defer r.build(p.anchor)()
	m := r.newMapping()
	m.Anchor = p.anchor
	start := r.pos
	if line.start >= 0 {
		start = line.start
	}
	if first != nil {
		start = first.start
	}
	if p.start >= 0 {
		start = p.start
	}
	var seen map[string]*ast.Field
	end := r.pos
	base := len(r.fieldStack)
	defer func() {
		clear(r.fieldStack[base:])
		r.fieldStack = r.fieldStack[:base]
	}()
	for !r.stop {
		pair := r.mapEntry(indent, line, first)
		line, first = noProps(), nil
		if pair != nil {
			r.checkDuplicate(r.fieldStack[base:], pair, &seen)
			r.fieldStack = append(r.fieldStack, pair)
			end = max(end, pair.End())
		}
		if !r.nextEntry(indent, false) {
			break
		}
	}
	m.Fields = r.fieldSlice(r.fieldStack[base:])
	r.checkFlowKeys(m.Fields, indent)
	m.Span = r.rng(start, max(end, start))
	r.checkCollectionTag(m, p)
	r.define(p, m)
	return m
}

// mapEntry reads one entry of a block mapping at pos: an implicit key and its
// value, an explicit "? " key with an optional ": " value, or an empty key.
// line holds the properties read before pos on the entry's line, first a
// key read already. It returns nil when there is no entry to read.
func (r *yamlReader) mapEntry(indent int, line props, first *firstKey) *ast.Field {
	entryStart := r.pos
	if line.start >= 0 {
		entryStart = line.start
	}
	var key ast.Value
	colon := -1
	switch {
	case first != nil:
		key, colon, entryStart = first.node, first.colon, first.start
	default:
		for r.at(r.pos) == '&' || r.at(r.pos) == '!' {
			r.readProperty(&line, false)
			r.skipBlanks()
		}
		if line.start >= 0 {
			entryStart = line.start
		}
		start := r.pos
		c := r.at(start)
		switch {
		case r.isIndicator(start, '?'):
			if line.start >= 0 {
				r.syntaxError(line.start, line.end, "anchors and tags must come after the \"?\" indicator")
			}
			return r.explicitEntry(indent, entryStart)
		case r.isIndicator(start, ':'):
			key = r.emptyAt(start, line)
			colon = start
		case c == '*':
			key = r.alias(line)
		case c == '[' || c == '{':
			key = r.flowCollection(line, indent+1)
		default:
			k, ok := r.implicitKey(nil)
			if !ok && !k.st.unclosed && k.end > start && r.singleLine(start, k.end) {
				// "key" alone on its line with ": value" on a line
				// indented more: the reference takes that ":".
				if c, below := r.colonBelow(k.end, indent); below {
					k.colon, ok = c, true
					if k.style == ast.Plain {
						k.st = scanPlain(r.src, start, plainContext{key: true})
					}
				}
			}
			if !ok {
				msg := "expected a mapping key followed by \":\""
				switch {
				case k.st.unclosed:
					msg = k.st.err
				case r.isSeqEntry(start):
					msg = "a sequence entry cannot appear among mapping keys at the same indentation"
				case c == ']' || c == '}' || c == ',':
					msg = fmt.Sprintf("unexpected %q", string(c))
				}
				from := start
				if from == r.lineEnd(start) {
					from = entryStart // properties alone on their line
				}
				r.syntaxError(from, r.lineEnd(start), "%s", msg)
				r.skipBlock(indent)
				return nil
			}
			if k.multiLine {
				r.multiLineKey(start, k.colon)
			}
			if k.st.err != "" {
				r.syntaxError(k.st.errPos, k.st.errEnd, "%s", k.st.err)
			}
			key = r.scalar(line, start, k.end, k.style, k.st.text, k.st.tm)
			colon = k.colon
		}
		if colon < 0 {
			var ok bool
			single := r.singleLine(start, r.pos)
			colon, ok = r.colonAhead()
			if !ok && single {
				colon, ok = r.colonBelow(r.pos, indent)
			}
			switch {
			case !ok:
				r.syntaxError(start, r.pos, "implicit mapping keys need to be followed by \":\"")
				r.skipBlock(indent)
				return r.pair(key, r.emptyAt(r.pos, noProps()), entryStart)
			case !single:
				r.multiLineKey(start, colon)
			}
		}
	}
	r.checkKeyLength(entryStart, colon)
	kind := afterKey
	if !r.singleLine(key.End(), colon) {
		// ": " on a line below the key: a compact collection may follow
		// it, as after an explicit key's ": ".
		kind = afterColon
	}
	r.pos = colon + 1
	val := r.blockValue(indent, blockCtx{kind: kind, inline: true, after: colon + 1})
	return r.pair(key, val, entryStart)
}

// checkFlowKeys rejects, as the reference's YAML library does, a flow
// collection key of a block mapping (at column indent) that the library's
// parser does not attach to the text before it.
//
// The library keeps the blanks, comments and line breaks that follow a value
// in the value when they are the value's own line end, or a comment line
// indented more than the innermost collection that holds the value (for a
// plain, quoted or alias value or a flow collection, not a block scalar).
// Anything else (an empty line, a comment indented less, the indentation of
// the next entry's line) becomes an entry without a key, a "stray", which
// the next entry takes when it starts with a scalar, an alias, properties or
// an indicator, but not with a flow collection. A stray made inside a nested
// block collection moves up to the mapping that holds it unless a comment in
// it is indented as much as the nested collection. The library then rejects
// a mapping whose last stray is followed by an entry ("Map comment with
// trailing content"), and always one whose stray holds properties (the key's
// on its line).
func (r *yamlReader) checkFlowKeys(fields []*ast.Field, indent int) {
	last := -1
	for i := 1; i < len(fields); i++ {
		f := fields[i]
		k := f.KeyNode()
		if k == nil || !isFlowCollection(k) || r.at(f.Span.Start) == '?' {
			continue
		}
		if stray, _ := r.strayAfter(fields[i-1].Value, indent, f.Span.Start); !stray {
			continue
		}
		if c := r.at(f.Span.Start); c == '&' || c == '!' {
			start := f.Span.Start + strings.IndexAny(r.src[f.Span.Start:], "[{")
			r.syntaxError(start, start+1, "%s", strayKeyMessage(r.src[start]))
			continue
		}
		last = i
	}
	if last < 0 {
		return
	}
	if len(fields) > 0 && indent > 0 {
		// Text after the mapping that stays in it as its last stray.
		next := r.lineEnd(ast.SpanOf(fields[len(fields)-1].Value).End)
		for next < len(r.src) {
			next += lineBreakAt(r.src, next)
			j := next
			for j < len(r.src) && isBlank(r.src[j]) {
				j++
			}
			if j < len(r.src) && lineBreakAt(r.src, j) == 0 && r.src[j] != '#' {
				next = j
				break
			}
			next = r.lineEnd(j)
		}
		if stray, comment := r.strayAfter(fields[len(fields)-1].Value, indent, next); stray && comment >= indent {
			return
		}
	}
	start := fields[last].Span.Start
	r.syntaxError(start, start+1, "%s", strayKeyMessage(r.src[start]))
}

func strayKeyMessage(c byte) string {
	return fmt.Sprintf("the reference does not read a flow collection as a mapping key after an empty line, a comment line or, in an indented mapping, after the first entry; write it as an explicit key (\"? %c...\")", c)
}

// isFlowCollection reports a flow mapping or sequence.
func isFlowCollection(v ast.Value) bool {
	switch c := v.(type) {
	case *ast.Mapping:
		return c.Flow
	case *ast.Sequence:
		return c.Flow
	}
	return false
}

// strayAfter reports whether the library's parser (see checkFlowKeys) makes
// a stray of the text between the value v of an entry of a block mapping at
// column indent and the next entry or the text that ends the mapping, at
// next, and whether the stray reaches the mapping; comment is the greatest
// column of a comment in it (-1 for none).
func (r *yamlReader) strayAfter(v ast.Value, indent, next int) (stray bool, comment int) {
	inner, minNested := indent, -1
	for {
		col := -1
		switch c := v.(type) {
		case *ast.Mapping:
			if !c.Flow && len(c.Fields) > 0 {
				// Its properties may stand before its first key, on
				// the key's line ("&a ? key").
				first := c.Fields[0].Span.Start
				if c.Span.Start < first && lineStartOf(r.src, c.Span.Start) == lineStartOf(r.src, first) {
					first = c.Span.Start
				}
				col, v = r.column(first), c.Fields[len(c.Fields)-1].Value
			}
		case *ast.Sequence:
			if !c.Flow && len(c.Items) > 0 {
				col, v = r.column(r.seqIndicator(c)), c.Items[len(c.Items)-1]
			}
		}
		if col < 0 {
			break
		}
		inner = col
		if col > 0 && (minNested < 0 || col < minNested) {
			minNested = col
		}
	}
	s, ok := v.(*ast.Scalar)
	if ok && isEmptyNode(s) {
		return false, -1 // what follows is the empty value's
	}
	block := ok && (s.Style == ast.LiteralBlock || s.Style == ast.FoldedBlock)
	// After a block scalar whose header follows a key or an indicator
	// other than "- " on its line, the next line is still that line to
	// the library, unless a line comes between.
	sameLine := false
	if block {
		i := lineStartOf(r.src, s.Span.Start)
		for i < s.Span.Start && (r.src[i] == ' ' || r.isSeqEntry(i)) {
			i++
		}
		sameLine = i < s.Span.Start
	}
	keep := block && strings.HasPrefix(strings.TrimLeft(r.src[s.Span.Start:], "|>123456789"), "+")
	ls := r.lineEnd(ast.SpanOf(v).End)
	ls += lineBreakAt(r.src, ls)
	nextLine := len(r.src)
	if next < len(r.src) {
		nextLine = lineStartOf(r.src, next)
	}
	comment = -1
	lines := false
	for ls < nextLine {
		j := ls
		for j < len(r.src) && isBlank(r.src[j]) {
			j++
		}
		switch {
		case j >= len(r.src) || r.src[j] != '#': // an empty line
			if !keep || lines {
				stray, lines = true, true
			} // else it is the block scalar's
		case !block && comment < 0 && j-ls > inner:
			stray, lines = false, true // the value takes it, and the empty lines before it
		default:
			stray, comment, lines = true, max(comment, j-ls), true
		}
		ls = r.lineEnd(j)
		ls += lineBreakAt(r.src, ls)
	}
	if next > nextLine && next < len(r.src) && (!sameLine || lines) {
		stray = true // the indentation of the next line
	}
	if !stray || comment >= 0 && minNested >= 0 && comment >= minNested {
		return false, -1
	}
	return true, comment
}

// seqIndicator returns the offset of the first "-" of a block sequence.
func (r *yamlReader) seqIndicator(s *ast.Sequence) int {
	for i := s.Span.Start; i < len(r.src); i++ {
		if r.isSeqEntry(i) {
			return i
		}
	}
	return s.Span.Start
}

// explicitEntry reads an entry with an explicit key ("? key" and, at the
// mapping's indentation, an optional ": value").
func (r *yamlReader) explicitEntry(indent, entryStart int) *ast.Field {
	q := r.pos
	r.pos++
	key := r.blockValue(indent, blockCtx{kind: afterQuestion, inline: true, after: q + 1})
	save := r.pos
	r.skipToContent()
	// The reference takes ": " on a line indented at least as much as the
	// mapping as the explicit key's value indicator.
	if spaces, tab := r.lineIndent(r.pos); r.pos < len(r.src) && spaces >= indent && r.isIndicator(r.pos, ':') && !isDocumentMarker(r.src, r.pos) {
		if tab {
			r.syntaxError(lineStartOf(r.src, r.pos), r.pos, "tabs cannot be used for indentation")
		}
		colon := r.pos
		r.pos++
		val := r.blockValue(indent, blockCtx{kind: afterColon, inline: true, after: colon + 1})
		if s, ok := val.(*ast.Scalar); ok && isEmptyNode(s) {
			// "? a\n:\n: b": the reference reads an empty value followed
			// by ": " at the mapping's indentation as a nested mapping
			// (with the empty value's properties), which then takes the
			// rest of the mapping's entries.
			save := r.pos
			r.skipToContent()
			if r.pos < len(r.src) && r.column(r.pos) == indent && r.isIndicator(r.pos, ':') && !isDocumentMarker(r.src, r.pos) {
				p := r.undefine(s)
				val = r.blockMapping(indent, p, noProps(), nil)
			} else {
				r.pos = save
			}
		}
		return r.pair(key, val, entryStart)
	}
	if spaces, tab := r.lineIndent(r.pos); r.pos < len(r.src) && !isDocumentMarker(r.src, r.pos) &&
		(spaces > indent || spaces == indent && r.isSeqEntry(r.pos)) {
		// A node after an explicit key and no ": " before it: the
		// reference reads it and drops it, without an error.
		if tab && isBlockCollection(key) {
			// "? - a\n \t0": it reads the node as part of the key's
			// collection, where the tab stands in the indentation.
			t := lineStartOf(r.src, r.pos) + spaces
			r.syntaxError(t, t+1, "tabs cannot be used for indentation")
		}
		r.pos = save
		// Its lines go on as after the last indicator that opens the
		// key's last line ("? : 0" then " 0" and "   00": past column 3),
		// as the reference's scanner keeps that indentation.
		after := save
		for i := lineStartOf(r.src, save); i < save; i++ {
			if c := r.src[i]; (c == '-' || c == '?' || c == ':') && r.blankOrEnd(i+1) {
				after = i + 1
			} else if c != ' ' {
				break
			}
		}
		r.dropped(func() { r.blockValue(indent, blockCtx{kind: afterColon, inline: true, after: after}) })
		return r.pair(key, r.emptyAt(max(key.End(), q+1), noProps()), entryStart)
	}
	if r.pos >= len(r.src) || r.column(r.pos) == indent && !r.isSeqEntry(r.pos) {
		r.checkTabLine(r.lineEnd(max(save-1, 0)), indent, r.pos >= len(r.src))
	}
	r.pos = save
	return r.pair(key, r.emptyAt(max(key.End(), q+1), noProps()), entryStart)
}

// isBlockCollection reports whether v is a block mapping or sequence.
func isBlockCollection(v ast.Value) bool {
	switch v := v.(type) {
	case *ast.Mapping:
		return !v.Flow
	case *ast.Sequence:
		return !v.Flow
	}
	return false
}

// dropped reads, with read, a node that the reference drops: it parses the
// node's text but never builds its value. Only what its parser checks is
// reported (tabs and indentation, a stray "]" or "}", and the reader's
// limits); what it checks
// while building values (scalars, aliases, duplicate keys, ...) is not, and
// the node's anchors are not defined.
func (r *yamlReader) dropped(read func()) {
	nd, na, ns := len(r.diags), len(r.anchored), len(r.selfAliases)
	read()
	r.selfAliases = r.selfAliases[:ns]
	kept := r.diags[:nd]
	for _, d := range r.diags[nd:] {
		if d.Code != "yaml-syntax" && d.Code != "yaml-undefined-alias" && d.Code != "yaml-duplicate-key" ||
			strings.HasPrefix(d.Message, "invalid YAML: tabs ") || strings.HasPrefix(d.Message, "invalid YAML: unexpected indentation") ||
			d.Message == `invalid YAML: unexpected "]"` || d.Message == `invalid YAML: unexpected "}"` {
			kept = append(kept, d)
		}
	}
	r.diags = kept
	for _, a := range r.anchored[na:] {
		delete(r.anchors, a.Name)
		for i := na - 1; i >= 0; i-- {
			if r.anchored[i].Name == a.Name {
				r.anchors[a.Name] = r.anchored[i].Value
				break
			}
		}
	}
	r.anchored = r.anchored[:na]
}

// checkTabLine reports, as the reference does, a tab on the line after the
// line break at brk when that line holds only blanks and is indented no
// more than indent: the reference takes it as the indentation of the
// missing value of the entry that ends at brk (where the next entry follows
// at the mapping's indentation, or the text ends: atEnd, where only a last
// line without a line break counts, even after empty and comment lines).
func (r *yamlReader) checkTabLine(brk, indent int, atEnd bool) {
	n := lineBreakAt(r.src, brk)
	if n == 0 {
		return
	}
	ls := brk + n
	if atEnd {
		ls = max(ls, lineStartOf(r.src, len(r.src)))
	}
	le := ls
	for le < len(r.src) && isBlank(r.src[le]) {
		le++
	}
	if le < len(r.src) && (lineBreakAt(r.src, le) == 0 || atEnd) {
		return // the line has content, or a line break ends it at the end
	}
	spaces := 0
	for ls+spaces < le && r.src[ls+spaces] == ' ' {
		spaces++
	}
	if ls+spaces < le && spaces <= max(indent, 0) {
		r.syntaxError(ls+spaces, ls+spaces+1, "tabs cannot be used for indentation")
	}
}

// isEmptyNode reports a scalar that stands for no content (emptyAt's).
func isEmptyNode(s *ast.Scalar) bool {
	return s.Style == ast.Plain && s.Text == "" // a plain scalar is never empty
}

// undefine takes back the properties of an empty node that gives them up to
// the node that follows, and its anchor's definition.
func (r *yamlReader) undefine(s *ast.Scalar) props {
	p := noProps()
	if s.Props == nil {
		return p
	}
	p.start = s.Span.Start
	p.tag, p.anchor = s.Props.Tag, s.Props.Anchor
	if p.anchor != "" {
		if n := len(r.anchored); n > 0 && r.anchored[n-1].Value == ast.Value(s) {
			a := r.anchored[n-1]
			p.anchorStart, p.anchorNameFrom = a.NameSpan.Start-1, a.NameSpan.Start
			r.anchored = r.anchored[:n-1]
		}
	}
	if p.tag != "" {
		p.tagStart = strings.Index(r.src[s.Span.Start:], p.tag) + s.Span.Start
	}
	return p
}

// pair builds a mapping field from a key node and its value.
func (r *yamlReader) pair(key, val ast.Value, start int) *ast.Field {
	f := r.newField()
	f.Value = val
	r.setKey(f, key)
	f.Span = r.rng(start, max(val.End(), key.End()))
	return f
}

// checkKeyLength reports an implicit key whose ":" is more than 1024
// characters (UTF-16 units, as the reference counts) after its start.
func (r *yamlReader) checkKeyLength(start, colon int) {
	if colon-start <= 1024 {
		return
	}
	n := 0
	for _, c := range r.src[start:colon] {
		n++
		if c >= 0x10000 {
			n++
		}
	}
	if n > 1024 {
		r.syntaxError(start, colon, "an implicit key must be at most 1024 characters long")
	}
}

// blockSequence reads a block sequence whose "-" indicators sit at column indent.
func (r *yamlReader) blockSequence(indent int, p props) *ast.Sequence {
	defer r.build(p.anchor)()
	s := &ast.Sequence{Anchor: p.anchor}
	start := r.pos
	if p.start >= 0 {
		start = p.start
	}
	end := r.pos
	r.readItems(indent, s)
	for _, it := range s.Items {
		end = max(end, it.End())
	}
	s.Span = r.rng(start, max(end, start))
	r.checkCollectionTag(s, p)
	r.define(p, s)
	return s
}

// readItems reads the entries of a block sequence whose "-" indicators sit at
// column indent, starting at the first one.
func (r *yamlReader) readItems(indent int, s *ast.Sequence) {
	for !r.stop {
		dash := r.pos
		r.pos++
		item := r.blockValue(indent, blockCtx{kind: afterEntry, inline: true, after: dash + 1})
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
	newLine := r.skipToContent()
	if r.pos >= len(r.src) || isDocumentMarker(r.src, r.pos) {
		r.pos = save
		return false
	}
	if !newLine && r.column(save) > 0 {
		// Only "key: [a]: b" leaves text on the entry's line: ": b" is
		// an entry with an empty key.
		if !seq && r.isIndicator(r.pos, ':') {
			return true
		}
		r.pos = save
		return false
	}
	spaces, tab := r.lineIndent(r.pos)
	col := r.column(r.pos)
	if spaces < indent || (col == indent && r.isSeqEntry(r.pos) != seq) {
		r.pos = save
		return false
	}
	if tab && spaces <= indent {
		r.syntaxError(lineStartOf(r.src, r.pos), r.pos, "tabs cannot be used for indentation")
	}
	if col > indent && !seq && r.isIndicator(r.propsEnd(r.pos), ':') {
		// The reference reads ": " (after properties) indented more
		// than the mapping after a complete entry as an entry with an
		// empty key.
		return true
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
		if r.pos >= len(r.src) || r.column(r.pos) != indent || r.isSeqEntry(r.pos) != seq || isDocumentMarker(r.src, r.pos) {
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
		st, style = scanDoubleQuoted(r.src, start, ctx.min()), ast.DoubleQuoted
	case '\'':
		st, style = scanSingleQuoted(r.src, start, ctx.min()), ast.SingleQuoted
	default:
		if start >= len(r.src) {
			return r.emptyAt(start, p)
		}
		if !canStartPlain(r.src, start, ctx.flow) {
			end := start + 1
			if c := r.src[start]; c == ',' || c == '%' || c == '@' || c == '`' || c == '|' || c == '>' {
				// The reference reads these as a plain scalar that
				// cannot start so.
				st = scanPlain(r.src, start, ctx)
				end = max(st.end, end)
			}
			r.syntaxError(start, start+1, "%s", badStart(r.src[start], ctx.flow))
			r.pos = end
			return r.emptyAt(start, p)
		}
		st = scanPlain(r.src, start, ctx)
	}
	if st.err != "" {
		r.syntaxError(st.errPos, st.errEnd, "%s", st.err)
	}
	r.pos = st.end
	return r.scalar(p, start, st.end, style, st.text, st.tm)
}

// badStart explains why a node cannot start with c.
func badStart(c byte, flow bool) string {
	switch c {
	case ',', '[', ']', '{', '}':
		return fmt.Sprintf("unexpected %q", string(c))
	case '|', '>':
		if flow {
			return fmt.Sprintf("a block scalar (%q) cannot be used inside a flow collection", string(c))
		}
	case '%':
		return "a plain value cannot start with \"%\" (a directive indicator)"
	case '@', '`':
		return fmt.Sprintf("a plain value cannot start with the reserved character %q", string(c))
	}
	if c >= utf8.RuneSelf {
		return "unexpected character"
	}
	return fmt.Sprintf("unexpected character %q", string(c))
}

// blockScalar reads a literal (|) or folded (>) scalar at pos.
func (r *yamlReader) blockScalar(p props, parentIndent, lineIndent int) ast.Value {
	start := r.pos
	c := r.src[start]
	st, h := scanBlockScalar(r.src, start, parentIndent, lineIndent)
	if st.err != "" {
		r.syntaxError(st.errPos, st.errEnd, "%s", st.err)
	}
	// A comment after the header ("run: | # note") is a real comment.
	r.pos = h.end
	bl := r.pos
	r.skipBlanks()
	if r.at(r.pos) == '#' {
		if r.pos == bl {
			r.syntaxError(r.pos, r.pos+1, "a comment needs a space before \"#\"")
		}
		r.skipComment()
	}
	style := ast.LiteralBlock
	if c == '>' {
		style = ast.FoldedBlock
	}
	s := r.scalar(p, start, st.end, style, st.text, st.tm)
	r.pos = st.next
	return s
}

// flowCollection reads a [ ] or { } collection at pos. Its lines after the
// first must be indented by at least minIndent spaces (the enclosing block's
// indentation plus one).
func (r *yamlReader) flowCollection(p props, minIndent int) ast.Value {
	return r.flowCollectionAt(p, max(minIndent, 0), true)
}
