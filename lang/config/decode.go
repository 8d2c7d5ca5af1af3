package config

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/source"
)

// decoder reads the generic YAML values of the configuration into the
// types of types.go, through their json names, and reports every value it
// cannot take at its exact place: the same types make the JSON Schema, so
// what the schema allows is what the decoder takes.
type decoder struct {
	file  *source.File
	diags []source.Diagnostic
	depth int
	// keys and values are where each decoded entry is, by its path
	// ("rules.unknown-key", "env[0]", "commands.x.flags.n.type").
	keys   map[string]*ast.Scalar
	values map[string]ast.Value
}

// join is the path of an entry of the value at path.
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// describe names the value at path in messages.
func describe(path string) string {
	if path == "" {
		return "the configuration"
	}
	return path
}

func (d *decoder) report(code string, sev source.Severity, sp source.Span, format string, args ...any) {
	d.diags = append(d.diags, source.Diagnostic{
		File: d.file.Name, Range: d.file.RangeOf(sp), Severity: sev, Code: code,
		Message: fmt.Sprintf(format, args...),
	})
}

// invalid reports a value the configuration cannot take.
func (d *decoder) invalid(n ast.Node, format string, args ...any) {
	d.report(CodeInvalid, source.Error, ast.SpanOf(n), format, args...)
}

// kind names the YAML type of a value for messages ("nothing" where
// there is no value).
func kind(v ast.Value) string {
	if v == nil {
		return "nothing"
	}
	return ast.TypeName(v)
}

// jsonFields lists the fields of a struct type by their json names.
func jsonFields(t reflect.Type) (names []string, index map[string]int) {
	index = map[string]int{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		names = append(names, name)
		index[name] = i
	}
	return names, index
}

// decode reads v into the value that ptr points to; what describes where
// it is ("rules", "commands.x.flags") for messages.
func (d *decoder) decode(v ast.Value, ptr reflect.Value, path string) {
	v = ast.Resolve(v)
	if v == nil {
		return // an undefined alias: the parser reported it
	}
	d.values[path] = v
	what := describe(path)
	d.depth++
	defer func() { d.depth-- }()
	if d.depth > 32 {
		d.invalid(v, "%s is nested too deeply", what)
		return
	}
	t := ptr.Elem().Type()
	if s, ok := v.(*ast.Scalar); ok && s.Kind == ast.Null && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Map || t.Kind() == reflect.Slice) {
		return // "key:" with no value: the default
	}
	switch t.Kind() {
	case reflect.Pointer:
		nv := reflect.New(t.Elem())
		d.decode(v, nv, what)
		ptr.Elem().Set(nv)
	case reflect.Struct:
		m, ok := v.(*ast.Mapping)
		if !ok {
			d.invalid(v, "%s must be a mapping, not %s", what, kind(v))
			return
		}
		names, index := jsonFields(t)
		for _, f := range m.Fields {
			i, known := index[f.Name()]
			if !known {
				msg := fmt.Sprintf("unknown key %q in %s; lobster ignores it", f.Name(), what)
				if near := check.Suggest(f.Name(), names); near != "" {
					msg += fmt.Sprintf("; did you mean %q?", near)
				} else {
					msg += fmt.Sprintf(" (the keys are %s)", strings.Join(names, ", "))
				}
				d.report(CodeUnknownKey, source.Warning, f.Key.Span, "%s", msg)
				continue
			}
			d.keys[join(path, f.Name())] = f.Key
			d.decode(f.Value, ptr.Elem().Field(i).Addr(), join(path, f.Name()))
		}
		for i := range t.NumField() {
			sf := t.Field(i)
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			if strings.Contains(sf.Tag.Get("jsonschema"), "required") && !hasKey(m, name) {
				d.invalid(m, "%s needs a %q", what, name)
			}
		}
	case reflect.Map:
		m, ok := v.(*ast.Mapping)
		if !ok {
			d.invalid(v, "%s must be a mapping, not %s", what, kind(v))
			return
		}
		out := reflect.MakeMapWithSize(t, len(m.Fields))
		for _, f := range m.Fields {
			if f.Key.Kind != ast.String && f.Key.Kind != ast.Int && f.Key.Kind != ast.Float {
				d.invalid(f.Key, "the keys of %s must be strings", what)
				continue
			}
			ev := reflect.New(t.Elem())
			d.keys[join(path, f.Name())] = f.Key
			d.decode(f.Value, ev, join(path, f.Name()))
			out.SetMapIndex(reflect.ValueOf(f.Name()), ev.Elem())
		}
		ptr.Elem().Set(out)
	case reflect.Slice:
		seq, ok := v.(*ast.Sequence)
		if !ok {
			d.invalid(v, "%s must be a list, not %s", what, kind(v))
			return
		}
		out := reflect.MakeSlice(t, 0, len(seq.Items))
		for i, item := range seq.Items {
			ev := reflect.New(t.Elem())
			d.decode(item, ev, fmt.Sprintf("%s[%d]", path, i))
			out = reflect.Append(out, ev.Elem())
		}
		ptr.Elem().Set(out)
	case reflect.String:
		s, ok := v.(*ast.Scalar)
		if !ok || s.Kind != ast.String {
			d.invalid(v, "%s must be a string, not %s", what, kind(v))
			return
		}
		ptr.Elem().SetString(s.Text)
	case reflect.Bool:
		s, ok := v.(*ast.Scalar)
		if !ok || s.Kind != ast.Bool {
			d.invalid(v, "%s must be true or false, not %s", what, kind(v))
			return
		}
		ptr.Elem().SetBool(s.Bool)
	case reflect.Int:
		s, ok := v.(*ast.Scalar)
		if !ok || s.Kind != ast.Int || s.Num != math.Trunc(s.Num) {
			d.invalid(v, "%s must be an integer, not %s", what, kind(v))
			return
		}
		ptr.Elem().SetInt(int64(s.Num))
	default:
		panic("config: no decoding for " + t.String())
	}
}

func hasKey(m *ast.Mapping, name string) bool {
	for _, f := range m.Fields {
		if f.Name() == name {
			return true
		}
	}
	return false
}
