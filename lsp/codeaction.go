package lsp

import (
	"context"
	"encoding/json"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// codeActions offers, for each finding in the range, its fixes (the ones
// `lobster check --fix` applies, unsafe ones marked) and a comment that
// suppresses it.
func codeActions(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
	an := doc.analysis()
	var p protocol.CodeActionParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	if len(p.Context.Only) > 0 && !onlyQuickFix(p.Context.Only) {
		return []protocol.CodeAction{}, nil
	}
	want := an.m.SpanOf(p.Range)
	out := []protocol.CodeAction{}
	c := s.diagnostics(doc)
	for _, d := range c.diags {
		ds := d.Range.Span()
		if ds.End < want.Start || ds.Start > want.End {
			continue
		}
		pd := toProtocolDiag(c, d)
		for i, fix := range d.Fixes {
			title := fix.Message
			if fix.Unsafe {
				title += " (unsafe: may change what the workflow does)"
			}
			edits := make([]protocol.TextEdit, 0, len(fix.Edits))
			for _, e := range fix.Edits {
				edits = append(edits, protocol.TextEdit{Range: an.m.SourceRange(e.Range), NewText: e.NewText})
			}
			out = append(out, protocol.CodeAction{
				Title: title, Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{pd},
				IsPreferred: i == 0 && !fix.Unsafe,
				Edit:        &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{doc.uri: edits}},
			})
		}
		if title, e, ok := an.suppressEdit(d); ok {
			out = append(out, protocol.CodeAction{
				Title: title, Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{pd},
				Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{doc.uri: {e}}},
			})
		}
	}
	return out, nil
}

func onlyQuickFix(kinds []protocol.CodeActionKind) bool {
	for _, k := range kinds {
		if k == protocol.QuickFix || strings.HasPrefix(string(protocol.QuickFix), string(k)+".") || k == "" {
			return true
		}
	}
	return false
}

// suppressEdit is the edit that adds a suppression comment for a finding
// (see lang/check/suppress.go): at the end of the finding's line; on a line
// of its own above it when the line already has a comment or ends inside a
// multi-line scalar; for the whole file when the line lies inside a block
// scalar, where '#' is text.
func (an *analysis) suppressEdit(d source.Diagnostic) (string, protocol.TextEdit, bool) {
	switch d.Code {
	case "", "bad-suppression", "unused-suppression", "internal-error", "limit-exceeded":
		return "", protocol.TextEdit{}, false
	}
	src := an.file.Src
	line := d.Range.Start.Line
	start := src.LineStart(line)
	text := src.LineText(line)
	indent := len(text) - len(strings.TrimLeft(string(text), " \t"))
	end := start + len(text)
	insideScalar, crossesEnd := false, false
	for _, off := range []int{start + indent, max(end-1, start)} {
		for _, n := range chainAt(an.file, off) {
			v, ok := n.(ast.Value)
			if !ok {
				continue
			}
			sc := ast.ScalarOf(v)
			if sc == nil {
				continue
			}
			first, last := src.Pos(sc.Pos()).Line, src.Pos(max(sc.End()-1, sc.Pos())).Line
			if first < line && last >= line {
				insideScalar = true
			}
			if first == line && last > line {
				crossesEnd = true
			}
		}
	}
	hasComment := false
	for _, c := range an.file.Comments {
		if src.Pos(c.Pos()).Line == line {
			hasComment = true
		}
	}
	comment := "# lobster-ignore: " + d.Code
	switch {
	case insideScalar:
		return "Suppress " + d.Code + " in this file", protocol.TextEdit{
			Range: an.m.Range(source.Span{}), NewText: "# lobster-ignore-file: " + d.Code + "\n",
		}, true
	case hasComment || crossesEnd:
		return "Suppress " + d.Code + " on this line", protocol.TextEdit{
			Range:   an.m.Range(source.Span{Start: start, End: start}),
			NewText: string(text[:indent]) + comment + "\n",
		}, true
	}
	return "Suppress " + d.Code + " on this line", protocol.TextEdit{
		Range: an.m.Range(source.Span{Start: end, End: end}), NewText: "  " + comment,
	}, true
}
