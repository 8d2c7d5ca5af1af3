package lobster_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// outsideCitation matches a citation of a document that is not in the
// repository: a section of the behaviour specifications the project was
// written from (an abbreviation such as WF or PRC, or "spec", and a section
// sign), their file names, and their numbered catalogue of the reference's
// tests. A reader of the repository cannot follow them: cite the
// repository's own docs, or say the fact.
var outsideCitation = regexp.MustCompile(`\b(?:WF|PRC|UN|LR|ED) §|\bspec(?: pipelines)? §|\bspec [0-9]+\.[0-9]+ #|\b(?:workflow-files|pipelines-runtime-cli|lint-rules|editor-and-lsp|user-needs)\.md\b`)

// TestNoOutsideCitations keeps such citations out of every text file of the
// repository (code, docs, test data).
func TestNoOutsideCitations(t *testing.T) {
	checked := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules":
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if bytes.IndexByte(data, 0) >= 0 {
			return nil // binary
		}
		checked++
		for i, line := range strings.Split(string(data), "\n") {
			// Every citation has one of these; the regexp is slow under -race.
			if !strings.Contains(line, "§") && !strings.Contains(line, ".md") && !strings.Contains(line, "spec ") {
				continue
			}
			if m := outsideCitation.FindString(line); m != "" {
				t.Errorf("%s:%d: %q cites a document outside the repository: cite its own docs, or say the fact", path, i+1, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d files checked: is the walk broken?", checked)
	}
}
