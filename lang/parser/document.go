package parser

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ParseDocument reads a YAML file that is not a workflow (the project's
// configuration) with the same reader as [Parse]: one YAML 1.2 document
// (strict JSON as well when the name ends in .json) into generic values —
// *ast.Mapping, *ast.Sequence, *ast.Scalar and *ast.Alias — with exact
// spans. Syntax errors, duplicate keys, further documents and the limits
// are diagnostics; the value is what could be read (nil for an empty
// document). It never panics. The values' strings share src's memory.
func ParseDocument(filename string, src []byte) (doc ast.Value, f *source.File, diags []source.Diagnostic) {
	f = source.NewFile(filename, src)
	defer func() {
		if r := recover(); r != nil {
			doc = nil
			diags = append(diags, source.Diagnostic{
				File: filename, Range: f.Range(0, 0), Severity: source.Error, Code: "internal-error",
				Message: fmt.Sprintf("internal error while parsing: %v", r),
			})
			source.Sort(diags)
		}
	}()
	if d, ok := checkLimits(f); !ok {
		return nil, f, []source.Diagnostic{d}
	}
	start := 0
	if bytes.HasPrefix(src, bom) {
		start = len(bom)
	}
	if strings.EqualFold(filepath.Ext(filename), ".json") {
		for _, d := range checkJSON(f) {
			d.Message = strings.TrimSuffix(d.Message, "; rename the file to .lobster or .yaml to use YAML")
			diags = append(diags, d)
		}
	}
	r := newYAMLReader(f, start)
	doc = r.readDocument()
	for _, d := range r.diags {
		if d.Code == "yaml-multi-document" {
			d.Message = "the file holds more than one YAML document; only one is read"
		}
		diags = append(diags, d)
	}
	if s, ok := doc.(*ast.Scalar); ok && s.Kind == ast.Null && s.Tag() == "" {
		doc = nil
	}
	source.Sort(diags)
	return doc, f, diags
}
