// Package parser turns the text of a workflow file into an [ast.File] and
// diagnostics. It never panics and always returns a tree, partial when the
// text is broken.
//
// YAML is read by a position-exact reader of its own (yaml.go, scalar.go):
// goccy/go-yaml gives rune columns, drifting offsets and no end positions,
// stops at the first error and takes longer than the whole check budget on
// large files. The reader is checked against goccy/go-yaml and against the
// reference's YAML library in the tests.
package parser

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/source"
)

// Limits that reject hostile input quickly.
const (
	MaxFileSize   = bounded.DefaultLimit // bytes; readers of files stop there (package bounded)
	MaxLineLength = 1 << 20              // bytes
)

var bom = []byte{0xEF, 0xBB, 0xBF}

// Parse parses a workflow file. A name ending in .json (any case) is parsed as
// strict JSON, anything else as YAML 1.2, as the reference does. The returned
// file is never nil; the diagnostics are sorted. The tree's strings share
// src's memory: the caller must not modify src afterwards.
func Parse(filename string, src []byte) (file *ast.File, diags []source.Diagnostic) {
	return parse(filename, src, nil)
}

func parse(filename string, src []byte, cache *Cache) (file *ast.File, diags []source.Diagnostic) {
	f := source.NewFile(filename, src)
	file = &ast.File{Src: f, JSON: strings.EqualFold(filepath.Ext(filename), ".json")}
	file.Span = source.Span{End: len(src)}
	defer func() {
		if r := recover(); r != nil {
			// A bug must not take the caller down: report it on the file.
			diags = append(diags, source.Diagnostic{
				File: filename, Range: f.Range(0, 0), Severity: source.Error, Code: "internal-error",
				Message: fmt.Sprintf("internal error while parsing: %v", r),
			})
			source.Sort(diags)
		}
	}()
	if d, ok := checkLimits(f); !ok {
		return file, []source.Diagnostic{d}
	}
	start := 0
	if bytes.HasPrefix(src, bom) {
		start = len(bom)
	}
	if file.JSON {
		diags = append(diags, checkJSON(f)...)
	}
	r := newYAMLReader(f, start)
	doc := r.readDocument()
	file.Broken = r.broken
	file.Comments = r.comments
	file.Anchors = r.anchored
	for _, a := range file.Anchors {
		a.Span = ast.SpanOf(a.Value)
	}
	diags = append(diags, r.diags...)

	b := &builder{file: f, budget: aliasBudget, cache: cache}
	if m, ok := doc.(*ast.Mapping); ok {
		file.Workflow = b.workflow(m)
		file.Doc = file.Workflow
	} else if s, ok := doc.(*ast.Scalar); ok && s.Kind == ast.Null && s.Tag() == "" {
		file.Doc = nil // an empty document
	} else {
		file.Doc = doc
	}
	b.parseShells()
	b.validate(file.Doc, file.Workflow)
	diags = append(diags, b.diags...)
	source.Sort(diags)
	return file, diags
}

// ReadFile reads a workflow file to parse: [bounded.ReadFile] with the
// limit MaxFileSize. It refuses what is not a regular file without blocking,
// and a larger file after reading at most MaxFileSize+1 bytes of it; for
// that error [LimitDiagnostic] gives the limit-exceeded diagnostic that
// Parse would give.
func ReadFile(path string) ([]byte, error) {
	return bounded.ReadFile(path, MaxFileSize)
}

// LimitDiagnostic is the limit-exceeded diagnostic of a file named name that
// was not read because err says it is over the limit ([bounded.ErrTooLarge]),
// at its first byte; ok is false for any other error.
func LimitDiagnostic(name string, err error) (d source.Diagnostic, ok bool) {
	var tl *bounded.TooLargeError
	if !errors.As(err, &tl) {
		return d, false
	}
	f := source.NewFile(name, nil)
	return source.Diagnostic{File: name, Range: f.Range(0, 0), Severity: source.Error, Code: "limit-exceeded", Message: tl.Error()}, true
}

// checkLimits rejects files too large to check quickly.
func checkLimits(f *source.File) (source.Diagnostic, bool) {
	d := source.Diagnostic{File: f.Name, Range: f.Range(0, 0), Severity: source.Error, Code: "limit-exceeded"}
	if len(f.Content) > MaxFileSize {
		d.Message = fmt.Sprintf("the file is %d bytes; files over %d bytes are not read", len(f.Content), MaxFileSize)
		return d, false
	}
	for line := 1; line <= f.LineCount(); line++ {
		start := f.LineStart(line)
		end := f.LineStart(line + 1)
		if end-start > MaxLineLength {
			d.Range = f.Range(start, start)
			d.Message = fmt.Sprintf("line %d is %d bytes long; lines over %d bytes are not read", line, end-start, MaxLineLength)
			return d, false
		}
	}
	return d, true
}

// checkJSON reports text that is not strict JSON in a .json file, which the
// reference parses with JSON.parse.
func checkJSON(f *source.File) []source.Diagnostic {
	dec := json.NewDecoder(bytes.NewReader(f.Content))
	var v any
	err := dec.Decode(&v)
	if err == nil {
		if _, extra := dec.Token(); extra == nil {
			err = fmt.Errorf("unexpected text after the JSON value")
			off := int(dec.InputOffset())
			return []source.Diagnostic{jsonDiag(f, off, err)}
		}
		return nil
	}
	off := 0
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = int(se.Offset) - 1
		if off < 0 {
			off = 0
		}
	} else {
		off = len(f.Content)
	}
	return []source.Diagnostic{jsonDiag(f, off, err)}
}

func jsonDiag(f *source.File, off int, err error) source.Diagnostic {
	end := off + 1
	if end > len(f.Content) {
		end = len(f.Content)
	}
	return source.Diagnostic{
		File: f.Name, Range: f.Range(off, end), Severity: source.Error, Code: "json-extension-not-json",
		Message: fmt.Sprintf("a .json workflow is parsed as strict JSON: %v; rename the file to .lobster or .yaml to use YAML", err),
	}
}

// IsWorkflowName reports whether a file name has an extension the reference
// loads workflow files from: .lobster, .yaml, .yml or .json, in any case.
func IsWorkflowName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".lobster", ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// Decoded is f as the reference reads its file: when the text is not
// UTF-8, f parsed again from [source.DecodeUTF8] of it (each ill-formed
// sequence one U+FFFD), so that what runs and what a plan shows is the
// text the reference would run; else f itself. The checker reads the file
// as written (invalid-utf8 points at the bytes); lines stay where they were,
// columns after a replaced byte on its line move. The diagnostics of the new
// parse are dropped: the checker has seen the file.
func Decoded(f *ast.File) *ast.File {
	if f == nil || f.Src == nil || utf8.Valid(f.Src.Content) {
		return f
	}
	d, _ := Parse(f.Src.Name, source.DecodeUTF8(f.Src.Content))
	return d
}
