package parser

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file turns mapping keys into the names the reference gives them. The
// reference's YAML library builds JavaScript objects, whose keys are
// strings: a string key is itself, null is "", a boolean or a number is
// written as JavaScript writes it (0x10 is "16", 1.50 is "1.5"), and an
// alias or a collection is written as YAML in flow style ("[ a, b ]"). An
// ast.Field keeps the name in Key and, when the key is not a string scalar,
// the node as written in the name's Props (Field.KeyNode).

// setKey sets the field's key from the key node.
func (r *yamlReader) setKey(f *ast.Field, key ast.Value) {
	if s, ok := key.(*ast.Scalar); ok && s.Kind == ast.String {
		f.Key = s
		r.checkMergeKey(s)
		return
	}
	r.keyAliases(key)
	name := keyName(key)
	switch key.(type) {
	case *ast.Mapping, *ast.Sequence:
		r.checkKeyNames(key)
	}
	sp := ast.SpanOf(key)
	k := r.newScalar()
	*k = ast.Scalar{Kind: ast.String, Style: ast.Plain, Text: name, Props: &ast.Props{Key: key}}
	if s, ok := key.(*ast.Scalar); ok {
		k.Style = s.Style
	}
	k.Span = sp
	if name == "" {
		k.Map = source.Verbatim(sp.Start, 0)
	} else {
		// The name stands for the key's whole text.
		k.Map.Add(source.Seg{Dec: 0, DecLen: len(name), Src: sp.Start, SrcLen: sp.End - sp.Start})
	}
	f.Key = k
}

// checkKeyNames rejects, as the reference's YAML library does when it
// writes a collection key as its name, an anchor or alias inside the key
// whose name holds a control character (below U+001A) or whitespace.
func (r *yamlReader) checkKeyNames(key ast.Value) {
	bad := -1
	var name string
	ast.Inspect(key, func(n ast.Node) bool {
		if n == nil || bad >= 0 {
			return bad < 0
		}
		at := -1
		switch n := n.(type) {
		case *ast.Alias:
			if n.Target != nil { // else reported as undefined
				name, at = n.Name, n.Span.Start+1
			}
		case *ast.Scalar:
			if n.Props != nil && n.Props.Anchor != "" {
				name, at = n.Props.Anchor, r.anchorAt(n)
			}
		case *ast.Mapping:
			if n != key && n.Anchor != "" {
				name, at = n.Anchor, r.anchorAt(n)
			}
		case *ast.Sequence:
			if n != key && n.Anchor != "" {
				name, at = n.Anchor, r.anchorAt(n)
			}
		}
		if at >= 0 && !validKeyAnchor(name) {
			bad = at
		}
		return bad < 0
	})
	if bad >= 0 {
		r.syntaxError(bad, bad+len(name), "the name %q holds a control character or whitespace, which the reference rejects in a collection used as a key", name)
	}
}

// anchorAt is where the name of the anchor defined on v starts.
func (r *yamlReader) anchorAt(v ast.Value) int {
	for i := len(r.anchored) - 1; i >= 0; i-- {
		if r.anchored[i].Value == v {
			return r.anchored[i].NameSpan.Start
		}
	}
	return ast.SpanOf(v).Start
}

// validKeyAnchor reports whether the reference's library writes an anchor
// or alias of this name into a key's name: no character below U+001A and
// no JavaScript whitespace.
func validKeyAnchor(name string) bool {
	for _, c := range name {
		switch {
		case c < 0x1a, c == 0xa0, c == 0x1680, c >= 0x2000 && c <= 0x200a,
			c == 0x2028, c == 0x2029, c == 0x202f, c == 0x205f, c == 0x3000, c == 0xfeff:
			return false
		}
	}
	return true
}

var jsNumberRE = regexp.MustCompile(`^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$|^0[xX][0-9a-fA-F]+$|^0[oO][0-7]+$|^0[bB][01]+$|^[+-]?Infinity$`)

