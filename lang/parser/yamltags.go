package parser

import (
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/lobsterdev/lobster/lang/ast"
)

// This file holds what the reference's YAML library decides beyond the
// syntax: directives, tags and the kinds they give scalars, and its limit on
// alias expansion.

const yamlTagPrefix = "tag:yaml.org,2002:"

// directive reads a directive line (%YAML or %TAG) at pos.
func (r *yamlReader) directive() {
	start := r.pos
	end := r.lineEnd(start)
	text := r.src[start:end]
	// A comment ends the directive where a blank precedes its "#".
	for i := 1; i < len(text); i++ {
		if text[i] == '#' && isBlank(text[i-1]) {
			text = text[:i]
			break
		}
	}
	parts := strings.FieldsFunc(text, func(c rune) bool { return c == ' ' || c == '\t' || c == '\r' })
	r.pos = end
	switch parts[0] {
	case "%YAML":
		switch {
		case len(parts) != 2:
			r.syntaxError(start, end, "a %%YAML directive takes exactly one version")
		case parts[1] == "1.2":
			r.yaml11 = false
		case parts[1] == "1.1":
			r.yaml11 = true
		case !versionRE.MatchString(parts[1]):
			r.syntaxError(start+6, end, "unsupported YAML version %q", parts[1])
		}
	case "%TAG":
		if len(parts) != 3 {
			r.syntaxError(start, end, "a %%TAG directive takes exactly a handle and a prefix")
			if len(parts) < 3 {
				return
			}
		}
		if r.tagPrefixes == nil {
			r.tagPrefixes = map[string]string{}
		}
		r.tagPrefixes[parts[1]] = parts[2]
	}
	// Other directives are ignored, as the reference does.
}

var versionRE = regexp.MustCompile(`^\d+\.\d+$`)

// scanTag returns the end of the tag that starts with "!" at i: a verbatim
// tag !<…>, or the characters URIs and tag handles use.
func scanTag(src string, i int) int {
	if i+1 < len(src) && src[i+1] == '<' {
		j := i + 2
		for j < len(src) && !isBlank(src[j]) && lineBreakAt(src, j) == 0 && src[j] != '>' && src[j] != '\r' {
			j++
		}
		if j < len(src) && src[j] == '>' {
			j++
		}
		return j
	}
	j := i + 1
	for j < len(src) {
		c := src[j]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		case strings.IndexByte("-#;/?:@&=+$_.!~*'()", c) >= 0:
		case c == '%' && j+2 < len(src) && isHex(src[j+1]) && isHex(src[j+2]):
			j += 2
		default:
			return j
		}
		j++
	}
	return j
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// tagName resolves a tag as written to its full name; it returns "" and a
// reason when the tag cannot be resolved.
func (r *yamlReader) tagName(tag string) (string, string) {
	if tag == "!" {
		return "!", ""
	}
	if strings.HasPrefix(tag, "!<") {
		if !strings.HasSuffix(tag, ">") {
			return tag[2:], "a verbatim tag must end with \">\""
		}
		v := tag[2 : len(tag)-1]
		if v == "!" || v == "!!" {
			return "", "the verbatim tag " + tag + " is not resolved"
		}
		return v, ""
	}
	cut := strings.LastIndexByte(tag, '!')
	handle, suffix := tag[:cut+1], tag[cut+1:]
	why := ""
	if suffix == "" {
		why = "the tag " + tag + " has no suffix"
	}
	prefix, ok := r.tagPrefixes[handle]
	if !ok && handle == "!!" {
		prefix, ok = yamlTagPrefix, true
	}
	switch {
	case ok:
		s, err := url.PathUnescape(suffix)
		if err != nil || !utf8.ValidString(s) {
			return "", "the tag " + tag + " is not a valid URI"
		}
		return prefix + s, why
	case handle == "!":
		return tag, why // a local tag
	}
	return "", "the tag handle " + handle + " is not declared by a %TAG directive"
}

// checkTag reports a tag at start that cannot be resolved.
func (r *yamlReader) checkTag(tag string, start int) {
	if name, why := r.tagName(tag); why != "" {
		r.syntaxError(start, start+len(tag), "%s", why)
	} else if name == yamlTagPrefix+"merge" {
		r.errorAt("yaml-merge-key", start, start+len(tag),
			"the !!merge tag is not supported: write the merged fields out")
	}
}

// resolveScalar sets the kind of a scalar from its tag, or for an untagged
// plain scalar from its text, under the YAML 1.2 core schema. Like the
// reference, a tag that does not fit the text, or that the core schema
// does not know, leaves a string.
func (r *yamlReader) resolveScalar(s *ast.Scalar, p props) {
	name := ""
	if p.tag != "" {
		name, _ = r.tagName(p.tag)
	}
	if name == "" {
		// Untagged, or a tag that cannot be resolved (an error): a plain
		// scalar's text decides.
		switch {
		case s.Style != ast.Plain:
			s.Kind = ast.String
		case r.yaml11:
			resolvePlain11(s)
		default:
			resolvePlain(s)
		}
		return
	}
	t := s.Text
	s.Kind = ast.String
	if !strings.HasPrefix(name, yamlTagPrefix) {
		return // "!" or a tag the reference does not know
	}
	switch name[len(yamlTagPrefix):] {
	case "null":
		if isCoreNull(t) {
			s.Kind = ast.Null
		}
	case "bool":
		b, ok := coreBool(t)
		if r.yaml11 {
			b, ok = bool11(t)
		}
		if ok {
			s.Kind, s.Bool = ast.Bool, b
		}
	case "int":
		v, ok := coreInt(t)
		if r.yaml11 {
			v, ok = int11(t)
		}
		if ok {
			s.Kind, s.Num = ast.Int, v
		}
	case "float":
		v, ok := coreFloat(t)
		if r.yaml11 {
			v, ok = float11(t)
		}
		if ok {
			s.Kind, s.Num = ast.Float, v
		}
	case "timestamp":
		if !timestampRE.MatchString(t) {
			r.syntaxError(p.tagStart, p.tagStart+len(p.tag), "!!timestamp expects a date (yyyy-mm-dd)")
		}
	}
}

