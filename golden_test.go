package lobster_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/parser/astcheck"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/rogpeppe/go-internal/diff"
	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", os.Getenv("LOBSTER_UPDATE") != "", "rewrite golden files")

// TestGolden parses the input of every testdata/golden/*.txtar case and
// compares the AST dump and the diagnostics with the recorded sections. Run
// `go test . -update` (or LOBSTER_UPDATE=1) to rewrite them; review the diff.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.txtar")
	if len(files) < 40 {
		t.Errorf("only %d golden cases; the suite needs at least 40", len(files))
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			runGolden(t, path)
		})
	}
}

func runGolden(t *testing.T, path string) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var input *txtar.File
	for i := range ar.Files {
		if strings.HasPrefix(ar.Files[i].Name, "input.") {
			input = &ar.Files[i]
			break
		}
	}
	if input == nil {
		t.Fatalf("%s has no input.* section", path)
	}
	src := bytes.ReplaceAll(input.Data, []byte("<CR>"), []byte("\r"))
	f, diags := parser.Parse(input.Name, src)
	for _, e := range astcheck.Check(f, diags) {
		t.Errorf("invariant: %s", e)
	}
	got := map[string]string{"ast": dumpAST(f), "diagnostics": dumpDiags(diags)}
	changed := false
	for i := range ar.Files {
		sec := &ar.Files[i]
		want, known := got[sec.Name]
		if sec == input {
			continue
		}
		if !known {
			t.Errorf("unknown section %q", sec.Name)
			continue
		}
		delete(got, sec.Name)
		if string(sec.Data) == want {
			continue
		}
		if *update {
			sec.Data = []byte(want)
			changed = true
			continue
		}
		t.Errorf("section %s differs:\n%s", sec.Name, diff.Diff("want", sec.Data, "got", []byte(want)))
	}
	for _, name := range []string{"ast", "diagnostics"} {
		if want, missing := got[name]; missing {
			if !*update {
				t.Errorf("missing section %s", name)
				continue
			}
			ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(want)})
			changed = true
		}
	}
	if changed {
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func dumpAST(f *ast.File) string {
	var b bytes.Buffer
	if err := ast.Fprint(&b, f.Src, f); err != nil {
		return "error: " + err.Error()
	}
	return b.String()
}

func dumpDiags(diags []source.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "%s: %s: %s [%s]\n", d.Range, d.Severity, d.Message, d.Code)
		for _, r := range d.Related {
			fmt.Fprintf(&b, "  related %s: %s\n", r.Range, r.Message)
		}
		for _, fx := range d.Fixes {
			for _, e := range fx.Edits {
				fmt.Fprintf(&b, "  fix %q: %s -> %q\n", fx.Message, e.Range, e.NewText)
			}
		}
	}
	if b.Len() == 0 {
		return "(none)\n"
	}
	return b.String()
}
