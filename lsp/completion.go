package lsp

import (
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// The contexts completion recognises in the text before the cursor.
var (
	reArgRef    = regexp.MustCompile(`\$\{([A-Za-z0-9_-]*)$`)
	reRefField  = regexp.MustCompile(`\$([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)$`)
	reRefKey    = regexp.MustCompile(`\$([A-Za-z0-9_-]+)\.((?:json|response|subject)(?:\.[A-Za-z0-9_-]+)*)\.([A-Za-z0-9_-]*)$`)
	reArgEnv    = regexp.MustCompile(`LOBSTER_ARG_([A-Za-z0-9_]*)$`)
	reStepRef   = regexp.MustCompile(`\$([A-Za-z0-9_-]*)$`)
	reKeyLine   = regexp.MustCompile(`^(\s*)(-\s+)?([A-Za-z_]*)$`)
	reValueLine = regexp.MustCompile(`^(\s*)(-\s+)?([A-Za-z_]+):\s+([A-Za-z_]*)$`)
	rePipeKey   = regexp.MustCompile(`^\s*(?:-\s+)?pipeline:\s*(.*)$`)
)

// childContext is the schema definition of the value of key in an object
// of definition def.
func childContext(def, key string) string {
	switch def + "." + key {
	case "Workflow.steps":
		return "Step"
	case "Step.steps":
		return "SubStep"
	case "Parallel.branches":
		return "Branch"
	case "Step.parallel", "SubStep.parallel":
		return "Parallel"
	case "Step.retry", "SubStep.retry", "Branch.retry":
		return "Retry"
	case "Step.approval", "SubStep.approval", "Branch.approval":
		return "Approval"
	case "Step.input", "SubStep.input", "Branch.input":
		return "Input"
	case "Workflow.cost_limit":
		return "CostLimit"
	}
	return ""
}

func completion(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
	an := doc.analysis()
	var p protocol.CompletionParams
	off, err := positionParams(an, raw, &p)
	if err != nil {
		return nil, err
	}
	items := an.complete(off, s.configFor(doc).Commands())
	if good := s.lastGoodNames(doc); good != nil {
		items = mergeRecovered(items, an, good, off)
	}
	if items == nil {
		items = []protocol.CompletionItem{}
	}
	return &protocol.CompletionList{Items: items}, nil
}

// complete lists the completions at offset; cmds are the pipeline
// commands known (nil for the built-in ones).
func (an *analysis) complete(off int, cmds *commands.Registry) []protocol.CompletionItem {
	src := an.file.Src
	lineStart := src.LineStart(src.Pos(off).Line)
	prefix := string(src.Content[lineStart:off])
	chain := chainAt(an.file, max(off-1, 0))
	st, _ := enclosingStep(chain)
	var site *check.StepInfo
	if st != nil {
		site = an.stepInfo(st)
	}
	replace := func(n int) protocol.Range { return an.m.Range(source.Span{Start: off - n, End: off}) }

	if m := reArgRef.FindStringSubmatch(prefix); m != nil {
		closed := off < len(src.Content) && src.Content[off] == '}'
		var items []protocol.CompletionItem
		for _, fd := range an.info().Args {
			text := fd.Name()
			if !closed {
				text += "}"
			}
			items = append(items, protocol.CompletionItem{
				Label: fd.Name(), Kind: protocol.CompletionItemKindVariable, Detail: an.argDetail(fd.Name()),
				TextEdit: &protocol.TextEdit{Range: replace(len(m[1])), NewText: text},
			})
		}
		return items
	}
	if m := reArgEnv.FindStringSubmatch(prefix); m != nil {
		var items []protocol.CompletionItem
		seen := map[string]bool{}
		for _, fd := range an.info().Args {
			env := check.ArgEnvName(fd.Name())
			if env == "" || seen[env] {
				continue
			}
			seen[env] = true
			items = append(items, protocol.CompletionItem{
				Label: argEnvPrefix + env, Kind: protocol.CompletionItemKindVariable, Detail: "arg " + fd.Name(),
				TextEdit: &protocol.TextEdit{Range: replace(len(argEnvPrefix) + len(m[1])), NewText: argEnvPrefix + env},
			})
		}
		return items
	}
	if m := reRefKey.FindStringSubmatch(prefix); m != nil {
		return an.keyPathItems(site, m[1], strings.Split(m[2], "."), replace(len(m[3])))
	}
	if m := reRefField.FindStringSubmatch(prefix); m != nil {
		return an.fieldItems(site, m[1], replace(len(m[2])))
	}
	if m := reStepRef.FindStringSubmatch(prefix); m != nil {
		items := an.stepIDItems(site, replace(len(m[1])))
		if fd := innermostField(chain); fd != nil {
			if _, ok := fd.Value.(*ast.Shell); ok {
				for _, fd := range an.info().Args {
					if env := check.ArgEnvName(fd.Name()); env != "" {
						items = append(items, protocol.CompletionItem{
							Label: argEnvPrefix + env, Kind: protocol.CompletionItemKindVariable, Detail: "arg " + fd.Name(),
							TextEdit: &protocol.TextEdit{Range: replace(len(m[1])), NewText: argEnvPrefix + env}, SortText: "~" + env,
						})
					}
				}
			}
		}
		return items
	}
	if items, ok := an.pipelineItems(off, prefix, chain, cmds); ok {
		return items
	}
	if m := reValueLine.FindStringSubmatch(prefix); m != nil {
		keyOff := lineStart + len(m[1]) + len(m[2])
		t := an.targetAtByte(keyOff)
		def := t.objCtx
		if t.kind != keyTarget {
			def = an.contextAt(off, len(m[1])+len(m[2]))
		}
		kd, ok := loadSchemaDocs().key(def, m[3])
		if !ok || len(kd.Enum) == 0 {
			return nil
		}
		var items []protocol.CompletionItem
		for _, v := range kd.Enum {
			items = append(items, protocol.CompletionItem{
				Label: v, Kind: protocol.CompletionItemKindEnumMember, Documentation: kd.Description,
				TextEdit: &protocol.TextEdit{Range: replace(len(m[4])), NewText: v},
			})
		}
		return items
	}
	if m := reKeyLine.FindStringSubmatch(prefix); m != nil {
		col := len(m[1]) + len(m[2])
		def, obj, st := an.lineContext(off, col)
		if m[2] != "" {
			obj = nil // a new list item: a new object
		}
		if def == "WorkflowArgs" {
			return an.childArgItems(st, obj, replace(len(m[3])))
		}
		return an.keyItems(def, obj, replace(len(m[3])))
	}
	return nil
}

// innermostField is the innermost field of a chain.
func innermostField(chain []ast.Node) *ast.Field {
	for i := len(chain) - 1; i >= 0; i-- {
		if fd, ok := chain[i].(*ast.Field); ok {
			return fd
		}
	}
	return nil
}

func (an *analysis) argDetail(name string) string {
	if v, ok := an.info().ArgDefaultText(name); ok {
		return "arg, default " + v
	}
	return "arg"
}

// stepIDItems are the ids a reference at site can name: the steps that
// have run before it, and the loop variables in scope.
func (an *analysis) stepIDItems(site *check.StepInfo, r protocol.Range) []protocol.CompletionItem {
	var ids []string
	for id := range an.info().ByID {
		ids = append(ids, id)
	}
	for loop := site; loop != nil; loop = loop.Parent {
		if loop.IsLoop() {
			ids = append(ids, loop.ItemVar, loop.IndexVar)
		}
	}
	sort.Strings(ids)
	var items []protocol.CompletionItem
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] || !parser.IsRefName(id) {
			continue
		}
		seen[id] = true
		res := an.info().Resolve(site, id)
		if res.Visibility != check.Visible && res.Visibility != check.WorkflowLevel {
			continue
		}
		detail := "step"
		if res.LoopVar {
			detail = "loop variable of " + res.Target.ID
		} else if res.Target != nil {
			detail = stepKind(res.Target.Step)
		}
		items = append(items, protocol.CompletionItem{
			Label: id, Kind: protocol.CompletionItemKindReference, Detail: detail,
			TextEdit: &protocol.TextEdit{Range: r, NewText: id},
		})
	}
	return items
}

