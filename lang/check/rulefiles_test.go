package check_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ruleLogicShared are the parts of a rule's own logic that foreign-dialect
// reuses: it collects their findings and reports them only when the file
// is not in another dialect.
var ruleLogicShared = []string{"collectCanonicalKeys", "collectMetadataKeys", "collectMustache", "collectUnknownKeys"}

// TestRuleFilesHoldTheirRule keeps each rule file (one that declares an
// Analyzer) to its rule: what other files use of it is its Analyzer only.
// What rules share lives in Info (info.go) or in a helper file of its
// family (argenvhelpers.go, gatehelpers.go, condhelpers.go, refsupport.go,
// shellwords.go, pipelinestage.go, policyhelpers.go, structureutil.go, ...).
func TestRuleFilesHoldTheirRule(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	// Only the package's own names matter: imports are empty packages, and
	// the errors of what they would have declared are ignored.
	conf := types.Config{Importer: emptyImporter{}, Error: func(error) {}}
	pkg, _ := conf.Check("github.com/lobsterdev/lobster/lang/check", fset, files, info)
	ruleFile := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(fset.File(f.Pos()).Name())
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(src), "= &Analyzer{") {
			ruleFile[fset.File(f.Pos()).Name()] = true
		}
	}
	if len(ruleFile) < 100 {
		t.Fatalf("only %d rule files found", len(ruleFile))
	}
	for id, obj := range info.Uses {
		if obj.Pkg() != pkg || obj.Parent() != pkg.Scope() || obj.Exported() {
			continue // not a package-level name, or an Analyzer and the API
		}
		def := fset.File(obj.Pos()).Name()
		use := fset.File(id.Pos()).Name()
		if def != use && ruleFile[def] && !slices.Contains(ruleLogicShared, obj.Name()) {
			t.Errorf("%s uses %s of the rule file %s: move it to Info or to a helper file", fset.Position(id.Pos()), obj.Name(), def)
		}
	}
}

// emptyImporter imports every package as an empty one.
type emptyImporter struct{}

func (emptyImporter) Import(path string) (*types.Package, error) {
	p := types.NewPackage(path, filepath.Base(path))
	p.MarkComplete()
	return p, nil
}
