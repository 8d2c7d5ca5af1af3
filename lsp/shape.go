package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/parser"
)

// This file works out what is known, before a run, of the JSON a step
// result holds: the keys of $id.json, $id.response and $id.subject, and
// where each comes from. Completion offers the
// keys after "$id.json." and hover says where a key comes from.

// A shape is what is known of a JSON value: the keys of an object, and
// the shape of an array's items. A value that may be one item or an array
// of them (a pipeline's json) has both.
type shape struct {
	keys []shapeKey // in the order they are written
	elem *shape     // the items' shape when the value is (or may be) an array
}

// shapeKey is one known key.
type shapeKey struct {
	name   string
	detail string // where the key comes from, in a few plain words
	origin string // where the key comes from, a markdown sentence
	sub    *shape // what is known of its value, or nil
}

// key finds a key of the shape.
func (sh *shape) key(name string) *shapeKey {
	if sh == nil {
		return nil
	}
	for i := range sh.keys {
		if sh.keys[i].name == name {
			return &sh.keys[i]
		}
	}
	return nil
}

// walk follows path segments (keys, and array indexes into elem).
func (sh *shape) walk(path []string) *shape {
	for _, seg := range path {
		if sh == nil {
			return nil
		}
		if k := sh.key(seg); k != nil {
			sh = k.sub
			continue
		}
		if isIndex(seg) && sh.elem != nil {
			sh = sh.elem
			continue
		}
		return nil
	}
	return sh
}

