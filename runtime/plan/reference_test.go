package plan_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/plan"
)

// TestReference compares the dry-run and graph texts with the reference's,
// recorded by scripts/record-plan-reference.py into
// testdata/reference/*.txtar (never written by this test: the expected
// texts are the reference's outputs). Each section starts with the
// reference's exit code; a failure is "Error: message" on its stderr.
func TestReference(t *testing.T) {
	paths, err := filepath.Glob("testdata/reference/*.txtar")
	if err != nil || len(paths) < 20 {
		t.Fatalf("want at least 20 reference cases, found %d (%v)", len(paths), err)
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			t.Parallel()
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			files := map[string]string{}
			for _, f := range ar.Files {
				files[f.Name] = string(f.Data)
			}
			for _, want := range []string{"w.lobster", "dryrun", "mermaid", "dot", "ascii"} {
				if _, ok := files[want]; !ok {
					t.Fatalf("no section %q (record the case with scripts/record-plan-reference.py)", want)
				}
			}
			p := buildCase(t, files)
			text, err := p.DryRun()
			check(t, "dryrun", outcome(text, err), files["dryrun"])
			for _, format := range plan.GraphFormats {
				text, err := p.Graph(format)
				if err != nil {
					t.Fatalf("Graph(%q): %v", format, err)
				}
				check(t, format, outcome(text, nil), files[format])
			}
		})
	}
}

// buildCase plans the case's w.lobster with its args.json, as if it were
// in a directory of its own holding the case's other files.
func buildCase(t *testing.T, files map[string]string) *plan.Plan {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var args any
	if a, ok := files["args.json"]; ok {
		v, err := jsvalue.Parse([]byte(a))
		if err != nil {
			t.Fatalf("args.json: %v", err)
		}
		args = v
	}
	path := filepath.Join(dir, "w.lobster")
	f, _ := parser.Parse(path, []byte(files["w.lobster"]))
	p, err := plan.Build(f, plan.Options{Args: args, Path: path})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return p
}

// outcome is what the reference's CLI would show: "exit 0" and the text,
// or "exit 1" and the error.
func outcome(text string, err error) string {
	if err != nil {
		return "exit 1\nError: " + err.Error() + "\n"
	}
	return "exit 0\n" + text
}

func check(t *testing.T, name, got, want string) {
	t.Helper()
	if got != want {
		t.Errorf("%s differs from the reference's (-reference +ours):\n%s", name, diff.Diff("reference", []byte(want), "ours", []byte(got)))
	}
}
