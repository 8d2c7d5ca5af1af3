package check

import (
	"iter"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file holds the helpers of the args/env rules and
// the security rules. Their names start with "ae" so that they do not
// collide with other groups'.

// ArgEnvName is the suffix N of the LOBSTER_ARG_N variable the runtime sets
// for an arg: the name trimmed, upper-cased (JavaScript's full case
// mapping), each run of characters outside [A-Z0-9] replaced by one "_",
// leading and trailing "_" removed. "" means that no variable is set.
func ArgEnvName(name string) string {
	up := aeUpper(strings.TrimFunc(name, js.IsSpace))
	var b strings.Builder
	sep := false
	for i := 0; i < len(up); i++ {
		c := up[i]
		if 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			if sep && b.Len() > 0 {
				b.WriteByte('_')
			}
			sep = false
			b.WriteByte(c)
			continue
		}
		sep = true
	}
	return b.String()
}

// aeUpper is String.prototype.toUpperCase for the common cases: Go's simple
// mapping plus the special full mappings that yield ASCII letters.
func aeUpper(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToUpper(s)
	}
	var b strings.Builder
	for _, r := range s {
		switch r {
		case 'ß':
			b.WriteString("SS")
		case 'ﬀ':
			b.WriteString("FF")
		case 'ﬁ':
			b.WriteString("FI")
		case 'ﬂ':
			b.WriteString("FL")
		case 'ﬃ':
			b.WriteString("FFI")
		case 'ﬄ':
			b.WriteString("FFL")
		case 'ﬅ', 'ﬆ':
			b.WriteString("ST")
		default:
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	return b.String()
}

// aeArgVar is the LOBSTER_ARG_ variable of an arg, or "" when it has none.
func aeArgVar(name string) string {
	if n := ArgEnvName(name); n != "" {
		return "LOBSTER_ARG_" + n
	}
	return ""
}

// aeArgByVar maps the suffix N of LOBSTER_ARG_N to the declared arg that
// sets it; with collisions, the later one (it wins).
func aeArgByVar(in *Info) map[string]*ast.Field {
	m := make(map[string]*ast.Field, len(in.Args))
	for _, fd := range in.Args {
		if n := ArgEnvName(fd.Name()); n != "" {
			m[n] = fd
		}
	}
	return m
}

// aeIsAllCaps reports whether a name has letters and none is lower case:
// the spelling of an environment variable.
func aeIsAllCaps(name string) bool {
	letter := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z':
			return false
		case 'A' <= c && c <= 'Z':
			letter = true
		}
	}
	return letter
}

// aeIdentEnd is the end of the shell variable name that starts at i.
func aeIdentEnd(text string, i int) int {
	for i < len(text) && parser.IsWordByte(text[i]) {
		i++
	}
	return i
}

// aeDecoded is the decoded offset of a source offset inside a scalar: the
// smallest decoded offset that starts at or after it.
func aeDecoded(s *ast.Scalar, src int) int {
	return sort.Search(len(s.Text)+1, func(i int) bool { return s.Map.Start(i) >= src })
}

// aeSpan is a decoded byte range [I, J) of a scalar's text.
type aeSpan struct{ I, J int }

// aeRefSpans are the decoded ranges of a scalar's references, in order.
func aeRefSpans(s *ast.Scalar, refs []ast.Ref) []aeSpan {
	if len(refs) == 0 {
		return nil
	}
	out := make([]aeSpan, len(refs))
	for k, r := range refs {
		i := aeDecoded(s, r.Pos())
		j := min(i+len(ast.RefText(r)), len(s.Text))
		out[k] = aeSpan{i, j}
	}
	return out
}

// aeEnvBlock is an env field and the step that holds it (nil: workflow env).
type aeEnvBlock struct {
	Field *ast.Field
	Step  *StepInfo
}

// aeEnvBlocks yields the env fields of the file: the workflow's, then the
// steps' in source order.
func aeEnvBlocks(in *Info) iter.Seq[aeEnvBlock] {
	return func(yield func(aeEnvBlock) bool) {
		if w := in.File.Workflow; w != nil && w.Env != nil {
			if !yield(aeEnvBlock{Field: w.Env}) {
				return
			}
		}
		for _, si := range in.Steps {
			if si.Step.Env != nil {
				if !yield(aeEnvBlock{Field: si.Step.Env, Step: si}) {
					return
				}
			}
		}
	}
}

