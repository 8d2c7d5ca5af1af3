package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// IDNotReferenceable reports step ids that no $id.path reference can name.
var IDNotReferenceable = &Analyzer{
	Name:     "id-not-referenceable",
	Severity: source.Warning,
	Summary:  "a step id has characters that references cannot spell",
	Doc: "Ids may be any string, but `$id.path` accepts only letters, digits, `_` and `-` in the id: " +
		"a step named `my.step` or `my step` can never be referenced (`$my.step.stdout` " +
		"reads the step `my`). An id that starts with a digit is fine.",
	Bad:  "- id: fetch.data\n  run: ./fetch.sh",
	Good: "- id: fetch_data\n  run: ./fetch.sh",
	Fix:  "replace each character that a reference cannot spell with `_` (no reference can name the old id, so none needs to change)",
	Run:  runIDNotReferenceable,
}

func refIsIDByte(b byte) bool { return parser.IsWordByte(b) || b == '-' }

func runIDNotReferenceable(p *Pass) {
	for _, si := range p.Info.Steps {
		id := si.ID
		if id == "" || si.Step.ID == nil {
			continue
		}
		bad := false
		for i := 0; i < len(id); i++ {
			if !refIsIDByte(id[i]) {
				bad = true
				break
			}
		}
		if !bad {
			continue
		}
		sc, ok := si.Step.ID.Value.(*ast.Scalar)
		if !ok {
			continue
		}
		d := p.Finding(ast.SpanOf(sc), "id %q can never be referenced: $id references only accept letters, digits, \"_\" and \"-\"", id)
		if fix, ok := refRenamedID(p, sc); ok {
			d.Message += fmt.Sprintf("; rename it to %q", fix.NewText)
			d.Fixes = []source.Fix{{Message: fmt.Sprintf("Rename the step to %q", strings.Trim(fix.NewText, "\"")), Edits: []source.Edit{fix}}}
		}
		p.Report(d)
	}
}

// refRenamedID builds the edit that renames an id: every run of bytes a
// reference cannot spell becomes one "_" (a UTF-8 character counts as one).
func refRenamedID(p *Pass, sc *ast.Scalar) (source.Edit, bool) {
	var b strings.Builder
	prevBad := false
	for _, r := range sc.Text {
		if r < 128 && refIsIDByte(byte(r)) {
			b.WriteRune(r)
			prevBad = false
			continue
		}
		if !prevBad {
			b.WriteByte('_')
		}
		prevBad = true
	}
	name := strings.Trim(b.String(), "_")
	if name == "" || len(p.Info.ByID[name]) > 0 {
		return source.Edit{}, false
	}
	if sc.Style == ast.Plain && refPlainNotString(name) {
		return p.Edit(ast.SpanOf(sc), strconv.Quote(name)), true
	}
	if sc.Style == ast.LiteralBlock || sc.Style == ast.FoldedBlock {
		return source.Edit{}, false
	}
	return p.Edit(sc.Map.Span(0, len(sc.Text)), name), true
}

// refPlainNotString reports whether a plain YAML scalar would not be a string.
func refPlainNotString(s string) bool {
	switch strings.ToLower(s) {
	case "true", "false", "null", "~", "yes", "no", "on", "off":
		return true
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return true
	}
	return strings.HasPrefix(s, "-") // a sequence entry or a number
}
