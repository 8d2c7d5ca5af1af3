package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.lsp.dev/protocol"
	"golang.org/x/tools/txtar"
)

// TestNoPanicAnywhere runs every position request at every offset of the
// examples and of the golden inputs (broken files included), calling the
// handlers directly so that a panic fails the test instead of being
// recovered.
func TestNoPanicAnywhere(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	files := map[string][]byte{}
	examples, _ := filepath.Glob("../examples/*")
	for _, p := range examples {
		if b, err := os.ReadFile(p); err == nil {
			files[filepath.Base(p)] = b
		}
	}
	goldens, _ := filepath.Glob("../testdata/golden/*.txtar")
	for _, p := range goldens {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if filepath.Ext(f.Name) == ".lobster" || filepath.Ext(f.Name) == ".json" {
				files[filepath.Base(p)+"/"+f.Name] = f.Data
			}
		}
	}
	if len(files) < 20 {
		t.Fatalf("only %d files", len(files))
	}
	s := NewServer(Options{})
	ctx := context.Background()
	for name, text := range files {
		doc := newSnapshot(protocol.DocumentURI("file:///nowhere/"+name), 1, text)
		an := doc.analysis()
		for _, fn := range []requestFunc{documentSymbols, foldingRanges, semanticTokensFull, documentLinks, codeLenses} {
			if _, err := fn(ctx, s, doc, json.RawMessage(`{"textDocument":{"uri":"x"}}`)); err != nil {
				t.Errorf("%s: %v", name, err)
			}
		}
		whole, _ := json.Marshal(map[string]any{"range": an.m.Range(an.file.Span)})
		inlayHints(ctx, s, doc, whole)
		codeActions(ctx, s, doc, whole)
		step := max(1, len(text)/400) // about 400 offsets per file
		for off := 0; off <= len(text); off += step {
			p := an.m.Position(off)
			raw, _ := json.Marshal(map[string]any{"position": p, "newName": "renamed", "context": map[string]any{"includeDeclaration": true}})
			for _, fn := range []requestFunc{hover, completion, definition, references, documentHighlight, prepareRename, rename} {
				fn(ctx, s, doc, raw)
			}
		}
	}
}

// FuzzRequests runs the position requests on arbitrary text at an
// arbitrary offset.
func FuzzRequests(f *testing.F) {
	f.Add([]byte(flow), 120)
	f.Add([]byte(typo), 60)
	f.Add([]byte("steps:\n  - {id: a, run: \"echo $a.\n"), 30)
	f.Add([]byte("[1, 2"), 3)
	s := NewServer(Options{})
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, text []byte, off int) {
		watchdog := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("stuck on %q at %d", text, off)) })
		defer watchdog.Stop()
		doc := newSnapshot("file:///nowhere/f.lobster", 1, text)
		an := doc.analysis()
		if off < 0 {
			off = -off
		}
		off %= len(text) + 1
		raw, _ := json.Marshal(map[string]any{"position": an.m.Position(off), "newName": "n", "context": map[string]any{}})
		for _, fn := range []requestFunc{hover, completion, definition, references, documentHighlight, prepareRename, rename, documentSymbols, foldingRanges, semanticTokensFull} {
			fn(ctx, s, doc, raw)
		}
		whole, _ := json.Marshal(map[string]any{"range": an.m.Range(an.file.Span)})
		inlayHints(ctx, s, doc, whole)
		codeActions(ctx, s, doc, whole)
	})
}
