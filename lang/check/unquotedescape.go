package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// UnquotedEscape reports backslashes outside quotes in pipeline text, which
// escape nothing.
var UnquotedEscape = &Analyzer{
	Name:     "unquoted-escape",
	Severity: source.Error,
	Summary:  "a backslash outside quotes in pipeline text escapes nothing",
	Doc: `Outside quotes the pipeline tokenizer keeps a backslash as a literal character:
"a\|b" still splits into two stages at the "|" (the first ending in a backslash), "a\ b"
is still two words, and "\'" still opens a quoted string. Quote the text instead: 'a|b', 'a b'.`,
	Bad:  "- id: alt\n  pipeline: exec grep -E a\\|b notes.txt",
	Good: "- id: alt\n  pipeline: exec grep -E 'a|b' notes.txt",
	Run:  runUnquotedEscape,
}

func runUnquotedEscape(p *Pass) {
	plEachPipeline(p.Info, func(si *StepInfo, f *ast.Field, pipe *ast.Pipeline) {
		text := pipe.Scalar.Text
		var quote byte
		for i := 0; i < len(text); i++ {
			c := text[i]
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
			case '\\':
				if i+1 >= len(text) {
					continue
				}
				var what string
				switch text[i+1] {
				case '|':
					what = "the \"|\" still splits the pipeline into stages"
				case ' ', '\t':
					what = "the blank still separates words"
				case '\'', '"':
					what = "the quote still opens a quoted string"
				default:
					continue
				}
				p.Reportf(pipe.Scalar.Map.Span(i, i+2), "a backslash outside quotes escapes nothing: it is kept as a character and %s; quote the text instead", what)
				if text[i+1] != '\'' && text[i+1] != '"' {
					i++
				}
			}
		}
	})
}
