// Package render substitutes args and step results into workflow text as
// the reference does: ${name} becomes the arg's
// String(), $id.path the rendered value found by walking the step's result,
// and a whole-value reference yields the raw value.
//
// The reference grammar is lang/parser's (ScanText); this package adds only
// what the runtime does with each reference.
package render

import (
	"math"
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/js"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
)

// Results are the step results so far: step id → result record (id,
// stdout, json, approved, …).
type Results map[string]*jsvalue.Object

// Template substitutes args and step references in one pass over text:
// what a substitution inserts is data and is never scanned again. An arg
// whose value is "$secret.stdout" inserts that text, not the step's
// output. (The reference substitutes args first and then scans the result
// for step references, so an arg value can pull in any step's output; this
// is a deliberate difference.)
func Template(text string, args *jsvalue.Object, results Results) string {
	return replace(text, func(r parser.TextRef) (string, bool) {
		switch r.Kind {
		case parser.ArgText:
			return arg(r, args)
		case parser.StepText:
			return ref(r, results)
		}
		return "", false
	})
}

// Args replaces each ${name} naming an arg with String(value); any other
// ${…} stays as written, for the shell to expand.
func Args(text string, args *jsvalue.Object) string {
	return replace(text, func(r parser.TextRef) (string, bool) {
		if r.Kind != parser.ArgText {
			return "", false
		}
		return arg(r, args)
	})
}

// Refs replaces each $id.path whose step has a result with the rendered
// value at path; a reference to a step with no result (a typo, a later
// step, $HOME.json) stays as written.
func Refs(text string, results Results) string {
	return replace(text, func(r parser.TextRef) (string, bool) {
		if r.Kind != parser.StepText {
			return "", false
		}
		return ref(r, results)
	})
}

// arg is the text of an ${name} reference: String(value), or false when
// there is no such arg.
func arg(r parser.TextRef, args *jsvalue.Object) (string, bool) {
	v, ok := args.Get(r.Name)
	if !ok {
		return "", false
	}
	return String(v), true
}

// ref is the text of a $id.path reference: the rendered value at path, or
// false when the step has no result.
func ref(r parser.TextRef, results Results) (string, bool) {
	record, ok := results[r.Name]
	if !ok {
		return "", false
	}
	v := Walk(record, r.Path)
	if v == jsvalue.Undefined && (r.Path == "approved" || r.Path == "skipped") {
		return "false", true
	}
	return value(v), true
}

// replace rewrites the references of text with what sub returns for them,
// leaving those it declines.
func replace(text string, sub func(parser.TextRef) (string, bool)) string {
	var b strings.Builder
	last := 0
	for r := range parser.ScanText(text) {
		s, ok := sub(r)
		if !ok {
			continue
		}
		b.WriteString(text[last:r.Start])
		b.WriteString(s)
		last = r.End
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// WholeRef splits a value that is exactly one step reference (after
// trimming), as stdin and for_each take them.
func WholeRef(text string) (id, path string, ok bool) {
	text = js.Trim(text)
	for r := range parser.ScanText(text) {
		return r.Name, r.Path, r.Kind == parser.StepText && r.Start == 0 && r.End == len(text)
	}
	return "", "", false
}

// Walk is the value at the dotted path inside a result record, or
// Undefined. Array segments must be integer indices in range (JavaScript's
// Number() reading: "01", "1e0" and "0x1" are 1); object segments must be
// own keys (no prototype lookups, unlike the reference: "$a.json.constructor"
// is undefined here).
func Walk(record *jsvalue.Object, path string) any {
	var current any = record
	for field := range strings.SplitSeq(path, ".") {
		switch c := current.(type) {
		case []any:
			i, ok := arrayIndex(field, len(c))
			if !ok {
				return jsvalue.Undefined
			}
			current = c[i]
		case *jsvalue.Object:
			v, ok := c.Get(field)
			if !ok {
				return jsvalue.Undefined
			}
			current = v
		default: // null, undefined, or not an object
			return jsvalue.Undefined
		}
	}
	return current
}

// arrayIndex reads field as JavaScript's Number(field) does ("01", "1e0"
// and "0x1" are 1) and reports an integer index below n.
func arrayIndex(field string, n int) (int, bool) {
	f, ok := js.Number(field)
	if !ok || f != math.Trunc(f) || f < 0 || f >= float64(n) {
		return 0, false
	}
	return int(f), true
}

// value renders a referenced value into text: null and undefined as
// nothing, strings as they are, numbers and booleans as String() does,
// objects and arrays as compact JSON.
func value(v any) string {
	switch v := v.(type) {
	case nil, string, bool, float64:
		if v == nil {
			return ""
		}
		return String(v)
	}
	if v == jsvalue.Undefined {
		return ""
	}
	return jsvalue.Stringify(v, "")
}

// String is JavaScript's String(v): arrays join their elements with ","
// (null and undefined elements as nothing), objects are "[object Object]".
func String(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case float64:
		switch {
		case math.IsNaN(v):
			return "NaN"
		case math.IsInf(v, 1):
			return "Infinity"
		case math.IsInf(v, -1):
			return "-Infinity"
		}
		return jsvalue.FormatNumber(v)
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			if e != nil && e != jsvalue.Undefined {
				parts[i] = String(e)
			}
		}
		return strings.Join(parts, ",")
	case *jsvalue.Object:
		return "[object Object]"
	}
	return "undefined"
}
