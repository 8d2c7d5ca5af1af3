package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/internal/corpustest"
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestShellGroupsMatchAlone parses every golden input and corpus file with
// shell texts parsed in groups and with every shell text parsed alone, and
// requires identical trees and diagnostics.
func TestShellGroupsMatchAlone(t *testing.T) {
	defer func() { shellGrouping = true }()
	for name, src := range parseInputs(t) {
		fname := inputFileName(name)
		shellGrouping = true
		grouped, groupedDiags := Parse(fname, src)
		shellGrouping = false
		alone, aloneDiags := Parse(fname, src)
		compareParses(t, name, grouped, groupedDiags, alone, aloneDiags)
	}
}

// compareParses fails t when two parses differ in tree, diagnostics or
// comments.
func compareParses(t *testing.T, name string, got *ast.File, gotDiags []source.Diagnostic, want *ast.File, wantDiags []source.Diagnostic) {
	t.Helper()
	var a, b bytes.Buffer
	_ = ast.Fprint(&a, got.Src, got)
	_ = ast.Fprint(&b, want.Src, want)
	if a.String() != b.String() {
		t.Errorf("%s: trees differ", name)
	}
	if !reflect.DeepEqual(gotDiags, wantDiags) {
		t.Errorf("%s: diagnostics differ:\n%v\n%v", name, gotDiags, wantDiags)
	}
	if !reflect.DeepEqual(got.Comments, want.Comments) {
		t.Errorf("%s: comments differ", name)
	}
}

// inputFileName is the file name to parse an input of parseInputs under.
func inputFileName(name string) string {
	if strings.HasSuffix(name, ".json") {
		return "f.json"
	}
	return "f.lobster"
}

// parseInputs are every golden input, every corpus file and a few texts
// that exercise the parser's grouped shell parsing.
func parseInputs(t *testing.T) map[string][]byte {
	inputs := map[string][]byte{}
	goldens, _ := filepath.Glob("../../testdata/golden/*.txtar")
	if len(goldens) == 0 {
		t.Fatal("no golden files in ../../testdata/golden")
	}
	for _, g := range goldens {
		ar, err := txtar.ParseFile(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasPrefix(f.Name, "input.") {
				inputs[filepath.Base(g)+"/"+f.Name] = f.Data
			}
		}
	}
	for _, c := range corpustest.Optional(t) {
		if data, err := os.ReadFile(c); err == nil {
			inputs[filepath.Base(c)] = data
		}
	}
	inputs["many steps"] = []byte(manySteps(300))
	inputs["many steps with an alias"] = []byte("x: &a echo hi\n" + manySteps(100) + "  - id: last\n    run: *a\n")
	inputs["shell texts that only parse together"] = []byte("steps:\n  - id: a\n    run: echo \"open\n  - id: b\n    run: close\" $X\n  - id: c\n    run: echo |\n  - id: d\n    run: cat $Y\n  - id: e\n    run: if true; then\n  - id: f\n    run: fi\n  - id: g\n    run: \"echo \\\\\"\n  - id: h\n    run: echo $Z\n")
	inputs["many steps with an error"] = []byte(manySteps(100) + "  - id: bad\n    run: \"open\n" + manySteps(50)[len("steps:\n"):])
	return inputs
}

func manySteps(n int) string {
	var b strings.Builder
	b.WriteString("steps:\n")
	for i := range n {
		id := "s" + strings.Repeat("x", i%5) + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676%26))
		b.WriteString("  # step comment\n  - id: " + id + "\n    run: |\n      echo \"$LOBSTER_ARG_X\" $prev.json\n    env:\n      A: ${x}\n")
	}
	return b.String()
}
