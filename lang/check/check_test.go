package check_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/check/internal/checktest"
	"github.com/lobsterdev/lobster/lang/parser"
)

func TestValidate(t *testing.T) {
	if err := check.Validate(check.All); err != nil {
		t.Fatal(err)
	}
}

// TestAnalyzers runs every rule over its own test data.
func TestAnalyzers(t *testing.T) {
	for _, a := range check.Rules {
		if a == check.Shellcheck {
			// Its findings are the shellcheck program's, which vary with
			// its version and are off without it: TestShellcheck checks
			// testdata/shellcheck with the real program.
			continue
		}
		t.Run(a.Name, func(t *testing.T) { checktest.Run(t, ".", a) })
	}
}

// TestDocs keeps docs/diagnostics.md equal to the registry's documentation.
func TestDocs(t *testing.T) {
	const path = "../../docs/diagnostics.md"
	want := check.Markdown(check.All)
	got, err := os.ReadFile(path)
	if string(got) == want {
		return
	}
	if *checktest.Update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%v (run go test ./lang/check -update)", err)
	}
	t.Errorf("%s is out of date: run go test ./lang/check -update", path)
}

func TestExplain(t *testing.T) {
	text, ok := check.Explain("unknown-step-ref")
	if !ok || text == "" {
		t.Fatal("no explanation for unknown-step-ref")
	}
	if _, ok := check.Explain("no-such-code"); ok {
		t.Error("an unknown code has an explanation")
	}
}

// TestAllRulesTogether runs every rule at once (concurrently, as lobster
// check does) over every test file: no rule may crash or race on another
// rule's inputs.
func TestAllRulesTogether(t *testing.T) {
	files, _ := filepath.Glob("testdata/*/*")
	n := 0
	for _, path := range files {
		switch filepath.Ext(path) {
		case ".lobster", ".yaml", ".yml", ".json":
		default:
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, diags := parser.Parse(filepath.Base(path), src)
		for _, d := range check.RunWith(f, diags, check.Rules, check.Options{Path: path}) {
			if d.Code == "internal-error" {
				t.Errorf("%s: %s", path, d.Message)
			}
		}
		n++
	}
	if n < 100 {
		t.Errorf("only %d test files", n)
	}
}

// TestNulInBlockScalar: in a block scalar (where a want comment would be
// text) the finding is at the NUL's own byte.
func TestNulInBlockScalar(t *testing.T) {
	src := "steps:\n  - id: block\n    run: |\n      echo one\n      echo \x00two\n"
	f, diags := parser.Parse("b.lobster", []byte(src))
	got := check.Run(f, diags, []*check.Analyzer{check.NulInShell})
	if len(got) != 1 || got[0].Range.Start.Offset != strings.IndexByte(src, 0) || got[0].Range.End.Offset != strings.IndexByte(src, 0)+1 ||
		got[0].Range.Start.Line != 5 || got[0].Range.Start.Col != 12 {
		t.Errorf("got %v", got)
	}
}

// TestSubworkflowTooLarge: a child over the size limit is a finding (from
// its size, without reading it), since the step fails when it loads it.
func TestSubworkflowTooLarge(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "big.lobster"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(10 << 30); err != nil {
		t.Skipf("no sparse files: %v", err)
	}
	f.Close()
	parent := filepath.Join(dir, "parent.lobster")
	file, diags := parser.Parse(parent, []byte("steps:\n  - id: sub\n    workflow: ./big.lobster\n"))
	got := check.RunWith(file, diags, []*check.Analyzer{check.SubworkflowInvalid}, check.Options{Path: parent})
	want := `sub-workflow "./big.lobster" is not read: the file is 10737418240 bytes; files over 8388608 bytes are not read; the step fails when it loads the child`
	if len(got) != 1 || got[0].Message != want || got[0].Range.Start.Line != 3 {
		t.Errorf("got %v", got)
	}
}

// TestChildReadOnce: every rule that looks into a child workflow shares
// one read and parse of it per check.
func TestChildReadOnce(t *testing.T) {
	dir := t.TempDir()
	parent := filepath.Join(dir, "parent.lobster")
	src := "steps:\n  - id: a\n    workflow: ./child.lobster\n    workflow_args: {x: $b.json}\n  - id: b\n    workflow: ./child.lobster\n    env: {K: v}\n"
	child := []byte("args:\n  x: {default: \"1\"}\nsteps:\n  - id: c\n    approval: ok?\n    run: echo \"$LOBSTER_ARG_X\"\n")
	var mu sync.Mutex
	reads := map[string]int{}
	readFile := func(path string) ([]byte, error) {
		mu.Lock()
		reads[filepath.Base(path)]++
		mu.Unlock()
		return child, nil
	}
	file, diags := parser.Parse(parent, []byte(src))
	check.RunWith(file, diags, check.All, check.Options{Path: parent, ReadFile: readFile})
	if reads["child.lobster"] != 1 {
		t.Errorf("child.lobster read %d times in one check, want 1 (reads: %v)", reads["child.lobster"], reads)
	}
}
