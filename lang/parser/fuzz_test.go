package parser

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser/astcheck"
	"github.com/rogpeppe/go-internal/txtar"
)

// FuzzParse checks that Parse never panics, that every range lies in the
// file with children inside their parents, that token ranges spell their
// tokens, and that parsing is deterministic, with and without a Cache.
// Seeds: every golden input and every corpus file.
func FuzzParse(f *testing.F) {
	goldens, _ := filepath.Glob("../../testdata/golden/*.txtar")
	for _, g := range goldens {
		ar, err := txtar.ParseFile(g)
		if err != nil {
			continue
		}
		for _, file := range ar.Files {
			if strings.HasPrefix(file.Name, "input.") {
				f.Add(file.Name, file.Data)
			}
		}
	}
	corpus, _ := filepath.Glob("../../../shared/corpus/*")
	for _, c := range corpus {
		if data, err := os.ReadFile(c); err == nil && !strings.HasSuffix(c, ".md") {
			f.Add(filepath.Base(c), data)
		}
	}
	f.Add("x.json", []byte(`{"steps":[{"id":"a","run":"echo \u00e9 $a.json"}]}`))
	f.Fuzz(func(t *testing.T, name string, src []byte) {
		if !strings.HasSuffix(strings.ToLower(name), ".json") {
			name = "f.lobster"
		}
		file, diags := Parse(name, src)
		if file == nil {
			t.Fatal("nil file")
		}
		for _, e := range astcheck.Check(file, diags) {
			t.Error(e)
		}
		file2, diags2 := Parse(name, src)
		var a, b bytes.Buffer
		_ = ast.Fprint(&a, file.Src, file)
		_ = ast.Fprint(&b, file2.Src, file2)
		if a.String() != b.String() || !reflect.DeepEqual(diags, diags2) {
			t.Error("two parses differ")
		}
		// Through a cache, cold and then warm, the same again.
		cache := NewCache()
		for _, pass := range []string{"cold", "warm"} {
			file3, diags3 := ParseCached(name, src, cache)
			var c bytes.Buffer
			_ = ast.Fprint(&c, file3.Src, file3)
			if a.String() != c.String() || !reflect.DeepEqual(diags, diags3) {
				t.Errorf("a parse through a %s cache differs", pass)
			}
		}
	})
}
