package parser

import (
	"bytes"
	"testing"

	"github.com/lobsterdev/lobster/lang/ast"
)

// TestCacheMatchesParse parses every input through one shared cache, cold
// and then warm after the text moved down a line (cached offsets are
// relative to their text, so every position must follow), and requires the
// same trees and diagnostics as a parse without a cache.
func TestCacheMatchesParse(t *testing.T) {
	c := NewCache()
	hits := 0
	for name, src := range parseInputs(t) {
		fname := inputFileName(name)
		want, wantDiags := Parse(fname, src)
		cold, coldDiags := ParseCached(fname, src, c)
		compareParses(t, name+" (cold cache)", cold, coldDiags, want, wantDiags)

		moved := src
		if fname != "f.json" && !bytes.HasPrefix(src, bom) {
			moved = append([]byte("# moved\n"), src...)
		}
		want, wantDiags = Parse(fname, moved)
		warm, warmDiags := ParseCached(fname, moved, c)
		compareParses(t, name+" (warm cache)", warm, warmDiags, want, wantDiags)
		hits += len(c.prev)
	}
	if hits == 0 {
		t.Error("the cache was never used")
	}
}

// TestCacheKeepsWhatTheLastParseUsed: a text no longer in the file is
// dropped after one parse, so the cache does not grow with the edits.
func TestCacheKeepsWhatTheLastParseUsed(t *testing.T) {
	c := NewCache()
	ParseCached("f.lobster", []byte("steps:\n  - id: a\n    run: echo $A\n  - id: b\n    run: echo $B\n"), c)
	if len(c.prev) != 2 {
		t.Fatalf("cache after the first parse holds %d texts, want 2", len(c.prev))
	}
	file, _ := ParseCached("f.lobster", []byte("steps:\n  - id: a\n    run: echo $A\n  - id: b\n    run: echo $C | (\n"), c)
	if len(c.prev) != 2 || c.prev["echo $B"].toks != nil {
		t.Errorf("cache after the edit holds %v", c.prev)
	}
	if _, ok := c.prev["echo $C | ("]; !ok {
		t.Errorf("the new text was not kept: %v", c.prev)
	}
	// The cached syntax error is reported again, at the new text's position.
	ParseCached("f.lobster", []byte("steps:\n  - id: a\n    run: echo $A\n  - id: b\n    run: echo $C | (\n"), c)
	again, _ := ParseCached("f.lobster", []byte("steps:\n  - id: b\n    run: echo $C | (\n"), c)
	if e1, e2 := shellErr(file), shellErr(again); e1 == nil || e2 == nil || e1.Msg != e2.Msg || e2.Span.Start != e1.Span.Start-len("  - id: a\n    run: echo $A\n") {
		t.Errorf("syntax errors: %+v then %+v", e1, e2)
	}
}

// shellErr is the first shell syntax error in file, or nil.
func shellErr(file *ast.File) *ast.SyntaxError {
	var err *ast.SyntaxError
	ast.Inspect(file, func(n ast.Node) bool {
		if sh, ok := n.(*ast.Shell); ok && sh.Err != nil && err == nil {
			err = sh.Err
		}
		return err == nil
	})
	return err
}
