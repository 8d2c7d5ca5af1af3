package lobster_test

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The package layers of the module, lowest first. A package belongs to the
// component whose path is the longest prefix of its own (lang/check/internal/x
// belongs to lang/check), and may import its own component and the
// components listed for it. cmd/* may import anything but cmd.
//
// In words: lang/source, lang/js and lang/bounded (the bounded file reader
// every reader of a user-controlled path uses) import nothing of the module;
// lang/jsvalue (JSON values, which the runtime and the LSP share) imports
// lang/js only; each lang/ package
// imports only the lang/ packages below it; nothing under lang/ imports
// runtime, lsp or cmd; runtime imports lang/ only, except runtime/plan,
// which may import the rest of runtime (and nothing under runtime imports
// it, except runtime/preview, which loads, checks and plans a file for the
// front ends); lsp imports lang/ and runtime; mcp imports lang/, runtime
// and the embedded schema and docs; nothing imports cmd.
var layers = []struct {
	component string
	allowed   []string
}{
	{"lang/source", nil},
	{"lang/js", nil},
	{"lang/bounded", nil},
	{"lang/jsvalue", []string{"lang/js"}},
	{"lang/ast", []string{"lang/source"}},
	{"lang/parser", []string{"lang/source", "lang/js", "lang/bounded", "lang/ast"}},
	{"lang/commands", []string{"lang/source", "lang/ast"}},
	{"lang/check", []string{"lang/source", "lang/js", "lang/bounded", "lang/ast", "lang/parser", "lang/commands"}},
	{"lang/discover", []string{"lang/source", "lang/bounded", "lang/ast", "lang/parser"}}, // which files of a directory are workflows
	{"lang/schema", nil},
	{"lang/config", []string{"lang/source", "lang/js", "lang/bounded", "lang/ast", "lang/parser", "lang/commands", "lang/check", "lang/schema"}},
	{"runtime", []string{"lang/"}},
	{"runtime/plan", []string{"lang/", "runtime"}},                    // above the executor: plans from the same pieces
	{"runtime/preview", []string{"lang/", "runtime", "runtime/plan"}}, // load, check and plan, for every front end
	// Temporal's executor and the choice of engine sit above the engine:
	// nothing else under runtime depends on Temporal.
	{"runtime/temporal", []string{"lang/", "runtime"}},
	{"runtime/engines", []string{"lang/", "runtime"}},
	{"lsp", []string{"lang/", "runtime"}},
	{"mcp", []string{"lang/", "runtime", "schema", "docs"}}, // beside lsp: the toolchain for agents
}

// componentOf is the component of the module-relative package path pkg
// ("" for the module root): an entry of layers, "cmd" for cmd/*, "lang/" for
// another package under lang/, or pkg itself.
func componentOf(pkg string) string {
	best := ""
	for _, l := range layers {
		if within(pkg, l.component) && len(l.component) > len(best) {
			best = l.component
		}
	}
	switch {
	case best != "":
		return best
	case within(pkg, "cmd"):
		return "cmd"
	case within(pkg, "lang"):
		return "lang/"
	}
	return pkg
}

// within reports whether pkg is dir or lies under it. A dir ending in "/"
// matches only packages under it.
func within(pkg, dir string) bool {
	if strings.HasSuffix(dir, "/") {
		return strings.HasPrefix(pkg, dir)
	}
	return pkg == dir || strings.HasPrefix(pkg, dir+"/")
}

// allowedImport reports whether the package importer may import the package
// imported (both module-relative), and if not, why.
func allowedImport(importer, imported string) (bool, string) {
	from, to := componentOf(importer), componentOf(imported)
	if to == "cmd" {
		return false, "nothing may import cmd/*"
	}
	if from == to {
		return true, ""
	}
	for _, l := range layers {
		if l.component != from {
			continue
		}
		for _, a := range l.allowed {
			if within(imported, a) {
				return true, ""
			}
		}
		if len(l.allowed) == 0 {
			return false, fmt.Sprintf("%s may not import other packages of the module", from)
		}
		return false, fmt.Sprintf("%s may import only %s", from, strings.Join(l.allowed, ", "))
	}
	// Packages outside the table follow the rules in words.
	if from == "lang/" && (within(imported, "runtime") || within(imported, "lsp")) {
		return false, "nothing under lang/ may import runtime or lsp"
	}
	return true, ""
}