// fieldItems are the result fields of the step id names, filtered by what
// the step can produce.
func (an *analysis) fieldItems(site *check.StepInfo, id string, r protocol.Range) []protocol.CompletionItem {
	res := an.info().Resolve(site, id)
	var items []protocol.CompletionItem
	for _, f := range check.ResultFields {
		if f == "id" {
			continue // the id is already written
		}
		if res.Target != nil && !res.LoopVar && !res.Target.Produces(f) {
			continue
		}
		items = append(items, protocol.CompletionItem{
			Label: f, Kind: protocol.CompletionItemKindField, Documentation: check.ResultFieldDoc(f),
			TextEdit: &protocol.TextEdit{Range: r, NewText: f},
		})
	}
	return items
}

// contextAt is the schema definition of the mapping a key at column col
// of off's line belongs to (see lineContext).
func (an *analysis) contextAt(off, col int) string {
	def, _, _ := an.lineContext(off, col)
	return def
}

// lineContext finds the schema definition of the mapping a key written at
// column col (0-based bytes) of the line of off belongs to, and the typed
// object when it exists, from the lines above: a sibling key at the same
// column, or the parent key at a smaller one; and the step it is in.
func (an *analysis) lineContext(off, col int) (string, *ast.Object, *ast.Step) {
	src := an.file.Src
	line := src.Pos(off).Line
	if col == 0 {
		return "Workflow", an.workflowObject(), nil
	}
	for l := line - 1; l >= 1; l-- {
		text := string(src.LineText(l))
		trimmed := strings.TrimLeft(text, " ")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		kc := len(text) - len(trimmed)
		if rest, ok := strings.CutPrefix(trimmed, "- "); ok {
			kc += 2 + len(rest) - len(strings.TrimLeft(rest, " "))
		}
		if kc > col {
			continue
		}
		t := an.targetAtByte(src.LineStart(l) + kc)
		st, _ := enclosingStep(t.nodes)
		if kc == col {
			if t.kind == keyTarget {
				if st != nil && st.WorkflowArgs != nil && len(t.nodes) >= 3 && isTemplateMap(t.nodes[len(t.nodes)-3]) &&
					ast.SpanOf(st.WorkflowArgs.Value).Covers(ast.SpanOf(t.field)) {
					return "WorkflowArgs", t.obj, st
				}
				return t.objCtx, t.obj, st
			}
			if t.kind == argDecl {
				return "", nil, nil
			}
			continue
		}
		// A parent key.
		switch t.kind {
		case keyTarget:
			var obj *ast.Object
			if v := t.field.Value; v != nil {
				obj = ast.ObjectOf(v)
			}
			if st != nil && t.field == st.WorkflowArgs {
				return "WorkflowArgs", obj, st
			}
			return childContext(t.objCtx, t.name), obj, st
		case argDecl:
			return "Arg", ast.ObjectOf(t.arg.Value), nil
		}
		return "", nil, nil
	}
	return "Workflow", an.workflowObject(), nil
}