var timestampRE = regexp.MustCompile(`^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:t|T|[ \t]+)([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(\.[0-9]+)?)(?:[ \t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?)?$`)

// checkCollectionTag applies the rules of the tags the reference knows for
// collections: a !!set holds only keys, each entry of an !!omap or !!pairs
// is a single pair (and an !!omap's keys are unique).
func (r *yamlReader) checkCollectionTag(v ast.Value, p props) {
	if p.tag == "" {
		return
	}
	name, _ := r.tagName(p.tag)
	at := func(format string, args ...any) {
		r.syntaxError(p.tagStart, p.tagStart+len(p.tag), format, args...)
	}
	switch name {
	case yamlTagPrefix + "set":
		if m, ok := v.(*ast.Mapping); ok {
			for _, f := range m.Fields {
				if !isEmptyValue(f) {
					at("the entries of a !!set must all have null values")
					return
				}
			}
		}
	case yamlTagPrefix + "omap", yamlTagPrefix + "pairs":
		s, ok := v.(*ast.Sequence)
		if !ok {
			return
		}
		var seen []*ast.Field
		for i, it := range s.Items {
			m, ok := it.(*ast.Mapping)
			if !ok {
				// A plain entry is a key without a value.
				pair := r.singlePair(it)
				if name == yamlTagPrefix+"pairs" {
					s.Items[i] = pair
					continue
				}
				m = pair
			}
			if len(m.Fields) > 1 {
				at("each pair of a %s must have its own \"- \"", p.tag)
				return
			}
			if len(m.Fields) == 0 {
				m.Fields = []*ast.Field{r.pair(r.emptyAt(m.Span.Start, noProps()), r.emptyAt(m.Span.Start, noProps()), m.Span.Start)}
				continue
			}
			if name == yamlTagPrefix+"omap" {
				for _, f := range seen {
					if sameKey(f, m.Fields[0]) {
						at("an !!omap must not hold a key twice")
						return
					}
				}
				seen = append(seen, m.Fields[0])
			}
		}
	}
}

// singlePair makes a one-pair mapping of a key without a value.
func (r *yamlReader) singlePair(key ast.Value) *ast.Mapping {
	m := &ast.Mapping{}
	m.Fields = []*ast.Field{r.pair(key, r.emptyAt(key.End(), noProps()), key.Pos())}
	m.Span = ast.SpanOf(key)
	return m
}

// isEmptyValue reports whether a field's value is null.
func isEmptyValue(f *ast.Field) bool {
	s, ok := f.Value.(*ast.Scalar)
	return ok && s.Kind == ast.Null
}

// aliasUse counts the uses of an anchored node, for the alias limit.
type aliasUse struct{ count, weight int }

// maxAliasCount is the reference's limit (the `yaml` library's
// maxAliasCount): an anchored node's uses times the aliases it holds may not
// exceed it.
const maxAliasCount = 100

// countAlias counts a use of an anchored node as the reference does when it
// converts the document, and reports the file when the uses exceed its
// limit against "billion laughs" expansion.
func (r *yamlReader) countAlias(a *ast.Alias) {
	if r.aliasUses == nil {
		r.aliasUses = map[ast.Value]*aliasUse{}
	}
	u := r.aliasUses[a.Target]
	if u == nil {
		u = &aliasUse{count: 1}
		r.aliasUses[a.Target] = u
	}
	u.count++
	if u.weight == 0 {
		u.weight = r.aliasWeight(a.Target, 0)
	}
	if u.count*u.weight > maxAliasCount && !r.aliasLimit {
		r.aliasLimit = true // reported once: the reference stops at the first
		r.errorAt("limit-exceeded", a.Span.Start, a.Span.End,
			"alias %q expands its anchor too often: the reference rejects the file (\"Excessive alias count indicates a resource exhaustion attack\")", "*"+a.Name)
	}
}

// aliasWeight is the number of nodes an alias of v stands for in the
// reference's count: 1 for a scalar, for a collection the most of any of its
// entries, for an alias its anchor's uses times weight.
func (r *yamlReader) aliasWeight(v ast.Value, depth int) int {
	if depth > maxDepth {
		return 1
	}
	w := 0
	switch v := v.(type) {
	case *ast.Alias:
		if u := r.aliasUses[v.Target]; u != nil {
			return u.count * u.weight
		}
		return 0
	case *ast.Mapping:
		for _, f := range v.Fields {
			k := ast.Value(f.Key)
			if f.KeyNode() != nil {
				k = f.KeyNode()
			}
			w = max(w, r.aliasWeight(k, depth+1), r.aliasWeight(f.Value, depth+1))
		}
		return w
	case *ast.Sequence:
		for _, it := range v.Items {
			w = max(w, r.aliasWeight(it, depth+1))
		}
		return w
	}
	return 1
}