// jsNumberLike reports whether JavaScript's Number(t) is a number (not NaN).
func jsNumberLike(t string) bool {
	t = strings.TrimSpace(t)
	return t == "" || jsNumberRE.MatchString(t)
}

// keyName is the name of a mapping key in the reference's objects.
func keyName(v ast.Value) string {
	switch v := v.(type) {
	case *ast.Scalar:
		switch v.Kind {
		case ast.Null:
			return ""
		case ast.Bool:
			if v.Bool {
				return "true"
			}
			return "false"
		case ast.Int, ast.Float:
			return jsNumberString(v.Num)
		}
		return v.Text
	case *ast.Alias:
		if s, ok := ast.Resolve(v).(*ast.Scalar); ok {
			return keyName(s)
		}
		return "*" + v.Name
	}
	return stringifyFlow(v, "", false)
}

// jsNumberString is String(n) in JavaScript.
func jsNumberString(n float64) string {
	switch {
	case math.IsNaN(n):
		return "NaN"
	case math.IsInf(n, 1):
		return "Infinity"
	case math.IsInf(n, -1):
		return "-Infinity"
	}
	return js.FormatNumber(n)
}

// keyScalar is the scalar a field's key is written as, or nil for an alias
// or a collection.
func keyScalar(f *ast.Field) *ast.Scalar {
	if f.KeyNode() == nil {
		return f.Key
	}
	s, _ := f.KeyNode().(*ast.Scalar)
	return s
}

