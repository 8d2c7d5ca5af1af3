package parser

import (
	"github.com/lobsterdev/lobster/lang/ast"
)

// This file reads flow collections: [a, b] and {a: b}.
//
// As in the reference, a flow collection in a block ends at a line indented
// less than the block's content (or at a document marker): that line is an
// error and reading goes on there in block context, which also keeps an
// unclosed bracket from swallowing the rest of the file.

// flowCollectionAt reads the flow collection at pos. Lines after its first
// must be indented by at least minIndent spaces; outer is false for a
// collection nested in another one.
func (r *yamlReader) flowCollectionAt(p props, minIndent int, outer bool) ast.Value {
	r.depth++
	defer func() { r.depth-- }()
	open := r.pos
	if r.depth > maxDepth {
		r.errorAt("limit-exceeded", open, open+1, "nesting is deeper than %d levels; the file is not read further", maxDepth)
		r.stop = true
		r.pos = len(r.src)
		return r.emptyAt(open, p)
	}
	r.inFlow++
	defer func() { r.inFlow-- }()
	defer r.build(p.anchor)()
	isMap := r.src[open] == '{'
	closer := byte(']')
	what := "sequence"
	if isMap {
		closer, what = '}', "mapping"
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
	needComma := false // an entry was read and no "," followed yet
	for !r.stop {
		if !r.flowSpace(minIndent, outer, open, what, closer) {
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
			if !needComma {
				r.syntaxError(r.pos, r.pos+1, "unexpected \",\": an entry is missing")
			}
			needComma = false
			r.pos++
			continue
		}
		if needComma {
			r.syntaxError(r.pos, r.pos+1, "expected \",\" or %q", string(closer))
			r.skipToFlowSeparator(closer)
			needComma = false
			continue
		}
		before := r.pos
		key, val, entryStart, pair := r.flowEntry(isMap, minIndent, closer)
		needComma = true
		switch {
		case isMap:
			f := r.pair(key, val, entryStart)
			r.checkDuplicate(m.Fields, f, &seen)
			m.Fields = append(m.Fields, f)
		case pair:
			single := &ast.Mapping{Flow: true}
			single.Fields = []*ast.Field{r.pair(key, val, entryStart)}
			single.Span = single.Fields[0].Span
			s.Items = append(s.Items, single)
		default:
			s.Items = append(s.Items, key)
		}
		if r.pos == before {
			// Nothing could be read here: step over the byte.
			r.pos++
		}
	}
	if outer {
		r.flowCut, r.flowEnded = r.flowEnded, false
	}
	if end < 0 {
		end = r.pos
	}
	var v ast.Value
	if isMap {
		m.Span = r.rng(start, end)
		v = m
	} else {
		s.Span = r.rng(start, end)
		v = s
	}
	r.checkCollectionTag(v, p)
	r.define(p, v)
	return v
}

// skipToFlowSeparator skips to the next "," or closing bracket on the line,
// after an error.
func (r *yamlReader) skipToFlowSeparator(closer byte) {
	for r.pos < len(r.src) && r.src[r.pos] != ',' && r.src[r.pos] != closer && lineBreakAt(r.src, r.pos) == 0 {
		r.pos++
	}
}

// flowSpace skips blanks, comments and line breaks inside a flow collection.
// It reports false where the collection cannot go on: at the end of the
// text, at a document marker, or at a line indented by fewer than minIndent
// spaces (a comment line may be; the closing bracket of the outermost
// collection may be one less), each reported once for all the open
// collections.
func (r *yamlReader) flowSpace(minIndent int, outer bool, open int, what string, closer byte) bool {
	if r.flowEnded {
		return false
	}
	if r.skipToContent() && r.pos < len(r.src) {
		spaces, _ := r.lineIndent(r.pos)
		c := r.src[r.pos]
		closing := outer && spaces == minIndent-1 && (c == ']' || c == '}')
		if isDocumentMarker(r.src, r.pos) || spaces < minIndent && !closing {
			line := r.file.Pos(open).Line
			r.syntaxError(lineStartOf(r.src, r.pos), r.pos+1, "the flow %s opened on line %d is not closed with %q; its lines must be indented more than the block that holds it", what, line, string(closer))
			r.flowEnded = true
			return false
		}
	}
	if r.pos >= len(r.src) {
		r.syntaxError(open, open+1, "flow %s is not closed: missing %q", what, string(closer))
		r.flowEnded = true
		return false
	}
	return true
}

// flowEntry reads one entry of a flow collection: a node, or a pair with an
// explicit ("? ") or implicit key. pair reports a pair; for a plain entry of
// a sequence, key holds the node.
func (r *yamlReader) flowEntry(isMap bool, minIndent int, closer byte) (key, val ast.Value, start int, pair bool) {
	start = r.pos
	explicit := false
	if r.at(r.pos) == '?' && (r.blankOrEnd(r.pos+1) || isFlowIndicator(r.at(r.pos+1))) {
		explicit = true
		r.pos++
		r.flowGap(minIndent)
	}
	keyStart := r.pos // where the key's content starts, after its properties
	if r.atFlowColon(false) || explicit && (r.at(r.pos) == ',' || r.at(r.pos) == closer || r.pos >= len(r.src)) {
		key = r.emptyAt(r.pos, noProps())
	} else {
		key = r.flowNode(minIndent, !isMap && !explicit, true)
		keyStart = r.flowContent
	}
	keyEnd := r.pos
	jsonKey := false // the reference takes ":" right after such a key as the indicator
	switch k := key.(type) {
	case *ast.Scalar:
		jsonKey = k.Style == ast.SingleQuoted || k.Style == ast.DoubleQuoted
	case *ast.Mapping, *ast.Sequence:
		jsonKey = true
	}
	save := r.pos
	r.flowGap(minIndent)
	if c := r.at(r.pos); isMap && (c == '&' || c == '!') {
		// "{"a" !t}": the reference drops properties after a key that no
		// ":" follows, and rejects them before the ":".
		var lost props = noProps()
		nd, nb := len(r.diags), len(r.broken)
		for c := r.at(r.pos); c == '&' || c == '!'; c = r.at(r.pos) {
			r.readProperty(&lost, false)
			r.flowGap(minIndent)
		}
		if c := r.at(r.pos); c == '}' && !isFlowCollection(key) && len(r.diags) > nd {
			// Dropped, an anchor without a name is no error either.
			r.diags, r.broken = r.diags[:nd], r.broken[:nb]
		}
		switch c := r.at(r.pos); {
		case r.atFlowColon(jsonKey):
			r.syntaxError(lost.start, lost.end, "anchors and tags must come after the \":\"")
		case c != ',' && c != ']' && c != '}' && r.pos < len(r.src):
			r.syntaxError(lost.start, lost.end, "expected \",\" or \":\" after a key")
		case c == ',' || isFlowCollection(key):
			// Dropped only after a quoted key that ends the mapping.
			r.syntaxError(lost.start, lost.end, "anchors and tags after a key must come after a \":\"")
		}
		save = r.pos
	}
	// After a JSON-like key (quoted, or a collection) ":" needs no space.
	if !r.atFlowColon(jsonKey) {
		r.pos = save
		if explicit || isMap {
			return key, r.emptyAt(keyEnd, noProps()), start, true
		}
		return key, nil, start, false
	}
	if !isMap && !explicit && !r.singleLine(keyStart, r.pos) {
		end := r.pos
		for end > keyStart && (isBlank(r.src[end-1]) || r.src[end-1] == '\n' || r.src[end-1] == '\r') {
			end--
		}
		r.syntaxError(keyStart, end, "implicit keys of flow sequence pairs need to be on a single line")
	}
	if !isMap && !explicit {
		// Only a flow sequence's pairs: the reference sets no limit on
		// a flow mapping's keys.
		r.checkKeyLength(keyStart, r.pos)
	}
	colon := r.pos
	r.pos++
	save = r.pos
	r.flowGap(minIndent)
	if c := r.at(r.pos); c == ',' || c == ']' || c == '}' || r.pos >= len(r.src) || r.flowEnded {
		r.pos = save
		return key, r.emptyAt(colon+1, noProps()), start, true
	}
	return key, r.flowNode(minIndent, false, false), start, true
}

// flowGap skips blanks, comments and line breaks between the parts of an
// entry, stopping (without an error) before a line that ends the
// collection: the collection's loop reports it.
func (r *yamlReader) flowGap(minIndent int) {
	save := r.pos
	if r.skipToContent() && r.pos < len(r.src) {
		if spaces, _ := r.lineIndent(r.pos); spaces < minIndent || isDocumentMarker(r.src, r.pos) {
			r.pos = save
		}
	}
}

// atFlowColon reports whether a mapping value indicator is at pos inside a
// flow collection: ":" followed by a blank, a line break, a flow indicator,
// or anything after a JSON-like key.
func (r *yamlReader) atFlowColon(jsonKey bool) bool {
	if r.at(r.pos) != ':' {
		return false
	}
	return jsonKey || r.blankOrEnd(r.pos+1) || isFlowIndicator(r.at(r.pos+1))
}

// flowNode reads one node inside a flow collection; glued allows its
// properties to touch it, entry tells a node that starts an entry (not a
// value after ":"). It sets flowContent to where the node's content starts.
func (r *yamlReader) flowNode(minIndent int, glued, entry bool) ast.Value {
	p := noProps()
	for r.at(r.pos) == '&' || r.at(r.pos) == '!' {
		r.readProperty(&p, glued)
		r.flowGap(minIndent)
	}
	defer func(content int) { r.flowContent = content }(r.pos)
	if entry && p.start >= 0 && r.at(r.pos) == ',' && !r.singleLine(p.end, r.pos) {
		// The reference gives properties that a line break follows to
		// the next node, and finds no node before the ",".
		r.syntaxError(r.pos, r.pos+1, "unexpected \",\": the properties before it, on an earlier line, need a node after them")
	}
	switch c := r.at(r.pos); {
	case c == '[' || c == '{':
		return r.flowCollectionAt(p, minIndent, false)
	case c == '*':
		return r.alias(p)
	case c == ',' || c == ']' || c == '}' || r.pos >= len(r.src) || r.atFlowColon(false) || lineBreakAt(r.src, r.pos) > 0:
		return r.emptyAt(r.pos, p)
	case c == '-' && (r.blankOrEnd(r.pos+1) || isFlowIndicator(r.at(r.pos+1))):
		r.syntaxError(r.pos, r.pos+1, "a block sequence cannot be used inside a flow collection")
		r.pos++
		return r.emptyAt(r.pos-1, p)
	}
	return r.flowOrPlainScalar(p, plainContext{flow: true, minIndent: minIndent})
}