// aeEnvEntries is the set of the entries of every env mapping, to tell an
// env value's reference sites from workflow_args ones.
func aeEnvEntries(in *Info) map[*ast.Field]bool {
	m := map[*ast.Field]bool{}
	for b := range aeEnvBlocks(in) {
		if t, ok := b.Field.Value.(*ast.TemplateMap); ok {
			for _, e := range t.Fields {
				m[e] = true
			}
		}
	}
	return m
}

// aeEnvSets reports whether the env a step sees sets name explicitly: the
// workflow env, the step's env, and the env of its loop or parallel step.
func aeEnvSets(in *Info, si *StepInfo, name string) bool {
	has := func(f *ast.Field) bool {
		if f == nil {
			return false
		}
		t, ok := f.Value.(*ast.TemplateMap)
		return ok && t.Lookup(name) != nil
	}
	if w := in.File.Workflow; w != nil && has(w.Env) {
		return true
	}
	for s := si; s != nil; s = s.Parent {
		if has(s.Step.Env) {
			return true
		}
	}
	return false
}

// aeAssigns reports whether a shell text sets a variable itself: NAME=…,
// for NAME in, read … NAME, export/local NAME. It is a lexical approximation
// used to avoid reporting script-local variables.
func aeAssigns(text, name string) bool {
	if name == "" {
		return false
	}
	for i := 0; ; {
		k := strings.Index(text[i:], name)
		if k < 0 {
			return false
		}
		at := i + k
		end := at + len(name)
		i = at + 1
		if at > 0 && (parser.IsWordByte(text[at-1]) || text[at-1] == '$' || text[at-1] == '{') || end < len(text) && parser.IsWordByte(text[end]) {
			continue
		}
		if end < len(text) && text[end] == '=' && (end+1 == len(text) || text[end+1] != '=') {
			return true
		}
		if end+1 < len(text) && text[end] == '+' && text[end+1] == '=' {
			return true
		}
		line := text[strings.LastIndexByte(text[:at], '\n')+1 : at]
		before := strings.TrimRight(line, " \t")
		for _, kw := range [...]string{"for", "export", "local", "declare", "typeset", "readonly", "getopts"} {
			if strings.HasSuffix(before, kw) && (len(before) == len(kw) || !parser.IsWordByte(before[len(before)-len(kw)-1])) {
				return true
			}
		}
		if r := strings.LastIndex(line, "read "); r >= 0 && (r == 0 || !parser.IsWordByte(line[r-1])) && !strings.ContainsAny(line[r:], "|;&") {
			return true
		}
	}
}

// aeLoopOf is the loop whose variable name is at a site: the loop of a
// sub-step (or of the loop's own env), when name is its item_var or index_var.
func aeLoopOf(si *StepInfo, name string) *StepInfo {
	for s := si; s != nil; s = s.Parent {
		if s.IsLoop() && (name == s.ItemVar || name == s.IndexVar) {
			return s
		}
	}
	return nil
}

// aeInField reports whether a node was written inside a field (not reached
// through an alias), so that an edit of the node changes only that field.
func aeInField(f *ast.Field, n ast.Node) bool {
	return ast.SpanOf(f).Covers(ast.SpanOf(n))
}

// aeIndentAt is the run of spaces from the start of the line of offset to
// offset, and whether only spaces stand there.
func aeIndentAt(src *source.File, offset int) (string, bool) {
	pos := src.Pos(offset)
	start := src.LineStart(pos.Line)
	if start > offset {
		return "", false
	}
	indent := string(src.Content[start:offset])
	return indent, strings.Trim(indent, " ") == ""
}

