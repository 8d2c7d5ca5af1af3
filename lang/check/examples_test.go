package check_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
)

// notCheckable are the examples that cannot be checked as they are shown,
// and why. TestExamples checks that each is still not reported, so that
// the list cannot keep one that has become checkable.
var notCheckable = map[string]string{
	"limit-exceeded": "the example elides the nesting that reaches the limit",
	"internal-error": "no input is meant to make the checker fail",
	"invalid-utf8":   "the example writes the invalid byte as \\xE9: documents hold valid UTF-8",
}

// TestExamples: each analyzer's Bad example is reported by it, and its Good
// example is not. A list of steps is checked as the steps of a workflow;
// the files an example declares are written beside it. The configuration's
// codes are checked on configuration files by lang/config.
func TestExamples(t *testing.T) {
	shellcheck, _ := exec.LookPath("shellcheck")
	for _, a := range check.All {
		if strings.HasPrefix(a.Name, "config-") {
			continue
		}
		t.Run(a.Name, func(t *testing.T) {
			if a == check.Shellcheck && shellcheck == "" {
				t.Skip("shellcheck is not installed")
			}
			opts := check.Options{Shellcheck: shellcheck}
			n, codes := exampleFindings(t, a, a.Bad, opts)
			if why, ok := notCheckable[a.Name]; ok {
				if n != 0 {
					t.Errorf("the Bad example is reported: remove it from notCheckable (%s)", why)
				}
				return
			}
			if n == 0 {
				t.Errorf("the Bad example is not reported (found: %s)", strings.Join(codes, ", "))
			}
			if strings.TrimSpace(a.Good) == "" {
				return
			}
			if n, _ := exampleFindings(t, a, a.Good, opts); n != 0 {
				t.Errorf("the Good example is reported %d times", n)
			}
		})
	}
}

// exampleFindings writes an example and the files it declares into a
// temporary directory, checks it with every analyzer, and returns how many
// findings of a's code it has, and the codes of all.
func exampleFindings(t *testing.T, a *check.Analyzer, example string, opts check.Options) (int, []string) {
	t.Helper()
	dir := t.TempDir()
	name, main, files := check.ExampleFiles(example)
	if name == "" {
		name = "example.lobster"
		if first := firstLine(main); strings.HasPrefix(first, "- ") {
			main = "steps:\n" + indent(main, "  ")
		}
	}
	for _, f := range files {
		write(t, filepath.Join(dir, f.Name), f.Data)
	}
	opts.Path = filepath.Join(dir, name)
	write(t, opts.Path, []byte(main))
	f, diags := parser.Parse(name, []byte(main))
	n := 0
	var codes []string
	for _, d := range check.RunWith(f, diags, check.All, opts) {
		if d.Code == a.Name || strings.HasPrefix(d.Code, a.Name+"/") {
			n++
		}
		codes = append(codes, d.Code)
	}
	return n, codes
}

// firstLine is the first line of text that is neither blank nor a comment.
func firstLine(text string) string {
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			return l
		}
	}
	return ""
}

func indent(text, by string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = by + l
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