// keyItems are the keys of a definition that obj does not have yet.
func (an *analysis) keyItems(def string, obj *ast.Object, r protocol.Range) []protocol.CompletionItem {
	if def == "" {
		return nil
	}
	docs := loadSchemaDocs()
	var items []protocol.CompletionItem
	for _, k := range docs.keyNames(def) {
		if obj != nil && obj.Lookup(k) != nil {
			continue
		}
		kd, _ := docs.key(def, k)
		items = append(items, protocol.CompletionItem{
			Label: k, Kind: protocol.CompletionItemKindProperty, Documentation: kd.Description,
			TextEdit: &protocol.TextEdit{Range: r, NewText: k + ": "},
		})
	}
	return items
}

// pipelineItems completes pipeline command names and flags, of the
// commands cmds (nil for the built-in ones).
func (an *analysis) pipelineItems(off int, prefix string, chain []ast.Node, cmds *commands.Registry) ([]protocol.CompletionItem, bool) {
	var text string
	if m := rePipeKey.FindStringSubmatch(prefix); m != nil {
		text = strings.TrimLeft(m[1], "\"'>|-+ ")
	} else {
		fd := innermostField(chain)
		if fd == nil || fd.Name() != "pipeline" {
			return nil, false
		}
		sc := ast.ScalarOf(fd.Value)
		if sc == nil {
			return nil, false
		}
		start := sc.Map.Start(0)
		if start > off {
			return nil, false
		}
		text = string(an.file.Src.Content[start:off])
	}
	seg := text
	if i := strings.LastIndexByte(text, '|'); i >= 0 {
		seg = text[i+1:]
	}
	words := strings.Fields(seg)
	partial := ""
	if len(seg) > 0 && !strings.ContainsAny(seg[len(seg)-1:], " \t\n") && len(words) > 0 {
		partial = words[len(words)-1]
		words = words[:len(words)-1]
	}
	r := an.m.Range(source.Span{Start: off - len(partial), End: off})
	var items []protocol.CompletionItem
	if len(words) == 0 {
		for _, c := range cmds.All() {
			for _, name := range append([]string{c.Name}, c.Aliases...) {
				items = append(items, protocol.CompletionItem{
					Label: name, Kind: protocol.CompletionItemKindFunction, Detail: c.Summary,
					TextEdit: &protocol.TextEdit{Range: r, NewText: name},
				})
			}
		}
		return items, true
	}
	c, ok := cmds.Lookup(words[0])
	if !ok || (partial != "" && !strings.HasPrefix(partial, "-")) {
		return nil, true
	}
	for _, f := range c.Flags {
		items = append(items, protocol.CompletionItem{
			Label: "--" + f.Name, Kind: protocol.CompletionItemKindProperty, Detail: f.Type.String(), Documentation: f.Description,
			TextEdit: &protocol.TextEdit{Range: r, NewText: "--" + f.Name},
		})
	}
	return items, true
}

