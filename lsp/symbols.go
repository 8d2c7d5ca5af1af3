package lsp

import (
	"context"
	"encoding/json"
	"os"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/source"
)

func documentSymbols(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
	an := doc.analysis()
	out := []protocol.DocumentSymbol{}
	w := an.file.Workflow
	if w == nil {
		return out, nil
	}
	section := func(f *ast.Field, kind protocol.SymbolKind, children []protocol.DocumentSymbol) {
		if f == nil {
			return
		}
		out = append(out, protocol.DocumentSymbol{
			Name: f.Name(), Kind: kind, Range: an.m.Range(ast.SpanOf(f)),
			SelectionRange: an.m.Range(ast.SpanOf(f.Key)), Children: children,
		})
	}
	var args []protocol.DocumentSymbol
	for _, fd := range an.info().Args {
		detail := ""
		if v, ok := an.info().ArgDefaultText(fd.Name()); ok {
			detail = "default " + v
		}
		args = append(args, protocol.DocumentSymbol{
			Name: fd.Name(), Detail: detail, Kind: protocol.SymbolKindVariable,
			Range: an.m.Range(ast.SpanOf(fd)), SelectionRange: an.m.Range(ast.SpanOf(fd.Key)),
		})
	}
	section(w.Args, protocol.SymbolKindNamespace, args)
	section(w.Env, protocol.SymbolKindNamespace, an.envSymbols(w.Env))
	var steps []protocol.DocumentSymbol
	for _, si := range an.info().Top {
		steps = append(steps, an.stepSymbol(si))
	}
	section(w.Steps, protocol.SymbolKindNamespace, steps)
	return out, nil
}

func (an *analysis) envSymbols(f *ast.Field) []protocol.DocumentSymbol {
	if f == nil {
		return nil
	}
	m, ok := f.Value.(*ast.TemplateMap)
	if !ok {
		return nil
	}
	var out []protocol.DocumentSymbol
	for _, e := range m.Fields {
		out = append(out, protocol.DocumentSymbol{
			Name: e.Name(), Kind: protocol.SymbolKindConstant,
			Range: an.m.Range(ast.SpanOf(e)), SelectionRange: an.m.Range(ast.SpanOf(e.Key)),
		})
	}
	return out
}

func (an *analysis) stepSymbol(si *check.StepInfo) protocol.DocumentSymbol {
	st := si.Step
	name := si.ID
	sel := source.Span{Start: st.Pos(), End: st.Pos()}
	if st.ID != nil {
		sel = ast.SpanOf(st.ID.Value)
	}
	if name == "" {
		name = "(step without id)"
	}
	kind := protocol.SymbolKindFunction
	if st.Approval != nil && st.Run == nil && st.Command == nil && st.Pipeline == nil || st.Input != nil {
		kind = protocol.SymbolKindEvent
	}
	sym := protocol.DocumentSymbol{
		Name: name, Detail: stepKind(st), Kind: kind,
		Range: an.m.Range(ast.SpanOf(st)), SelectionRange: an.m.Range(sel),
	}
	sym.Children = an.envSymbols(st.Env)
	for _, c := range si.Children {
		sym.Children = append(sym.Children, an.stepSymbol(c))
	}
	return sym
}

func documentLinks(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
	an := doc.analysis()
	out := []protocol.DocumentLink{}
	for _, si := range an.info().Steps {
		f := si.Step.Workflow
		if f == nil {
			continue
		}
		file, ok := an.childFile(doc, si.Step)
		if !ok {
			continue
		}
		if _, err := os.Stat(file); err != nil {
			continue
		}
		span := ast.SpanOf(f.Value)
		if sc := ast.ScalarOf(f.Value); sc != nil {
			span = textSpan(sc)
		}
		out = append(out, protocol.DocumentLink{Range: an.m.Range(span), Target: uri.File(file), Tooltip: file})
	}
	return out, nil
}

func foldingRanges(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
	an := doc.analysis()
	out := []protocol.FoldingRange{}
	add := func(n ast.Node) {
		if n == nil {
			return
		}
		start := an.m.Position(n.Pos()).Line
		end := an.m.Position(max(n.End()-1, n.Pos())).Line
		if end > start {
			out = append(out, protocol.FoldingRange{StartLine: start, EndLine: end, Kind: protocol.RegionFoldingRange})
		}
	}
	if w := an.file.Workflow; w != nil {
		for _, f := range []*ast.Field{w.Args, w.Env, w.Steps} {
			if f != nil {
				add(f)
			}
		}
	}
	for _, si := range an.info().Steps {
		add(si.Step)
		for _, f := range si.Step.Fields {
			if sc := ast.ScalarOf(f.Value); sc != nil && (sc.Style == ast.LiteralBlock || sc.Style == ast.FoldedBlock) {
				add(f)
			}
		}
	}
	return out, nil
}
