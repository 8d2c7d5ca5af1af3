// Package corpustest finds the real-world workflow files that some tests
// read from the corpus directory beside the repository (../shared/corpus
// seen from its root). A fresh clone has none: the tests that need it skip
// with a message saying what did not run, and make test prints one line
// naming them (scripts/corpus-skips.sh, which finds them by their calls of
// Files and Optional).
package corpustest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Dir is the corpus directory, relative to the repository root.
const Dir = "../shared/corpus"

// Files lists the corpus files (SOURCES.md aside), as paths relative to
// the test's working directory (its package's directory). With none, it
// skips t: what names what did not run ("the SARIF output of every corpus
// file was not validated").
func Files(t testing.TB, what string) []string {
	t.Helper()
	files, dir := list(t)
	if len(files) == 0 {
		t.Skipf("NOT RUN: no corpus at %s: %s", dir, what)
	}
	return files
}

// Optional is Files for a test that adds the corpus to inputs of its own:
// with no corpus it returns nil and the test runs on the rest.
func Optional(t testing.TB) []string {
	t.Helper()
	files, dir := list(t)
	if len(files) == 0 {
		t.Logf("no corpus at %s: run without its files", dir)
	}
	return files
}

// list lists the corpus, and names its directory relative to the working
// directory.
func list(t testing.TB) ([]string, string) {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := wd
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			t.Fatalf("no go.mod above %s", wd)
		}
		root = parent
	}
	dir, err := filepath.Rel(wd, filepath.Join(root, filepath.FromSlash(Dir)))
	if err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	var files []string
	for _, n := range names {
		if !strings.HasSuffix(n, ".md") {
			files = append(files, n)
		}
	}
	return files, dir
}