// mergeRecovered adds, while the text is not valid YAML, the step ids and
// args of the last valid version that the recovered tree lost: step ids
// declared before the cursor (by their old offset; edits are mostly near
// the cursor) after "$", args after "${".
func mergeRecovered(items []protocol.CompletionItem, an *analysis, good *recovered, off int) []protocol.CompletionItem {
	src := an.file.Src
	prefix := string(src.Content[src.LineStart(src.Pos(off).Line):off])
	have := map[string]bool{}
	for _, it := range items {
		have[it.Label] = true
	}
	replace := func(n int) protocol.Range { return an.m.Range(source.Span{Start: off - n, End: off}) }
	if m := reArgRef.FindStringSubmatch(prefix); m != nil {
		for _, name := range good.args {
			if !have[name] && an.info().ArgBy[name] == nil {
				items = append(items, protocol.CompletionItem{
					Label: name, Kind: protocol.CompletionItemKindVariable, Detail: "arg (from the last valid version)",
					TextEdit: &protocol.TextEdit{Range: replace(len(m[1])), NewText: name + "}"},
				})
			}
		}
		return items
	}
	if reRefField.MatchString(prefix) || reArgEnv.MatchString(prefix) {
		return items
	}
	if m := reStepRef.FindStringSubmatch(prefix); m != nil {
		for _, st := range good.steps {
			if have[st.id] || len(an.info().ByID[st.id]) > 0 || st.pos >= off {
				continue
			}
			have[st.id] = true
			items = append(items, protocol.CompletionItem{
				Label: st.id, Kind: protocol.CompletionItemKindReference, Detail: st.kind + " (from the last valid version)",
				TextEdit: &protocol.TextEdit{Range: replace(len(m[1])), NewText: st.id},
			})
		}
	}
	return items
}

// keyPathItems are the known keys of the value $id.path… names: the
// keys of a step's json, response or subject (see shape.go), and 0 when
// it is an array.
func (an *analysis) keyPathItems(site *check.StepInfo, id string, path []string, r protocol.Range) []protocol.CompletionItem {
	sh := newShaper(an.readFile).refShape(an, site, id, path)
	if sh == nil {
		return nil
	}
	var items []protocol.CompletionItem
	for _, k := range sh.keys {
		items = append(items, protocol.CompletionItem{
			Label: k.name, Kind: protocol.CompletionItemKindField, Detail: k.detail,
			Documentation: protocol.MarkupContent{Kind: protocol.Markdown, Value: k.origin},
			TextEdit:      &protocol.TextEdit{Range: r, NewText: k.name},
		})
	}
	if sh.elem != nil {
		items = append(items, protocol.CompletionItem{
			Label: "0", Kind: protocol.CompletionItemKindValue, Detail: "the first item (an array index)",
			TextEdit: &protocol.TextEdit{Range: r, NewText: "0"}, SortText: "~0",
		})
	}
	return items
}

// childArgItems are the args the child workflow of a workflow: step
// declares, for its workflow_args.
func (an *analysis) childArgItems(st *ast.Step, obj *ast.Object, r protocol.Range) []protocol.CompletionItem {
	if st == nil || an.path == "" {
		return nil
	}
	si := an.stepInfo(st)
	if si == nil {
		return nil
	}
	file, ok := an.info().SubWorkflowFile(si, an.path)
	if !ok {
		return nil
	}
	text, err := an.readFile(file)
	if err != nil {
		return nil
	}
	cf, _ := parser.Parse(file, text)
	cin := check.NewInfo(cf)
	var items []protocol.CompletionItem
	for _, fd := range cin.Args {
		if obj != nil && obj.Lookup(fd.Name()) != nil {
			continue
		}
		detail := "arg of " + filepath.Base(file)
		if v, ok := cin.ArgDefaultText(fd.Name()); ok {
			detail += ", default " + v
		}
		items = append(items, protocol.CompletionItem{
			Label: fd.Name(), Kind: protocol.CompletionItemKindVariable, Detail: detail,
			TextEdit: &protocol.TextEdit{Range: r, NewText: fd.Name() + ": "},
		})
	}
	return items
}

func isTemplateMap(n ast.Node) bool {
	_, ok := n.(*ast.TemplateMap)
	return ok
}

// workflowObject is the top-level mapping, or nil (ast.ObjectOf of a nil
// *ast.Workflow would call a method on a nil pointer).
func (an *analysis) workflowObject() *ast.Object {
	if an.file.Workflow == nil {
		return nil
	}
	return &an.file.Workflow.Object
}
