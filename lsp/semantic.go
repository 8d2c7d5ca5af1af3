package lsp

import (
	"context"
	"encoding/json"
	"sort"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// The semantic token legend.
var (
	tokenTypes     = []string{"variable", "property", "parameter", "operator", "function", "macro"}
	tokenModifiers = []string{"declaration", "readonly"}
)

// Token types, as indices into tokenTypes.
const (
	tokStepRef  = iota // $id
	tokField           // .json, .stdout
	tokArg             // ${arg}, LOBSTER_ARG_X
	tokOperator        // && || == ! …
	tokCommand         // a pipeline command
	tokEnv             // an env name
)

type semToken struct {
	span source.Span
	typ  int
}

func semanticTokensFull(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
	an := doc.analysis()
	return &protocol.SemanticTokens{Data: an.encodeTokens(an.semanticTokens())}, nil
}

// semanticTokens lists the tokens of the document in source order.
func (an *analysis) semanticTokens() []semToken {
	var toks []semToken
	for _, rs := range an.info().Refs {
		switch r := rs.Ref.(type) {
		case *ast.StepRef:
			toks = append(toks, semToken{source.Span{Start: r.Pos(), End: r.IDSpan.End}, tokStepRef})
			for _, seg := range r.Path {
				toks = append(toks, semToken{ast.SpanOf(seg), tokField})
			}
		case *ast.ArgRef:
			toks = append(toks, semToken{ast.SpanOf(r), tokArg})
		case *ast.BracedRef:
			toks = append(toks, semToken{ast.SpanOf(r), tokStepRef})
		}
	}
	for _, occ := range an.argEnvOccurrences() {
		toks = append(toks, semToken{occ.span, tokArg})
	}
	if an.file.Doc != nil {
		ast.Inspect(an.file.Doc, func(n ast.Node) bool {
			switch n := n.(type) {
			case nil:
				return false
			case *ast.BinaryExpr:
				toks = append(toks, semToken{n.OpSpan, tokOperator})
			case *ast.UnaryExpr:
				toks = append(toks, semToken{source.Span{Start: n.Pos(), End: n.Pos() + len(n.Op)}, tokOperator})
			case *ast.Stage:
				if n.Name != nil {
					toks = append(toks, semToken{ast.SpanOf(n.Name), tokCommand})
				}
			case *ast.Field:
				if n.Name() == "env" {
					if m, ok := n.Value.(*ast.TemplateMap); ok {
						for _, e := range m.Fields {
							toks = append(toks, semToken{ast.SpanOf(e.Key), tokEnv})
						}
					}
				}
			}
			return true
		})
	}
	sort.SliceStable(toks, func(i, j int) bool { return toks[i].span.Start < toks[j].span.Start })
	return toks
}

// encodeTokens encodes tokens as LSP's relative quintuples, leaving out
// overlapping and multi-line ones.
func (an *analysis) encodeTokens(toks []semToken) []uint32 {
	data := []uint32{}
	var prevLine, prevChar uint32
	last := -1
	for _, t := range toks {
		if t.span.Start < last || t.span.Len() <= 0 {
			continue
		}
		text := an.file.Src.TextOf(t.span)
		if strings.ContainsAny(text, "\n\r") {
			continue
		}
		p := an.m.Position(t.span.Start)
		length := utf16Len([]byte(text))
		dl := p.Line - prevLine
		dc := p.Character
		if dl == 0 {
			dc = p.Character - prevChar
		}
		data = append(data, dl, dc, uint32(length), uint32(t.typ), 0)
		prevLine, prevChar = p.Line, p.Character
		last = t.span.End
	}
	return data
}

// inlayHintParams are textDocument/inlayHint's params (LSP 3.17; protocol
// v0.12.0 has no type for them).
type inlayHintParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
}

// inlayHint is an LSP 3.17 inlay hint.
type inlayHint struct {
	Position    protocol.Position `json:"position"`
	Label       string            `json:"label"`
	Kind        int               `json:"kind,omitempty"`
	Tooltip     string            `json:"tooltip,omitempty"`
	PaddingLeft bool              `json:"paddingLeft,omitempty"`
}

// inlayHints shows each arg's default after ${arg}.
func inlayHints(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
	an := doc.analysis()
	var p inlayHintParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	span := an.m.SpanOf(p.Range)
	out := []inlayHint{}
	for _, rs := range an.info().Refs {
		r, ok := rs.Ref.(*ast.ArgRef)
		if !ok || r.End() < span.Start || r.Pos() > span.End {
			continue
		}
		v, ok := an.info().ArgDefaultText(r.Name)
		if !ok {
			continue
		}
		if len(v) > 40 {
			v = v[:37] + "…"
		}
		out = append(out, inlayHint{
			Position: an.m.Position(r.End()), Label: "= " + v, Kind: 2, PaddingLeft: true,
			Tooltip: "the default of arg " + r.Name,
		})
	}
	return out, nil
}
