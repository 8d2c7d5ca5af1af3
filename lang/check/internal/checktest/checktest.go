// Package checktest runs an analyzer over its test files and compares the
// findings with `# want "regexp"` comments, in the manner of analysistest.
//
// Each file in testdata/<code>/ (*.lobster, *.yaml, *.json) is parsed and
// checked with the one analyzer. Every finding of that code must match a want
// on the line where the finding starts: the regexp is matched against
// "severity: message". Every want must be matched by exactly one finding.
// A line may hold several wants: # want "a" `b` (Go string syntax). Wants cannot stand inside
// block scalars (there "#" is text); put such cases on the line of the key.
//
// When a file X has a companion X.fixed, the first fix of every finding is
// applied and the result must equal it (-update rewrites it). An unsafe
// fix (one that lobster check --fix leaves out without --unsafe-fixes) is
// marked by a line "# unsafe fix at LINE:COL: MESSAGE" at the top of X.fixed,
// one per unsafe fix in the order of the findings.
package checktest

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// Update is the -update flag (or LOBSTER_UPDATE=1): rewrite golden files.
var Update = flag.Bool("update", os.Getenv("LOBSTER_UPDATE") != "", "rewrite golden files")

// Run checks analyzer a against testdata/<a.Name>/ under dir.
func Run(t *testing.T, dir string, a *check.Analyzer) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "testdata", a.Name, "*"))
	n := 0
	for _, path := range files {
		ext := filepath.Ext(path)
		if ext != ".lobster" && ext != ".yaml" && ext != ".yml" && ext != ".json" {
			continue
		}
		n++
		t.Run(filepath.Base(path), func(t *testing.T) { runFile(t, path, a) })
	}
	if n == 0 {
		t.Fatalf("no test files in testdata/%s", a.Name)
	}
}

type want struct {
	line    int
	rx      *regexp.Regexp
	matched bool
}

var wantPattern = regexp.MustCompile("#\\s*want((?:\\s+(?:\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`))+)")
var quoted = regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|`[^`]*`")

func runFile(t *testing.T, path string, a *check.Analyzer) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, parseDiags := parser.Parse(filepath.Base(path), src)
	diags := check.RunWith(f, parseDiags, []*check.Analyzer{a}, check.Options{Path: path})
	var wants []*want
	for _, c := range f.Comments {
		m := wantPattern.FindStringSubmatch(c.Text)
		if m == nil {
			continue
		}
		line := f.Src.Pos(c.Pos()).Line
		for _, q := range quoted.FindAllString(m[1], -1) {
			s, err := strconv.Unquote(q)
			if err != nil {
				t.Fatalf("%s:%d: bad want %s: %v", path, line, q, err)
			}
			rx, err := regexp.Compile(s)
			if err != nil {
				t.Fatalf("%s:%d: bad want regexp %q: %v", path, line, s, err)
			}
			wants = append(wants, &want{line: line, rx: rx})
		}
	}
	var fixes []source.Edit
	var unsafe strings.Builder
	for _, d := range diags {
		if d.Code != a.Name {
			continue
		}
		if len(d.Fixes) > 0 {
			fixes = append(fixes, d.Fixes[0].Edits...)
			if d.Fixes[0].Unsafe {
				fmt.Fprintf(&unsafe, "# unsafe fix at %d:%d: %s\n", d.Range.Start.Line, d.Range.Start.Col, d.Fixes[0].Message)
			}
		}
		text := d.Severity.String() + ": " + d.Message
		found := false
		for _, w := range wants {
			if !w.matched && w.line == d.Range.Start.Line && w.rx.MatchString(text) {
				w.matched, found = true, true
				break
			}
		}
		if !found {
			t.Errorf("%s:%d:%d: unexpected finding: %s", path, d.Range.Start.Line, d.Range.Start.Col, text)
		}
	}
	for _, w := range wants {
		if !w.matched {
			t.Errorf("%s:%d: no finding matches %q", path, w.line, w.rx)
		}
	}
	checkFixed(t, path, src, fixes, unsafe.String())
}

// checkFixed compares src with edits applied, preceded by the marks of the
// unsafe fixes, with path's .fixed companion.
func checkFixed(t *testing.T, path string, src []byte, edits []source.Edit, unsafe string) {
	golden := path + ".fixed"
	want, err := os.ReadFile(golden)
	if err != nil && !*Update {
		return // no fix test for this file
	}
	if err != nil && len(edits) == 0 {
		return
	}
	fixed, aerr := source.ApplyEdits(src, edits)
	if aerr != nil {
		t.Errorf("%s: %v", path, aerr)
		return
	}
	got := append([]byte(unsafe), fixed...)
	if *Update {
		if err == nil || len(edits) > 0 {
			if werr := os.WriteFile(golden, got, 0o644); werr != nil {
				t.Fatal(werr)
			}
		}
		return
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: after the fixes:\n%s\nwant:\n%s", path, got, strings.TrimSpace(string(want)))
	}
}