func isIndex(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// maxShapeDepth bounds how far shapes follow steps into one another and
// into child workflows.
const maxShapeDepth = 8

// shaper computes shapes for one request. It reads child workflows through
// read (the editor's buffers first) and never follows a file twice.
type shaper struct {
	read  func(path string) ([]byte, error)
	files map[string]bool // child files being followed
	depth int
}

func newShaper(read func(string) ([]byte, error)) *shaper {
	return &shaper{read: read, files: map[string]bool{}}
}

// refShape is the shape of the value $id.field.path… names at site.
func (sp *shaper) refShape(an *analysis, site *check.StepInfo, id string, path []string) *shape {
	if len(path) == 0 {
		return nil
	}
	res := an.info().Resolve(site, id)
	if res.Target == nil {
		return nil
	}
	var sh *shape
	if res.LoopVar {
		if path[0] == "json" && id == res.Target.ItemVar {
			sh = sp.loopItemShape(an, res.Target)
		}
	} else {
		sh = sp.fieldShape(an, res.Target, path[0])
	}
	return sh.walk(path[1:])
}

// fieldShape is the shape of a result field of a step: json, response or
// subject.
func (sp *shaper) fieldShape(an *analysis, si *check.StepInfo, field string) *shape {
	if sp.depth >= maxShapeDepth {
		return nil
	}
	sp.depth++
	defer func() { sp.depth-- }()
	switch field {
	case "json":
		return sp.jsonShape(an, si)
	case "response":
		return responseShape(si)
	case "subject":
		return sp.subjectShape(an, si)
	}
	return nil
}

// jsonShape is the shape of a step's json.
func (sp *shaper) jsonShape(an *analysis, si *check.StepInfo) *shape {
	st := si.Step
	switch {
	case st.Run != nil || st.Command != nil:
		fd := st.Run
		if fd == nil {
			fd = st.Command
		}
		text, ok := printedJSON(an.fieldText(fd))
		if !ok {
			return nil
		}
		detail := fd.Name() + " of " + si.ID
		return jsonTextShape(text, detail, fmt.Sprintf("printed by the `%s` of `%s` (a JSON literal)", fd.Name(), si.ID))
	case st.Pipeline != nil:
		return pipelineShape(si)
	case st.Workflow != nil:
		return sp.childShape(an, si)
	case st.Parallel != nil:
		sh := &shape{}
		for _, b := range si.Children {
			if b.ID == "" {
				continue
			}
			sh.keys = append(sh.keys, shapeKey{
				name:   b.ID,
				detail: "branch of " + si.ID,
				origin: fmt.Sprintf("the json of the branch `%s` of the parallel step `%s` (missing when the branch's output is not JSON)", b.ID, si.ID),
				sub:    sp.fieldShape(an, b, "json"),
			})
		}
		return nonEmpty(sh)
	case st.ForEach != nil:
		item := &shape{}
		item.keys = append(item.keys, shapeKey{
			name: si.ItemVar, detail: "item_var of " + si.ID,
			origin: fmt.Sprintf("the item of the iteration (`item_var` of the for_each loop `%s`)", si.ID),
			sub:    sp.loopItemShape(an, si),
		}, shapeKey{
			name: si.IndexVar, detail: "index_var of " + si.ID,
			origin: fmt.Sprintf("the 0-based index of the iteration (`index_var` of the for_each loop `%s`)", si.ID),
		})
		for _, sub := range si.Children {
			if sub.ID == "" || item.key(sub.ID) != nil {
				continue
			}
			item.keys = append(item.keys, shapeKey{
				name: sub.ID, detail: "sub-step of " + si.ID,
				origin: fmt.Sprintf("the json (else the stdout) of the sub-step `%s` in the iteration of the for_each loop `%s` (missing when it was skipped)", sub.ID, si.ID),
				sub:    sp.fieldShape(an, sub, "json"),
			})
		}
		return &shape{elem: item}
	case si.IsInput():
		return nil
	}
	// A step that runs nothing (approval only): its result is its stdin.
	return sp.stdinShape(an, si)
}

// loopItemShape is the shape of a loop's items: the items of the array its
// for_each reference names, when known.
func (sp *shaper) loopItemShape(an *analysis, loop *check.StepInfo) *shape {
	if sp.depth >= maxShapeDepth || loop.Step.ForEach == nil {
		return nil
	}
	sp.depth++
	defer func() { sp.depth-- }()
	sh := sp.wholeRefShape(an, loop.Step.ForEach)
	if sh == nil {
		return nil
	}
	return sh.elem
}

// wholeRefShape is the shape of a field whose value is exactly one
// $id.path reference (stdin, for_each).
func (sp *shaper) wholeRefShape(an *analysis, fd *ast.Field) *shape {
	tm, ok := fd.Value.(*ast.Template)
	if !ok || len(tm.Refs) != 1 {
		return nil
	}
	r, ok := tm.Refs[0].(*ast.StepRef)
	if !ok || strings.TrimSpace(tm.Scalar.Text) != an.file.Src.TextOf(ast.SpanOf(r)) {
		return nil
	}
	rs := an.refSite(r)
	if rs == nil {
		return nil
	}
	path := make([]string, len(r.Path))
	for i, seg := range r.Path {
		path[i] = seg.Name
	}
	return sp.refShape(an, rs.Step, r.ID, path)
}

// stdinShape is the shape of a step's stdin value: a mapping written in
// place, or a whole reference.
func (sp *shaper) stdinShape(an *analysis, si *check.StepInfo) *shape {
	fd := si.Step.Stdin
	if fd == nil {
		return nil
	}
	if m, ok := ast.Resolve(fd.Value).(*ast.Mapping); ok {
		return valueShape(parser.JSONValue(m), "stdin of "+si.ID, fmt.Sprintf("a key of the `stdin` mapping of `%s`", si.ID))
	}
	return sp.wholeRefShape(an, fd)
}

// subjectShape is the shape of an input step's subject: its stdin, or else
// the json of the step just before it.
func (sp *shaper) subjectShape(an *analysis, si *check.StepInfo) *shape {
	if !si.IsInput() {
		return nil
	}
	if si.Step.Stdin != nil {
		return sp.stdinShape(an, si)
	}
	if si.Parent != nil || si.Top <= 0 || si.Top > len(an.info().Top) {
		return nil
	}
	prev := an.info().Top[si.Top-1]
	if prev.Step.When != nil || prev.Step.Condition != nil || prev.Step.OnError != nil {
		return nil // it may not have completed
	}
	return sp.fieldShape(an, prev, "json")
}

// responseShape is the shape of an input step's response: the properties
// of its responseSchema.
func responseShape(si *check.StepInfo) *shape {
	if !si.IsInput() {
		return nil
	}
	in, ok := si.Step.Input.Value.(*ast.Input)
	if !ok || in.ResponseSchema == nil {
		return nil
	}
	return schemaShape(parser.JSONValue(in.ResponseSchema.Value), si.ID, 0)
}

func schemaShape(v any, id string, depth int) *shape {
	schema, _ := v.(map[string]any)
	if schema == nil || depth > maxShapeDepth {
		return nil
	}
	sh := &shape{}
	props, _ := schema["properties"].(map[string]any)
	for _, k := range sortedKeys(props) {
		origin := fmt.Sprintf("a property of the `responseSchema` of the input step `%s`", id)
		p, _ := props[k].(map[string]any)
		if d, _ := p["description"].(string); d != "" {
			origin += ": " + d
		}
		sh.keys = append(sh.keys, shapeKey{name: k, detail: "response of " + id, origin: origin, sub: schemaShape(p, id, depth+1)})
	}
	sh.elem = schemaShape(schema["items"], id, depth+1)
	return nonEmpty(sh)
}

// pipelineShape is the shape of a pipeline step's json when its last
// stage makes objects of known keys: map --wrap K (and map's K=V
// assignments), pick a,b. The json is the single item, or the array of
// items, so both get the keys.
func pipelineShape(si *check.StepInfo) *shape {
	pl, ok := si.Step.Pipeline.Value.(*ast.Pipeline)
	if !ok || len(pl.Stages) == 0 {
		return nil
	}
	stage := pl.Stages[len(pl.Stages)-1]
	if stage.Name == nil {
		return nil
	}
	c, ok := commands.Lookup(stage.Name.Text)
	if !ok {
		return nil
	}
	item := &shape{}
	add := func(name, how string) {
		if name == "" || item.key(name) != nil {
			return
		}
		item.keys = append(item.keys, shapeKey{
			name: name, detail: c.Name + " in " + si.ID,
			origin: fmt.Sprintf("made by `%s`, the last stage of the pipeline of `%s`", how, si.ID),
		})
	}
	switch c.Name {
	case "map":
		wrap, unwrap := "", false
		var assigns []string
		for _, a := range stage.Args {
			switch a := a.(type) {
			case *ast.Flag:
				switch {
				case a.Name == "wrap" && a.Value != nil:
					wrap = a.Value.Text
				case a.Name == "unwrap":
					unwrap = true
				}
			case *ast.Word:
				if k, _, ok := strings.Cut(a.Text, "="); ok && strings.TrimSpace(k) != "" {
					assigns = append(assigns, strings.TrimSpace(k))
				}
			}
		}
		if unwrap {
			return nil
		}
		if wrap != "" {
			add(wrap, "map --wrap "+wrap)
		}
		for _, k := range assigns {
			add(k, "map "+k+"=…")
		}
	case "pick":
		for _, a := range stage.Args {
			if w, ok := a.(*ast.Word); ok {
				for _, k := range strings.Split(w.Text, ",") {
					if k = strings.TrimSpace(k); k != "" {
						add(k, "pick "+w.Text)
					}
				}
				break
			}
		}
	}
	if len(item.keys) == 0 {
		return nil
	}
	return &shape{keys: item.keys, elem: item}
}

// childShape is the shape of a workflow: step's json: the json of the
// child's last step, when known (the child's output is that one item).
func (sp *shaper) childShape(an *analysis, si *check.StepInfo) *shape {
	if an.path == "" {
		return nil
	}
	file, ok := an.info().SubWorkflowFile(si, an.path)
	if !ok || sp.files[filepath.Clean(file)] {
		return nil
	}
	text, err := sp.read(file)
	if err != nil {
		return nil
	}
	sp.files[filepath.Clean(file)] = true
	defer delete(sp.files, filepath.Clean(file))
	cf, _ := parser.Parse(file, text)
	child := &analysis{file: cf, m: Mapper{File: cf.Src}, path: file}
	top := child.info().Top
	if len(top) == 0 {
		return nil
	}
	last := top[len(top)-1]
	inner := sp.fieldShape(child, last, "json")
	if inner == nil || len(inner.keys) == 0 {
		return nil
	}
	out := &shape{}
	for _, k := range inner.keys {
		k.detail = "from " + filepath.Base(file)
		k.origin = fmt.Sprintf("%s: the last step of the child workflow `%s`", k.origin, filepath.Base(file))
		out.keys = append(out.keys, k)
	}
	return out
}

// printedJSON is the text a shell command prints when it is a plain echo
// or printf of a literal that looks like JSON: echo '{"a":1}', echo -n
// "{\"a\":1}", printf '%s\n' '[1]', printf '{"a":1}', or a cat of a
// heredoc that holds one (see heredocText).
func printedJSON(text string) (string, bool) {
	if body, ok := heredocText(strings.TrimSpace(text)); ok {
		body = strings.TrimSpace(body)
		if (strings.HasPrefix(body, "{") || strings.HasPrefix(body, "[")) && json.Valid([]byte(body)) {
			return body, true
		}
		return "", false
	}
	words, ok := simpleWords(strings.TrimSpace(text))
	if !ok || len(words) < 2 {
		return "", false
	}
	var out string
	switch words[0] {
	case "echo":
		args := words[1:]
		for len(args) > 0 && isEchoFlag(args[0]) {
			args = args[1:]
		}
		out = strings.Join(args, " ")
	case "printf":
		switch {
		case len(words) == 2 && !strings.ContainsAny(words[1], `%\`):
			out = words[1]
		case len(words) == 3 && (words[1] == "%s" || words[1] == `%s\n`):
			out = words[2]
		default:
			return "", false
		}
	default:
		return "", false
	}
	out = strings.TrimSpace(out)
	if !strings.HasPrefix(out, "{") && !strings.HasPrefix(out, "[") {
		return "", false
	}
	if !json.Valid([]byte(out)) {
		return "", false
	}
	return out, true
}

// heredocText is the body of a heredoc that text prints and does nothing
// else with: "cat <<EOF" (or <<'EOF', <<"EOF", <<-EOF, "cat << EOF") on
// the first line, the body, the delimiter alone on the last line. With an
// unquoted delimiter the shell expands $, ` and \ in the body, so a body
// with any of them is not taken.
func heredocText(text string) (string, bool) {
	first, rest, ok := strings.Cut(text, "\n")
	if !ok {
		return "", false
	}
	words := strings.Fields(first)
	if len(words) < 2 || words[0] != "cat" || !strings.HasPrefix(words[1], "<<") {
		return "", false
	}
	op := words[1]
	delim := strings.TrimPrefix(strings.TrimPrefix(op, "<<"), "-")
	if len(words) == 3 && (op == "<<" || op == "<<-") {
		delim = words[2]
	} else if len(words) != 2 {
		return "", false
	}
	quoted := len(delim) >= 2 && (delim[0] == '\'' || delim[0] == '"') && delim[len(delim)-1] == delim[0]
	if quoted {
		delim = delim[1 : len(delim)-1]
	}
	if delim == "" || strings.ContainsAny(delim, "'\"$`\\ ") {
		return "", false
	}
	stripTabs := strings.HasPrefix(op, "<<-")
	lines := strings.Split(rest, "\n")
	for i, l := range lines {
		if stripTabs {
			l = strings.TrimLeft(l, "\t")
			lines[i] = l
		}
		if l != delim {
			continue
		}
		if i != len(lines)-1 {
			return "", false // something runs after the heredoc
		}
		body := strings.Join(lines[:i], "\n")
		if !quoted && strings.ContainsAny(body, "$`\\") {
			return "", false
		}
		return body, true
	}
	return "", false
}

func isEchoFlag(w string) bool {
	if len(w) < 2 || w[0] != '-' {
		return false
	}
	return strings.Trim(w[1:], "neE") == ""
}

// simpleWords splits one simple command into its words after quote
// removal. It reports false for anything but words: operators, several
// commands, expansions outside single quotes, comments.
func simpleWords(text string) ([]string, bool) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(text[i+1:], '\'')
			if end < 0 {
				return nil, false
			}
			cur.WriteString(text[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(text) && text[i] != '"'; i++ {
				switch text[i] {
				case '\\':
					if i+1 < len(text) && strings.IndexByte("\"\\$`", text[i+1]) >= 0 {
						i++
					}
				case '$', '`':
					return nil, false
				}
				cur.WriteByte(text[i])
			}
			if i >= len(text) {
				return nil, false
			}
			inWord = true
		case c == '\\':
			if i+1 >= len(text) || text[i+1] == '\n' {
				return nil, false
			}
			i++
			cur.WriteByte(text[i])
			inWord = true
		case strings.IndexByte("|&;<>()$`\n#*?[", c) >= 0 && !(c == '#' && inWord):
			return nil, false
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, true
}

// jsonTextShape is the shape of a JSON text, keys in their written order.
func jsonTextShape(text, detail, origin string) *shape {
	dec := json.NewDecoder(bytes.NewReader([]byte(text)))
	dec.UseNumber()
	sh, err := decodeShape(dec, detail, origin, 0)
	if err != nil {
		return nil
	}
	return sh
}

func decodeShape(dec *json.Decoder, detail, origin string, depth int) (*shape, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil, nil // a scalar
	}
	sh := &shape{}
	switch d {
	case '{':
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			sub, err := decodeShape(dec, detail, origin, depth+1)
			if err != nil {
				return nil, err
			}
			if prev := sh.key(k); prev != nil {
				prev.sub = sub // the last one wins, as in JSON.parse
				continue
			}
			sh.keys = append(sh.keys, shapeKey{name: k, detail: detail, origin: origin, sub: sub})
		}
	case '[':
		for dec.More() {
			sub, err := decodeShape(dec, detail, origin, depth+1)
			if err != nil {
				return nil, err
			}
			if sh.elem == nil {
				sh.elem = sub // the first item's keys stand for all
			}
		}
		if sh.elem == nil {
			sh.elem = &shape{}
		}
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		return nil, err
	}
	return sh, nil
}

// valueShape is the shape of a decoded JSON value (parser.JSONValue).
func valueShape(v any, detail, origin string) *shape {
	switch v := v.(type) {
	case map[string]any:
		sh := &shape{}
		for _, k := range sortedKeys(v) {
			sh.keys = append(sh.keys, shapeKey{name: k, detail: detail, origin: origin, sub: valueShape(v[k], detail, origin)})
		}
		return sh
	case []any:
		sh := &shape{elem: &shape{}}
		if len(v) > 0 {
			sh.elem = valueShape(v[0], detail, origin)
		}
		return sh
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func nonEmpty(sh *shape) *shape {
	if sh == nil || len(sh.keys) == 0 && sh.elem == nil {
		return nil
	}
	return sh
}