// An importEdge is one import of one file.
type importEdge struct {
	file     string // module-relative, with forward slashes
	importer string // module-relative package path
	imported string // module-relative package path
}

// moduleImports lists the imports of module packages made by the non-test Go
// files under root, a module whose path is modPath. It skips testdata,
// directories starting with "." or "_", node_modules, nested modules and
// files marked //go:build ignore.
func moduleImports(root, modPath string) ([]importEdge, error) {
	var edges []importEdge
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path == root {
				return nil
			}
			if name == "testdata" || name == "node_modules" || name == "vendor" ||
				strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		for _, cg := range f.Comments {
			if cg.Pos() >= f.Package {
				break
			}
			for _, c := range cg.List {
				if strings.TrimSpace(c.Text) == "//go:build ignore" {
					return nil
				}
			}
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		pkg := filepath.ToSlash(filepath.Dir(rel))
		if pkg == "." {
			pkg = ""
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			var target string
			switch {
			case p == modPath:
				target = ""
			case strings.HasPrefix(p, modPath+"/"):
				target = strings.TrimPrefix(p, modPath+"/")
			default:
				continue
			}
			edges = append(edges, importEdge{file: rel, importer: pkg, imported: target})
		}
		return nil
	})
	return edges, err
}

// layeringViolations returns one message per import that breaks the layers.
func layeringViolations(edges []importEdge, modPath string) []string {
	var msgs []string
	for _, e := range edges {
		if ok, why := allowedImport(e.importer, e.imported); !ok {
			full := modPath
			if e.imported != "" {
				full += "/" + e.imported
			}
			msgs = append(msgs, fmt.Sprintf("%s: imports %q: %s", e.file, full, why))
		}
	}
	sort.Strings(msgs)
	return msgs
}

// modulePath reads the module path from the go.mod file in dir.
func modulePath(dir string) (string, error) {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return "", err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module"); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", err
	}
	return "", fmt.Errorf("%s: no module line", f.Name())
}

// TestDependencyLayers enforces the package layering over the module's
// non-test Go files.
func TestDependencyLayers(t *testing.T) {
	modPath, err := modulePath(".")
	if err != nil {
		t.Fatal(err)
	}
	edges, err := moduleImports(".", modPath)
	if err != nil {
		t.Fatal(err)
	}
	if len(edges) == 0 {
		t.Fatal("found no module-internal imports; is the walk broken?")
	}
	for _, msg := range layeringViolations(edges, modPath) {
		t.Errorf("layering violation: %s", msg)
	}
}