// sameKey reports whether two keys are equal as the reference compares them
// for uniqueness: scalars by their value (JavaScript ===), other nodes never.
func sameKey(a, b *ast.Field) bool {
	x, y := keyScalar(a), keyScalar(b)
	if x == nil || y == nil {
		return false
	}
	switch {
	case x.Kind == ast.String && y.Kind == ast.String:
		return x.Text == y.Text
	case (x.Kind == ast.Int || x.Kind == ast.Float) && (y.Kind == ast.Int || y.Kind == ast.Float):
		return x.Num == y.Num
	case x.Kind != y.Kind:
		return false
	case x.Kind == ast.Bool:
		return x.Bool == y.Bool
	}
	return x.Kind == ast.Null
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

// checkDuplicate reports f's key when an earlier field has the same key.
// Small mappings (steps have a handful of keys) are searched directly; an
// index of string keys is built only for large ones.
func (r *yamlReader) checkDuplicate(fields []*ast.Field, f *ast.Field, index *map[string]*ast.Field) {
	var first *ast.Field
	ks := keyScalar(f)
	if ks == nil {
		return
	}
	switch {
	case len(fields) < 16 && f.KeyNode() == nil:
		// The common case: string keys, a few of them.
		for _, g := range fields {
			if g.KeyNode() == nil && g.Key.Text == f.Key.Text || g.KeyNode() != nil && sameKey(g, f) {
				first = g
				break
			}
		}
	case len(fields) < 16 || ks.Kind != ast.String:
		for _, g := range fields {
			if sameKey(g, f) {
				first = g
				break
			}
		}
	default:
		if *index == nil {
			*index = make(map[string]*ast.Field, 2*len(fields))
			for i := len(fields) - 1; i >= 0; i-- {
				if s := keyScalar(fields[i]); s != nil && s.Kind == ast.String {
					(*index)[s.Text] = fields[i]
				}
			}
		}
		first = (*index)[ks.Text]
	}
	if first == nil {
		if *index != nil && ks.Kind == ast.String {
			(*index)[ks.Text] = f
		}
		return
	}
	at := f.Key.Span
	if at.Start == at.End && at.Start < len(r.src) && (r.src[at.Start] == ':' || r.src[at.Start] == '?') {
		at.End++ // an empty key: its indicator
	}
	r.diags = append(r.diags, source.Diagnostic{
		File: r.file.Name, Range: r.file.RangeOf(at), Severity: source.Error, Code: "yaml-duplicate-key",
		Message: fmt.Sprintf("duplicate key %q; the reference rejects the file (\"Map keys must be unique\")", f.Key.Text),
		Related: []source.Related{{File: r.file.Name, Range: r.file.RangeOf(first.Key.Span), Message: "first defined here"}},
	})
}

// The reference names a collection key by writing it as YAML in flow style
// (its stringifier, with an 80-column line width). stringifyFlow follows the
// layout it uses for the keys that occur in practice: scalars in their
// original style, numbers in their original format, properties and aliases,
// nested flow collections, and a collection broken over lines when it is
// too wide or holds a line break.

const flowLineWidth = 80

// stringifyFlow writes v in flow style; indent is the indentation of the
// line it starts on (the stringifier's context indent), props whether v's
// own anchor and tag are written.
func stringifyFlow(v ast.Value, indent string, props bool) string {
	pre := ""
	if props {
		pre = nodeProps(v)
	}
	var body string
	switch v := v.(type) {
	case *ast.Alias:
		return "*" + v.Name
	case *ast.Scalar:
		body = stringifyScalar(v, false)
	case *ast.Sequence:
		items := make([]string, len(v.Items))
		for i, it := range v.Items {
			items[i] = stringifyFlow(it, indent+"    ", true)
		}
		body = flowLayout(items, "[", "]", indent)
	case *ast.Mapping:
		allNull := true
		for _, f := range v.Fields {
			if !valueless(f) {
				allNull = false
			}
		}
		items := make([]string, len(v.Fields))
		for i, f := range v.Fields {
			items[i] = stringifyPair(f, indent+"  ", allNull)
		}
		body = flowLayout(items, "{", "}", indent)
	}
	if pre == "" {
		return body
	}
	return pre + " " + body
}

// flowLayout joins the items of a flow collection on one line, or one per
// line when one holds a line break or the line would be too wide.
func flowLayout(items []string, open, close, indent string) string {
	if len(items) == 0 {
		return open + close
	}
	n := 2
	multi := false
	for i := range items {
		if strings.Contains(items[i], "\n") {
			multi = true
		}
		if i < len(items)-1 {
			items[i] += ","
		}
		n += len(items[i]) + 2
	}
	if !multi && n <= flowLineWidth {
		return open + " " + strings.Join(items, " ") + " " + close
	}
	var b strings.Builder
	b.WriteString(open)
	for _, it := range items {
		b.WriteString("\n  " + indent + it)
	}
	b.WriteString("\n" + indent + close)
	return b.String()
}

// valueless reports a pair written without a value ("? a" or "{a}"): its
// value is an empty null placed right at the end of the key.
func valueless(f *ast.Field) bool {
	s, ok := f.Value.(*ast.Scalar)
	k := ast.Value(f.Key)
	if f.KeyNode() != nil {
		k = f.KeyNode()
	}
	return ok && s.Kind == ast.Null && s.Props == nil && s.Span.Start == s.Span.End && s.Span.Start == k.End()
}

// stringifyPair writes one pair of a flow mapping.
func stringifyPair(f *ast.Field, indent string, allNull bool) string {
	key := ast.Value(f.Key)
	if f.KeyNode() != nil {
		key = f.KeyNode()
	}
	explicit := false
	var ks string
	switch k := key.(type) {
	case *ast.Mapping, *ast.Sequence:
		explicit = true
		ks = stringifyFlow(k, indent+"  ", true)
	case *ast.Scalar:
		if k.Style == ast.LiteralBlock || k.Style == ast.FoldedBlock {
			explicit = true
		}
		ks = nodeProps(k)
		if ks != "" {
			ks += " "
		}
		ks += stringifyScalar(k, !explicit && !allNull)
	default: // an alias: the stringifier writes keys that are not scalars explicitly
		explicit = true
		ks = stringifyFlow(key, indent, true)
	}
	if allNull || valueless(f) {
		switch {
		case ks == "":
			return "?"
		case explicit:
			return "? " + ks
		}
		return ks
	}
	s := ks + ":"
	if explicit {
		s = "? " + ks + "\n" + indent + ":"
	}
	vs := stringifyFlow(f.Value, indent+"  ", true)
	_, isMap := f.Value.(*ast.Mapping)
	_, isSeq := f.Value.(*ast.Sequence)
	switch {
	case vs == "" || vs[0] == '\n':
		return s + vs
	case !explicit && strings.Contains(vs, "\n") && (isMap || isSeq) && vs[0] != '&' && vs[0] != '!':
		return s + "\n" + indent + "  " + vs
	}
	return s + " " + vs
}

// nodeProps writes a node's anchor and tag.
func nodeProps(v ast.Value) string {
	var anchor, tag string
	switch v := v.(type) {
	case *ast.Scalar:
		if v.Props != nil {
			anchor, tag = v.Props.Anchor, v.Props.Tag
		}
	case *ast.Mapping:
		anchor = v.Anchor
	case *ast.Sequence:
		anchor = v.Anchor
	}
	var parts []string
	if anchor != "" {
		parts = append(parts, "&"+anchor)
	}
	if tag != "" {
		parts = append(parts, tag)
	}
	return strings.Join(parts, " ")
}

var (
	plainUnsafe  = regexp.MustCompile("^[\n\t ,\\[\\]{}#&*!|>'\"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$")
	controlChars = regexp.MustCompile("[\x00-\x08\x0b-\x1f\x7f-\u009f]")
)

// stringifyScalar writes a scalar as the reference's stringifier does in a
// flow collection; implicitKey for a key written without "? ".
func stringifyScalar(s *ast.Scalar, implicitKey bool) string {
	if s.Kind == ast.String && s.Tag() != "" {
		// A core tag that does not fit the text: the library writes
		// the text as the tag's type would ("!!int A" is "!!int .nan").
		switch strings.TrimPrefix(strings.TrimSuffix(strings.TrimPrefix(s.Tag(), "!<"), ">"), yamlTagPrefix) {
		case "!!int", "!!float", "int", "float":
			switch t := strings.TrimSpace(s.Text); {
			case !jsNumberLike(t):
				return ".nan"
			case strings.HasSuffix(t, "Infinity"):
				return strings.TrimPrefix(strings.TrimSuffix(t, "Infinity"), "+") + ".inf"
			}
		case "!!bool", "bool":
			return strconv.FormatBool(s.Text != "")
		case "!!null", "null":
			return "null"
		}
	}
	switch s.Kind {
	case ast.Null:
		if isCoreNull(s.Text) && s.Style == ast.Plain {
			return s.Text
		}
		return "null"
	case ast.Bool:
		if b, ok := coreBool(s.Text); ok && b == s.Bool && s.Style == ast.Plain {
			return s.Text
		}
		return strconv.FormatBool(s.Bool)
	case ast.Int, ast.Float:
		return stringifyNumber(s)
	}
	v := s.Text
	style := s.Style
	if style != ast.DoubleQuoted && controlChars.MatchString(v) {
		style = ast.DoubleQuoted
	}
	switch style {
	case ast.DoubleQuoted:
		return doubleQuotedString(v)
	case ast.SingleQuoted:
		return singleQuotedString(v, implicitKey)
	case ast.LiteralBlock, ast.FoldedBlock:
		return quotedString(v, implicitKey)
	}
	if implicitKey && strings.Contains(v, "\n") || strings.ContainsAny(v, "[]{},") || plainUnsafe.MatchString(v) {
		return quotedString(v, implicitKey)
	}
	if s.Tag() != "" || true {
		// A plain string that would read back as another type is quoted.
		probe := ast.Scalar{Text: v, Style: ast.Plain}
		resolvePlain(&probe)
		if probe.Kind != ast.String {
			return quotedString(v, implicitKey)
		}
	}
	return v
}

// stringifyNumber writes a number in the format it was written in: 0x and
// 0o integers in their base, floats with their trailing zeros, exponents in
// JavaScript's exponential notation.
func stringifyNumber(s *ast.Scalar) string {
	n := s.Num
	switch {
	case math.IsNaN(n):
		return ".nan"
	case math.IsInf(n, 1):
		return ".inf"
	case math.IsInf(n, -1):
		return "-.inf"
	}
	t := s.Text
	if s.Kind == ast.Int && n >= 0 && n == math.Trunc(n) && len(t) > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'o') {
		if n < 1<<53 {
			if t[1] == 'x' {
				return "0x" + strconv.FormatUint(uint64(n), 16)
			}
			return "0o" + strconv.FormatUint(uint64(n), 8)
		}
	}
	out := js.FormatNumber(n)
	if n == 0 && math.Signbit(n) {
		out = "-0"
	}
	if s.Kind == ast.Float && strings.ContainsAny(t, "eE") {
		// Number.prototype.toExponential.
		e := strconv.FormatFloat(n, 'e', -1, 64)
		mant, exp, _ := strings.Cut(e, "e")
		x, _ := strconv.Atoi(exp)
		if x >= 0 {
			return mant + "e+" + strconv.Itoa(x)
		}
		return mant + "e-" + strconv.Itoa(-x)
	}
	if s.Kind == ast.Float && !strings.Contains(out, "e") {
		if dot := strings.IndexByte(t, '.'); dot >= 0 && strings.HasSuffix(t, "0") {
			min := len(t) - dot - 1
			i := strings.IndexByte(out, '.')
			if i < 0 {
				i = len(out)
				out += "."
			}
			for d := min - (len(out) - i - 1); d > 0; d-- {
				out += "0"
			}
		}
	}
	return out
}