// aeAddArgEdit declares an arg with an empty default: in an existing args
// mapping, or in a new one before the steps. ok is false when no safe place
// exists (JSON files, aliases, flow mappings written oddly).
func aeAddArgEdit(p *Pass, name string) (source.Edit, bool) {
	w := p.File.Workflow
	if w == nil || p.File.JSON || w.Flow || !parser.IsRefName(name) {
		return source.Edit{}, false
	}
	entry := name + `: {default: ""}`
	src := p.File.Src
	if w.Args != nil {
		a, ok := w.Args.Value.(*ast.Args)
		if !ok || !aeInField(w.Args, a) {
			return source.Edit{}, false
		}
		if a.Flow {
			if a.Pos() >= len(src.Content) || src.Content[a.Pos()] != '{' {
				return source.Edit{}, false
			}
			text := entry
			if len(a.Fields) > 0 {
				text += ", "
			}
			at := a.Pos() + 1
			return p.Edit(source.Span{Start: at, End: at}, text), true
		}
		if len(a.Fields) == 0 {
			return source.Edit{}, false
		}
		first := a.Fields[0].Key.Pos()
		indent, ok := aeIndentAt(src, first)
		if !ok {
			return source.Edit{}, false
		}
		at := first - len(indent)
		return p.Edit(source.Span{Start: at, End: at}, indent+entry+"\n"), true
	}
	anchor := w.Steps
	if anchor == nil && len(w.Fields) > 0 {
		anchor = w.Fields[0]
	}
	if anchor == nil {
		return source.Edit{}, false
	}
	indent, ok := aeIndentAt(src, anchor.Key.Pos())
	if !ok {
		return source.Edit{}, false
	}
	at := anchor.Key.Pos() - len(indent)
	return p.Edit(source.Span{Start: at, End: at}, indent+"args:\n"+indent+"  "+entry+"\n"), true
}

// aeShorten cuts a text for a message.
func aeShorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// aeShellText is the decoded text of a run/command/pipeline field, or "".
func aeShellText(f *ast.Field) string {
	if f == nil {
		return ""
	}
	if s := ast.StringOf(f.Value); s != nil {
		return s.Text
	}
	return ""
}

// aeUnexpanded scans a text that no shell expands (an env value, a cwd) for
// shell syntax the author expected to be expanded: $NAME, ${…} that is not
// a Lobster reference, and $(…). skip holds the decoded ranges of the
// Lobster references, in order, which are left to the caller. fn gets the
// decoded range of each construct and the variable name ("" for $(…)).
func aeUnexpanded(text string, skip []aeSpan, fn func(i, j int, name string)) {
	k := 0
	for i := 0; i < len(text); {
		d := strings.IndexByte(text[i:], '$')
		if d < 0 {
			return
		}
		i += d
		for k < len(skip) && skip[k].J <= i {
			k++
		}
		if k < len(skip) && skip[k].I <= i {
			i = skip[k].J
			continue
		}
		if i+1 >= len(text) {
			return
		}
		switch c := text[i+1]; {
		case c == '{':
			close := strings.IndexByte(text[i+2:], '}')
			if close < 0 {
				i += 2
				continue
			}
			j := i + 2 + close + 1
			n := strings.TrimLeft(text[i+2:j-1], "#!")
			n = n[:aeIdentEnd(n, 0)]
			if n == "" {
				i = j
				continue
			}
			fn(i, j, n)
			i = j
		case c == '(':
			depth, j := 0, i+1
			for ; j < len(text); j++ {
				if text[j] == '(' {
					depth++
				} else if text[j] == ')' {
					depth--
					if depth == 0 {
						j++
						break
					}
				}
			}
			if depth != 0 {
				j = i + 2
			}
			fn(i, j, "")
			i = j
		case parser.IsShellNameStart(c):
			j := aeIdentEnd(text, i+1)
			fn(i, j, text[i+1:j])
			i = j
		default:
			i++
		}
	}
}

// aeEncodeInScalar writes decoded text as it must appear in the scalar's
// source at span: escaped in a double-quoted scalar, with doubled quotes in
// a single-quoted one. It reports false when the text cannot stand there (a
// plain scalar cannot start with a quote).
func aeEncodeInScalar(sc *ast.Scalar, span source.Span, text *string) bool {
	switch sc.Style {
	case ast.DoubleQuoted:
		*text = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(*text)
	case ast.SingleQuoted:
		*text = strings.ReplaceAll(*text, "'", "''")
	case ast.Plain:
		if span.Start <= sc.Pos() && (strings.HasPrefix(*text, `"`) || strings.HasPrefix(*text, "'")) {
			return false
		}
	}
	return true
}

