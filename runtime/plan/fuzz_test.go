package plan_test

import (
	"encoding/json"
	"io/fs"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/plan"
)

// FuzzBuild plans arbitrary files: Build must return a plan or an error,
// never panic, and every rendering of a plan must work.
func FuzzBuild(f *testing.F) {
	for _, glob := range []string{"testdata/reference/*.txtar", "testdata/plan/*.txtar", "../../testdata/golden/*.txtar"} {
		paths, _ := filepath.Glob(glob)
		for _, path := range paths {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				f.Fatal(err)
			}
			for _, file := range ar.Files {
				if file.Name == "w.lobster" || file.Name == "input.lobster" {
					f.Add(file.Data)
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, _ := parser.Parse("w.lobster", src)
		p, err := plan.Build(file, plan.Options{Path: "w.lobster", ReadFile: func(string) ([]byte, error) { return nil, fs.ErrNotExist }})
		if err != nil {
			if p != nil {
				t.Fatalf("a plan and an error: %v", err)
			}
			return
		}
		p.Text()
		p.DryRun()
		for _, format := range plan.GraphFormats {
			if _, err := p.Graph(format); err != nil {
				t.Fatalf("Graph(%s): %v", format, err)
			}
		}
		if _, err := json.Marshal(p); err != nil {
			t.Fatalf("json: %v", err)
		}
		if d := plan.Diff(p, p); d != "" {
			t.Fatalf("Diff of a plan with itself:\n%s", d)
		}
	})
}
