package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// TemplateFilterPipeUnquoted reports "|" filter separators of {{ … }}
// placeholders that split the pipeline.
var TemplateFilterPipeUnquoted = &Analyzer{
	Name:     "template-filter-pipe-unquoted",
	Severity: source.Error,
	Summary:  "a {{ … | filter }} placeholder is not quoted, so its \"|\" splits the pipeline",
	Doc: `The pipeline text is split into stages at every "|" outside quotes before any command runs,
so the filter bar of a template placeholder must be inside a quoted argument:
"template --text {{name|upper}}" becomes the stages "template --text {{name" and "upper}}", and the
run fails with "Unknown command: upper}}". Quote the template text.`,
	Bad:  "- id: names\n  pipeline: exec --json cat people.json | template --text {{name|upper}}",
	Good: "- id: names\n  pipeline: exec --json cat people.json | template --text '{{name|upper}}'",
	Run:  runTemplateFilterPipeUnquoted,
}

func runTemplateFilterPipeUnquoted(p *Pass) {
	plEachPipeline(p.Info, func(si *StepInfo, f *ast.Field, pipe *ast.Pipeline) {
		text := pipe.Scalar.Text
		if !strings.Contains(text, "{{") {
			return
		}
		open := -1 // offset of an unclosed "{{"
		var quote byte
		for i := 0; i < len(text); i++ {
			c := text[i]
			switch {
			case c == '{' && i+1 < len(text) && text[i+1] == '{':
				open = i
				i++
				continue
			case c == '}' && i+1 < len(text) && text[i+1] == '}':
				open = -1
				i++
				continue
			}
			if quote != 0 {
				switch {
				case c == '\\':
					i++
				case c == quote:
					quote = 0
				}
				continue
			}
			switch c {
			case '\'', '"':
				quote = c
			case '|':
				if open >= 0 && strings.Contains(text[i:], "}}") {
					p.Reportf(pipe.Scalar.Map.Span(i, i+1), "this \"|\" inside %q is not quoted: the pipeline splits here before template sees it; put the template text in quotes", plPlaceholderText(text, open))
				}
			}
		}
	})
}

// plPlaceholderText is the placeholder that starts at open, shortened.
func plPlaceholderText(text string, open int) string {
	end := strings.Index(text[open:], "}}")
	if end < 0 {
		end = len(text) - open
	} else {
		end += 2
	}
	s := text[open : open+end]
	if len(s) > 40 {
		s = s[:39] + "…"
	}
	return s
}