// TestAllowedImport checks the rule itself, bad edges included.
func TestAllowedImport(t *testing.T) {
	tests := []struct {
		importer, imported string
		ok                 bool
	}{
		{"lang/ast", "lang/source", true},
		{"lang/parser", "lang/ast", true},
		{"lang/parser", "lang/source", true},
		{"lang/parser/astcheck", "lang/ast", true},
		{"lang/parser/astcheck", "lang/parser", true},
		{"lang/check", "lang/parser", true},
		{"lang/check", "lang/check/internal/checktest", true},
		{"lang/check/internal/checktest", "lang/check", true},
		{"runtime", "lang/ast", true},
		{"runtime", "lang/check", true},
		{"runtime/pipeline", "runtime", true},
		{"runtime/pipeline", "lang/commands", true},
		{"runtime/pipeline", "lang/parser", true},
		{"runtime/plan", "runtime/engine", true},
		{"runtime/temporal", "runtime/engine", true},
		{"runtime/temporal/temporaltest", "runtime/temporal", true},
		{"runtime/engines", "runtime/temporal", true},
		{"cmd/lobster", "runtime/engines", true},
		{"runtime/plan", "lang/parser", true},
		{"lsp", "runtime/plan", true},
		{"lsp", "lang/check", true},
		{"lsp", "runtime", true},
		{"lsp", "runtime/plan", true},
		{"lsp", "lang/schema", true},
		{"lsp/protocol", "lang/source", true},
		{"cmd/lobster", "lsp", true},
		{"cmd/lobster", "mcp", true},
		{"mcp", "runtime/engine", true},
		{"mcp", "lang/check", true},
		{"mcp", "schema", true},
		{"mcp", "lsp", false},
		{"mcp", "cmd/lobster", false},
		{"lsp", "mcp", false},
		{"runtime/engine", "mcp", false},
		{"cmd/lobster", "runtime", true},
		{"cmd/lobster-lsp", "lsp", true},
		{"lang/format", "lang/parser", true},
		{"internal/testutil", "lang/parser", true},

		{"lang/source", "lang/ast", false},
		{"lang/source", "lang/sourcex", false},
		{"lang/ast", "lang/parser", false},
		{"lang/ast", "runtime", false},
		{"lang/parser", "lang/check", false},
		{"lang/parser/astcheck", "lang/check", false},
		{"lang/check", "runtime", false},
		{"lang/check", "lsp", false},
		{"lang/check", "cmd/lobster", false},
		{"lang/format", "runtime", false},
		{"lang/format", "lsp/protocol", false},
		{"runtime", "lsp", false},
		{"runtime/pipeline", "cmd/lobster", false},
		{"runtime/engine", "runtime/plan", false},
		{"runtime/engine", "runtime/temporal", false},
		{"runtime/engine", "runtime/engines", false},
		{"runtime/pipeline", "runtime/temporal", false},
		{"runtime/preview", "runtime/plan", true},
		{"lang/config", "lang/check", true},
		{"lang/config", "lang/schema", true},
		{"lang/check", "lang/config", false},
		{"lang/config", "runtime", false},
		{"lang/schema", "lang/check", false},
		{"runtime/preview", "lang/config", true},
		{"runtime/preview", "lang/check", true},
		{"runtime/engine", "runtime/preview", false},
		{"runtime/preview", "lsp", false},
		{"runtime/plan", "lsp", false},
		{"runtime", "cmd/lobster", false},
		{"runtime", "", false},
		{"lsp", "cmd/lobster", false},
		{"lsp", "cmd/lobster-lsp", false},
		{"runtime/plan", "lsp", false},
		{"cmd/lobster", "cmd/lobster-lsp", false},
		{"internal/testutil", "cmd/lobster", false},
		{"", "cmd/lobster", false},
	}
	for _, tt := range tests {
		ok, why := allowedImport(tt.importer, tt.imported)
		if ok != tt.ok {
			t.Errorf("allowedImport(%q, %q) = %v (%s), want %v", tt.importer, tt.imported, ok, why, tt.ok)
		}
		if !ok && why == "" {
			t.Errorf("allowedImport(%q, %q): no reason given", tt.importer, tt.imported)
		}
	}
}

// TestLayeringViolationsReported runs the whole check on a fake module with
// bad imports, to show that the test can fail and what it says.
func TestLayeringViolationsReported(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"go.mod":                             "module example.com/fake\n\ngo 1.26\n",
		"lang/source/source.go":              "package source\n",
		"lang/ast/ast.go":                    "package ast\n\nimport (\n\t\"fmt\"\n\t\"example.com/fake/lang/source\"\n\t\"example.com/fake/runtime\"\n)\n",
		"lang/ast/ast_test.go":               "package ast\n\nimport _ \"example.com/fake/cmd/lobster\"\n",
		"runtime/run.go":                     "package runtime\n\nimport _ \"example.com/fake/lang/ast\"\n",
		"lsp/server.go":                      "package lsp\n\nimport _ \"example.com/fake/cmd/lobster\"\n",
		"cmd/lobster/main.go":                "package main\n\nimport _ \"example.com/fake/lsp\"\n",
		"lang/check/gen.go":                  "//go:build ignore\n\npackage main\n\nimport _ \"example.com/fake/cmd/lobster\"\n",
		"lang/check/testdata/x.go":           "package x\n\nimport _ \"example.com/fake/lsp\"\n",
		"editors/vscode/node_modules/m/m.go": "package m\n\nimport _ \"example.com/fake/cmd/lobster\"\n",
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	modPath, err := modulePath(root)
	if err != nil {
		t.Fatal(err)
	}
	edges, err := moduleImports(root, modPath)
	if err != nil {
		t.Fatal(err)
	}
	got := layeringViolations(edges, modPath)
	want := []string{
		`lang/ast/ast.go: imports "example.com/fake/runtime": lang/ast may import only lang/source`,
		`lsp/server.go: imports "example.com/fake/cmd/lobster": nothing may import cmd/*`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
