package lsp

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// positionParams decodes the document position of a request and converts
// it to a byte offset.
func positionParams(an *analysis, raw json.RawMessage, p any) (int, error) {
	if err := json.Unmarshal(raw, p); err != nil {
		return 0, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err)
	}
	var pos struct {
		Position protocol.Position `json:"position"`
	}
	_ = json.Unmarshal(raw, &pos)
	off, _ := an.m.Offset(pos.Position)
	return off, nil
}

// occurrence is one spelling of a symbol.
type occurrence struct {
	span source.Span // the bytes a rename replaces
	decl bool
	env  bool // the suffix of a LOBSTER_ARG_ name
}

// occurrences lists the spellings of the symbol of t in the document: the
// declaration and every reference, in source order. For an arg these are
// ${name} and the LOBSTER_ARG_ names (their spans cover the part after
// the prefix).
func (an *analysis) occurrences(t target) []occurrence {
	var out []occurrence
	switch t.kind {
	case stepDecl, stepRefID, stepRefField:
		if t.step == nil || t.loopVar {
			return nil
		}
		if t.step.Step.ID != nil {
			if sc, ok := t.step.Step.ID.Value.(*ast.Scalar); ok {
				out = append(out, occurrence{span: textSpan(sc), decl: true})
			}
		}
		for rs, r := range an.info().StepRefs() {
			if r.ID != t.step.ID {
				continue
			}
			if res := an.info().ResolveSite(rs, r.ID); res.Target == t.step && !res.LoopVar {
				out = append(out, occurrence{span: r.IDSpan})
			}
		}
	case argDecl, argRef, argEnv:
		name := t.name
		if t.arg != nil {
			name = t.arg.Name()
		}
		if t.kind == argEnv && t.arg == nil {
			return nil
		}
		if t.arg != nil {
			out = append(out, occurrence{span: textSpan(t.arg.Key), decl: true})
		}
		for _, rs := range an.info().Refs {
			if r, ok := rs.Ref.(*ast.ArgRef); ok && r.Name == name {
				out = append(out, occurrence{span: r.NameSpan})
			}
		}
		if env := check.ArgEnvName(name); env != "" {
			for _, occ := range an.argEnvOccurrences() {
				if occ.name == argEnvPrefix+env {
					out = append(out, occurrence{span: source.Span{Start: occ.span.Start + len(argEnvPrefix), End: occ.span.End}, env: true})
				}
			}
		}
	}
	sortOccurrences(out)
	return out
}

func sortOccurrences(o []occurrence) {
	for i := 1; i < len(o); i++ {
		for j := i; j > 0 && o[j].span.Start < o[j-1].span.Start; j-- {
			o[j], o[j-1] = o[j-1], o[j]
		}
	}
}

func definition(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
	an := doc.analysis()
	var p protocol.DefinitionParams
	off, err := positionParams(an, raw, &p)
	if err != nil {
		return nil, err
	}
	t := an.targetAt(off)
	switch t.kind {
	case stepRefID, stepRefField, stepDecl:
		if t.step == nil {
			return []protocol.Location{}, nil
		}
		span := ast.SpanOf(t.step.Step)
		if t.loopVar {
			if v := t.step.Step.ItemVar; v != nil && t.name == t.step.ItemVar {
				span = ast.SpanOf(v.Value)
			} else if v := t.step.Step.IndexVar; v != nil && t.name == t.step.IndexVar {
				span = ast.SpanOf(v.Value)
			} else if t.step.Step.ForEach != nil {
				span = ast.SpanOf(t.step.Step.ForEach.Key)
			}
		} else if id := t.step.Step.ID; id != nil {
			if sc, ok := id.Value.(*ast.Scalar); ok {
				span = textSpan(sc)
			}
		}
		return []protocol.Location{{URI: doc.uri, Range: an.m.Range(span)}}, nil
	case argRef, argEnv, argDecl:
		if t.arg == nil {
			return []protocol.Location{}, nil
		}
		return []protocol.Location{{URI: doc.uri, Range: an.m.Range(textSpan(t.arg.Key))}}, nil
	}
	// workflow: paths and workflow_args keys lead to the child file.
	if loc, ok := an.childDefinition(doc, t); ok {
		return []protocol.Location{loc}, nil
	}
	return []protocol.Location{}, nil
}

// enclosingStep is the innermost step in a chain of nodes, and the node
// just below it.
func enclosingStep(chain []ast.Node) (*ast.Step, int) {
	for i := len(chain) - 1; i >= 0; i-- {
		if st, ok := chain[i].(*ast.Step); ok {
			return st, i
		}
	}
	return nil, -1
}

// childFile is the file run by a workflow: step, when it is known.
func (an *analysis) childFile(doc *snapshot, st *ast.Step) (string, bool) {
	si := an.stepInfo(st)
	if si == nil || doc.path == "" {
		return "", false
	}
	return an.info().SubWorkflowFile(si, doc.path)
}

