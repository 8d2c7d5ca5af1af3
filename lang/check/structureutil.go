package check

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// Helpers shared by the structure rules (rules_structure.go): step labels,
// key renames and field removals that keep the file's style.

// structureSteps returns the steps to check once each. A step reached through
// a YAML alias shares its fields with the anchored mapping, so a step used
// twice would be reported twice at the same place; when the file has anchors,
// repeats (same place, same context) are dropped.
func structureSteps(in *Info) []*StepInfo {
	if len(in.File.Anchors) == 0 {
		return in.Steps
	}
	type key struct {
		pos int
		ctx ast.StepContext
	}
	seen := make(map[key]bool, len(in.Steps))
	out := make([]*StepInfo, 0, len(in.Steps))
	for _, s := range in.Steps {
		k := key{s.Step.Pos(), s.Step.Context}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, s)
	}
	return out
}

// stepLabel names a step in messages: `step "x"`, `branch "b" of step "p"`,
// `sub-step "s" of loop "l"`.
func stepLabel(s *StepInfo) string {
	label := s.Step.Context.String()
	if s.ID != "" {
		label += fmt.Sprintf(" %q", s.ID)
	}
	if s.Parent != nil && s.Parent.ID != "" {
		switch s.Step.Context {
		case ast.BranchStep:
			label += fmt.Sprintf(" of step %q", s.Parent.ID)
		case ast.SubStep:
			label += fmt.Sprintf(" of loop %q", s.Parent.ID)
		}
	}
	return label
}

// keySpelling writes name as a key in the style of an existing key (quoted
// keys stay quoted, as JSON requires).
func keySpelling(old *ast.Scalar, name string) string {
	switch old.Style {
	case ast.DoubleQuoted:
		return jsonQuote(name)
	case ast.SingleQuoted:
		return "'" + strings.ReplaceAll(name, "'", "''") + "'"
	}
	return name
}

// renameKey is the edit that renames a field's key.
func renameKey(p *Pass, f *ast.Field, name string) source.Edit {
	return p.Edit(f.Key.Span, keySpelling(f.Key, name))
}

// jsonQuote quotes s as a JSON string, which is also a YAML double-quoted
// scalar (no HTML escaping).
func jsonQuote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// removeField is the edit that deletes a field from its mapping: the whole
// line(s) in a block mapping, the entry and one separating comma in a flow
// mapping. ok is false when the layout is unusual (another node on the same
// line), in which case no fix is offered.
func removeField(p *Pass, o *ast.Object, f *ast.Field) (source.Edit, bool) {
	src := p.File.Src.Content
	idx := -1
	for i, g := range o.Fields {
		if g == f {
			idx = i
			break
		}
	}
	if idx < 0 || f.Pos() < 0 || f.End() > len(src) {
		return source.Edit{}, false
	}
	if o.Flow {
		switch {
		case idx+1 < len(o.Fields):
			return p.Edit(source.Span{Start: f.Pos(), End: o.Fields[idx+1].Pos()}, ""), true
		case idx > 0:
			return p.Edit(source.Span{Start: o.Fields[idx-1].End(), End: f.End()}, ""), true
		default:
			return p.Edit(ast.SpanOf(f), ""), true
		}
	}
	// Block mapping: only whitespace may precede the key on its line.
	start := f.Pos()
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	if start > 0 && src[start-1] != '\n' {
		return source.Edit{}, false
	}
	end := f.End()
	if end == 0 || src[end-1] != '\n' {
		// Up to the end of the line: trailing blanks and a comment go too.
		nl := bytes.IndexByte(src[end:], '\n')
		if nl < 0 {
			end = len(src)
		} else {
			rest := bytes.TrimSpace(src[end : end+nl])
			if len(rest) > 0 && rest[0] != '#' {
				return source.Edit{}, false
			}
			end += nl + 1
		}
	}
	return p.Edit(source.Span{Start: start, End: end}, ""), true
}

// isNull reports whether a field's value is YAML null (or an undefined alias).
func isNull(f *ast.Field) bool {
	v := ast.Resolve(f.Value)
	if v == nil {
		return true
	}
	s, ok := v.(*ast.Scalar)
	return ok && s.Kind == ast.Null
}

// nonBlank reports whether a field holds a string that is not blank.
func nonBlank(f *ast.Field) bool {
	if f == nil {
		return false
	}
	s := ast.StringOf(ast.Resolve(f.Value))
	return s != nil && strings.TrimSpace(s.Text) != ""
}

// executes reports which execution field a top-level step runs, as the
// reference picks it: parallel (a mapping), workflow, pipeline,
// shell (run if it is a string, else command), each when non-blank; nil for
// none (an approval-only or input step, or blank text).
func executes(s *ast.Step) *ast.Field {
	if s.ForEach != nil {
		return s.ForEach
	}
	if s.Parallel != nil {
		if _, ok := s.Parallel.Value.(*ast.Parallel); ok {
			return s.Parallel
		}
	}
	if nonBlank(s.Workflow) {
		return s.Workflow
	}
	if nonBlank(s.Pipeline) {
		return s.Pipeline
	}
	shell := s.Run
	if ast.StringOf(ast.Resolve(fieldValue(s.Run))) == nil {
		shell = s.Command
	}
	if nonBlank(shell) {
		return shell
	}
	return nil
}

// yaml11Word is the boolean a YAML 1.1 word meant, and whether the text is one.
func yaml11Word(text string) (bool, bool) {
	switch strings.ToLower(text) {
	case "yes", "on", "y":
		return true, true
	case "no", "off", "n":
		return false, true
	}
	return false, false
}

// typeNameWithValue is ast.TypeName with a boolean's or a number's text:
// "a number (3)".
func typeNameWithValue(v ast.Value) string {
	if s, ok := ast.Resolve(v).(*ast.Scalar); ok && (s.Kind == ast.Bool || s.Kind == ast.Int || s.Kind == ast.Float) {
		return ast.TypeName(v) + " (" + s.Text + ")"
	}
	return ast.TypeName(v)
}