// quotedString quotes v in single quotes when it holds a double quote and no
// single one, else in double quotes.
func quotedString(v string, implicitKey bool) string {
	hasDouble, hasSingle := strings.Contains(v, "\""), strings.Contains(v, "'")
	if hasDouble && !hasSingle {
		return singleQuotedString(v, implicitKey)
	}
	return doubleQuotedString(v)
}

var spaceAroundBreak = regexp.MustCompile("[ \t]\n|\n[ \t]")

func singleQuotedString(v string, implicitKey bool) string {
	if implicitKey && strings.Contains(v, "\n") || spaceAroundBreak.MatchString(v) {
		return doubleQuotedString(v)
	}
	v = strings.ReplaceAll(v, "'", "''")
	v = regexp.MustCompile("\n+").ReplaceAllStringFunc(v, func(b string) string { return b + "\n" })
	return "'" + v + "'"
}

// doubleQuotedString is JSON with YAML's shorter escapes.
func doubleQuotedString(v string) string {
	j, _ := json.Marshal(v)
	s := string(j)
	// encoding/json escapes <, > and & and writes \u00XX in upper case
	// hex; JSON.stringify does neither.
	s = strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(s)
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && s[i+1] == 'u' && i+6 <= len(s) {
			code := strings.ToLower(s[i+2 : i+6])
			switch code {
			case "0000":
				b.WriteString(`\0`)
			case "0007":
				b.WriteString(`\a`)
			case "000b":
				b.WriteString(`\v`)
			case "001b":
				b.WriteString(`\e`)
			case "0085":
				b.WriteString(`\N`)
			case "00a0":
				b.WriteString(`\_`)
			case "2028":
				b.WriteString(`\L`)
			case "2029":
				b.WriteString(`\P`)
			default:
				if code[:2] == "00" {
					b.WriteString(`\x` + code[2:])
				} else {
					b.WriteString(`\u` + code)
				}
			}
			i += 5
			continue
		}
		if s[i] == '\\' && i+1 < len(s) {
			b.WriteString(s[i : i+2])
			i++
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