// aeCwdFields lists the cwd fields whose value is a string: the workflow's,
// then the steps'.
func aeCwdFields(in *Info) []*ast.Field {
	var out []*ast.Field
	add := func(f *ast.Field) {
		if f == nil {
			return
		}
		if _, ok := f.Value.(*ast.Template); ok {
			out = append(out, f)
		}
	}
	if w := in.File.Workflow; w != nil {
		add(w.Cwd)
	}
	for _, si := range in.Steps {
		add(si.Step.Cwd)
	}
	return out
}

// aeAbsolutePath reports whether a path is absolute on POSIX or Windows.
func aeAbsolutePath(path string) bool {
	if strings.HasPrefix(path, "/") || strings.HasPrefix(path, `\\`) {
		return true
	}
	return len(path) >= 3 && path[1] == ':' && (path[2] == '\\' || path[2] == '/') &&
		('a' <= path[0] && path[0] <= 'z' || 'A' <= path[0] && path[0] <= 'Z')
}

func aeTokenByte(c byte) bool { return parser.IsWordByte(c) || c == '-' }

// aeHasOutputRef reports whether refs hold a $id.json… or $id.stdout.
func aeHasOutputRef(refs []ast.Ref) bool {
	for _, ref := range refs {
		if r, ok := ref.(*ast.StepRef); ok && aeIsOutputPath(r) {
			return true
		}
	}
	return false
}

// aeIsOutputPath reports whether a reference reads a step's data: stdout,
// or json and the paths below it.
func aeIsOutputPath(r *ast.StepRef) bool {
	if len(r.Path) == 0 {
		return false
	}
	switch r.Path[0].Name {
	case "json":
		return true
	case "stdout":
		return len(r.Path) == 1
	}
	return false
}

// envAddEdit is the edit that adds an entry ("NAME: value") to a step's
// env: a new line in a block env, the first entry of a flow env, or a new
// env key before the step's first key that starts a line. It gives up on
// JSON files and on layouts it cannot write plainly.
func envAddEdit(p *Pass, si *StepInfo, entry string) (source.Edit, bool) {
	if p.File.JSON {
		return source.Edit{}, false
	}
	src := p.File.Src
	s := si.Step
	lineIndent := func(n ast.Node) (int, string, bool) {
		pos := src.Pos(n.Pos())
		indent := string(src.LineText(pos.Line)[:pos.Col-1])
		at := src.LineStart(pos.Line)
		return at, indent, at > 0 && strings.Trim(indent, " ") == ""
	}
	// Text inserted at the start of a line replaces the line break before
	// it, so that two fixes adding to the same step overlap, and --fix
	// applies one of them per run (two "env:" keys would break the file).
	insertLine := func(at int, text string) source.Edit {
		return p.Edit(source.Span{Start: at - 1, End: at}, "\n"+text)
	}
	if s.Env == nil {
		// A new env key on the line before the step's first key that starts
		// its line ("- id: x" shares its line with the dash).
		for _, f := range s.Fields[:min(2, len(s.Fields))] {
			if at, indent, ok := lineIndent(f.Key); ok {
				return insertLine(at, indent+"env:\n"+indent+"  "+entry+"\n"), true
			}
		}
		return source.Edit{}, false
	}
	m, ok := s.Env.Value.(*ast.TemplateMap)
	if !ok {
		return source.Edit{}, false
	}
	if m.Flow {
		sep := ", "
		if len(m.Fields) == 0 {
			sep = ""
		}
		return p.Edit(source.Span{Start: m.Pos(), End: m.Pos() + 1}, "{"+entry+sep), true
	}
	if len(m.Fields) == 0 {
		return source.Edit{}, false
	}
	at, indent, ok := lineIndent(m.Fields[0].Key)
	if !ok {
		return source.Edit{}, false
	}
	return insertLine(at, indent+entry+"\n"), true
}
