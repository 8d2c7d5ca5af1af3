package parser

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ParsePipelineText parses pipeline text that does not come from a workflow
// file, such as the pipeline given on the command line, with the same
// grammar as `pipeline` fields. Spans are byte offsets into text. The result
// is never nil: either Stages or Err is set.
func ParsePipelineText(text string) *ast.Pipeline {
	s := &ast.Scalar{Kind: ast.String, Style: ast.DoubleQuoted, Text: text, Map: source.Verbatim(0, len(text))}
	s.Span = source.Span{Start: 0, End: len(text)}
	return parsePipeline(nil, s)
}