// childDefinition resolves a cursor on a workflow: value (to the child
// file) or on a workflow_args key (to the child's arg).
func (an *analysis) childDefinition(doc *snapshot, t target) (protocol.Location, bool) {
	st, i := enclosingStep(t.nodes)
	if st == nil || i+1 >= len(t.nodes) {
		return protocol.Location{}, false
	}
	fd, ok := t.nodes[i+1].(*ast.Field)
	if !ok {
		return protocol.Location{}, false
	}
	file, ok := an.childFile(doc, st)
	if !ok {
		return protocol.Location{}, false
	}
	switch {
	case fd == st.Workflow:
		return protocol.Location{URI: uri.File(file)}, true
	case fd == st.WorkflowArgs && t.kind == keyTarget && t.field != fd:
		text, err := an.readFile(file)
		if err != nil {
			return protocol.Location{}, false
		}
		cf, _ := parser.Parse(file, text)
		cin := check.NewInfo(cf)
		arg := cin.ArgBy[t.name]
		if arg == nil {
			return protocol.Location{URI: uri.File(file)}, true
		}
		cm := Mapper{File: cf.Src}
		return protocol.Location{URI: uri.File(file), Range: cm.Range(textSpan(arg.Key))}, true
	}
	return protocol.Location{}, false
}

func references(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
	an := doc.analysis()
	var p protocol.ReferenceParams
	off, err := positionParams(an, raw, &p)
	if err != nil {
		return nil, err
	}
	locs := []protocol.Location{}
	t := an.targetAt(off)
	for _, o := range an.occurrences(t) {
		if o.decl && !p.Context.IncludeDeclaration {
			continue
		}
		locs = append(locs, protocol.Location{URI: doc.uri, Range: an.m.Range(o.span)})
	}
	return append(locs, s.crossFileReferences(ctx, doc, t, p.Context.IncludeDeclaration)...), nil
}

func documentHighlight(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
	an := doc.analysis()
	var p protocol.DocumentHighlightParams
	off, err := positionParams(an, raw, &p)
	if err != nil {
		return nil, err
	}
	out := []protocol.DocumentHighlight{}
	for _, o := range an.occurrences(an.targetAt(off)) {
		kind := protocol.DocumentHighlightKindRead
		if o.decl {
			kind = protocol.DocumentHighlightKindWrite
		}
		out = append(out, protocol.DocumentHighlight{Range: an.m.Range(o.span), Kind: kind})
	}
	return out, nil
}

// renameTarget is the target at offset if it can be renamed, with the
// range of the name to show.
func (an *analysis) renameTarget(off int) (target, source.Span, error) {
	t := an.targetAt(off)
	switch t.kind {
	case stepDecl, stepRefID:
		if t.step == nil {
			return t, source.Span{}, fmt.Errorf("%q names no step of this file", t.name)
		}
		if t.loopVar {
			return t, source.Span{}, fmt.Errorf("%q is a loop variable: rename it at item_var or index_var", t.name)
		}
		return t, t.span, nil
	case argDecl, argRef:
		return t, t.span, nil
	case argEnv:
		if t.arg == nil {
			return t, source.Span{}, fmt.Errorf("no declared arg sets %s", t.name)
		}
		return t, source.Span{Start: t.span.Start + len(argEnvPrefix), End: t.span.End}, nil
	}
	return t, source.Span{}, fmt.Errorf("only step ids and args can be renamed")
}

func prepareRename(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
	an := doc.analysis()
	var p protocol.PrepareRenameParams
	off, err := positionParams(an, raw, &p)
	if err != nil {
		return nil, err
	}
	t, span, err := an.renameTarget(off)
	if err != nil {
		if _, _, ok := an.workflowArgKey(t); !ok {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, err.Error())
		}
		// A workflow_args key: renamed with the child's arg.
		if _, err := s.childArgOf(doc, t); err != nil {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, err.Error())
		}
		span = t.span
	}
	r := an.m.Range(span)
	return &r, nil
}

func rename(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
	an := doc.analysis()
	var p protocol.RenameParams
	off, err := positionParams(an, raw, &p)
	if err != nil {
		return nil, err
	}
	name := p.NewName
	t, _, err := an.renameTarget(off)
	if err != nil {
		if _, _, ok := an.workflowArgKey(t); !ok {
			return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, err.Error())
		}
		if !parser.IsRefName(name) {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%q cannot be referred to: use letters, digits, '_' and '-'", name)
		}
		return s.renameWorkflowArgKey(ctx, doc, t, name)
	}
	if !parser.IsRefName(name) {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%q cannot be referred to: use letters, digits, '_' and '-'", name)
	}
	isStep := t.kind == stepDecl || t.kind == stepRefID
	if isStep {
		if len(an.info().ByID[name]) > 0 {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "a step named %q exists already", name)
		}
		edits, err := an.renameEdits(t, name)
		if err != nil {
			return nil, err
		}
		return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{doc.uri: edits}}, nil
	}
	return s.renameArg(ctx, doc, t, name)
}

// renameEdits are the edits that rename the symbol of t in the document.
func (an *analysis) renameEdits(t target, name string) ([]protocol.TextEdit, error) {
	edits := []protocol.TextEdit{}
	for _, o := range an.occurrences(t) {
		text := name
		if o.env {
			text = check.ArgEnvName(name)
			if text == "" {
				return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%q has no LOBSTER_ARG_ variable (no letter or digit), and the file reads one", name)
			}
		}
		edits = append(edits, protocol.TextEdit{Range: an.m.Range(o.span), NewText: text})
	}
	return edits, nil
}
