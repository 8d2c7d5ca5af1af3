package lobster_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/internal/corpustest"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/parser/astcheck"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/rogpeppe/go-internal/diff"
)

type refVerdict struct {
	File  string `json:"file"`
	OK    bool   `json:"ok"`
	Error string `json:"error"`
}

// readVerdicts reads a JSON-lines file recorded from the reference's loader
// (scripts/record-reference.sh).
func readVerdicts(t *testing.T, path string) map[string]refVerdict {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]refVerdict{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var v refVerdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatal(err)
		}
		out[v.File] = v
	}
	return out
}

// TestCorpus parses every real-world file: no panic, the invariants hold, the
// JSON output is valid, the diagnostics match the recorded golden, and the
// load verdict agrees with the reference's: files it loads get no
// load-time error, files it rejects get one.
func TestCorpus(t *testing.T) {
	files := corpustest.Files(t, "the parse of every corpus file against testdata/corpus")
	verdicts := readVerdicts(t, "testdata/reference/corpus-load.jsonl")
	n := 0
	for _, path := range files {
		name := filepath.Base(path)
		n++
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, diags := parser.Parse(name, src)
			for _, e := range astcheck.Check(f, diags) {
				t.Errorf("invariant: %s", e)
			}
			if out, err := json.Marshal(diags); err != nil || !json.Valid(out) {
				t.Errorf("diagnostics do not encode as JSON: %v", err)
			}
			v, ok := verdicts[name]
			if !ok {
				t.Fatalf("no reference verdict for %s", name)
			}
			loadErr := firstLoadError(diags)
			if v.OK && loadErr != nil {
				t.Errorf("the reference loads this file, but we report %s", loadErr)
			}
			if !v.OK && loadErr == nil {
				t.Errorf("the reference rejects this file (%s), but we report no load-time error", v.Error)
			}
			compareGolden(t, filepath.Join("testdata/corpus", name+".diagnostics"), dumpDiags(diags))
		})
	}
	if n != len(verdicts) {
		t.Errorf("%d corpus files but %d reference verdicts", n, len(verdicts))
	}
	goldens, _ := filepath.Glob("testdata/corpus/*.diagnostics")
	for _, g := range goldens {
		if _, err := os.Stat(filepath.Join(filepath.Dir(files[0]), strings.TrimSuffix(filepath.Base(g), ".diagnostics"))); err != nil {
			t.Errorf("%s is the golden of no corpus file: %v", g, err)
		}
	}
}

// TestCorpusGoldensAgreeWithVerdicts reads the goldens of the corpus
// (testdata/corpus), which hold without the corpus itself: there is one per
// reference verdict, and a golden has a load-time error exactly when the
// reference rejects its file.
func TestCorpusGoldensAgreeWithVerdicts(t *testing.T) {
	verdicts := readVerdicts(t, "testdata/reference/corpus-load.jsonl")
	goldens, _ := filepath.Glob("testdata/corpus/*.diagnostics")
	if len(goldens) != len(verdicts) {
		t.Errorf("%d goldens in testdata/corpus but %d reference verdicts", len(goldens), len(verdicts))
	}
	// A finding's line: "RANGE: SEVERITY: MESSAGE [CODE]" (dumpDiags).
	line := regexp.MustCompile(`^\S+: (\w+): .* \[([\w/-]+)\]$`)
	for _, g := range goldens {
		name := strings.TrimSuffix(filepath.Base(g), ".diagnostics")
		v, ok := verdicts[name]
		if !ok {
			t.Errorf("%s: no reference verdict for %s", g, name)
			continue
		}
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		var diags []source.Diagnostic
		for _, l := range strings.Split(string(data), "\n") {
			if m := line.FindStringSubmatch(l); m != nil {
				sev, ok := source.ParseSeverity(m[1])
				if !ok {
					t.Errorf("%s: unknown severity in %q", g, l)
				}
				diags = append(diags, source.Diagnostic{Severity: sev, Code: m[2], Message: l})
			}
		}
		loadErr := firstLoadError(diags)
		if v.OK && loadErr != nil {
			t.Errorf("%s: the reference loads %s, but the golden has a load-time error: %s", g, name, loadErr.Message)
		}
		if !v.OK && loadErr == nil {
			t.Errorf("%s: the reference rejects %s (%s), but the golden has no load-time error", g, name, v.Error)
		}
	}
}

// TestReferenceProbes checks the load verdict on the probe files recorded
// from the reference, one per load-time message.
func TestReferenceProbes(t *testing.T) {
	verdicts := readVerdicts(t, "testdata/reference/probes-load.jsonl")
	for name, v := range verdicts {
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("testdata/reference/probes", name))
			if err != nil {
				t.Fatal(err)
			}
			f, diags := parser.Parse(name, src)
			for _, e := range astcheck.Check(f, diags) {
				t.Errorf("invariant: %s", e)
			}
			loadErr := firstLoadError(diags)
			if v.OK && loadErr != nil {
				t.Errorf("the reference loads this file, but we report %s", loadErr)
			}
			if !v.OK && loadErr == nil {
				t.Errorf("the reference rejects this file (%s), but we report no load-time error", v.Error)
			}
		})
	}
}

// firstLoadError is the first diagnostic for which the reference rejects
// the file (parser.IsLoadError, which the previews stop on), or nil.
func firstLoadError(diags []source.Diagnostic) *source.Diagnostic {
	if errs := parser.LoadErrors(diags); len(errs) > 0 {
		return &errs[0]
	}
	return nil
}

func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	want, err := os.ReadFile(path)
	if string(want) == got && err == nil {
		return
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err != nil {
		t.Fatalf("%v (run with -update to record it)", err)
	}
	t.Errorf("%s differs:\n%s", path, diff.Diff("want", want, "got", []byte(got)))
}

// TestCorpusReviewCurrent keeps testdata/corpus-review.md in step with what
// lobster check reports on the corpus: a new error or warning must be
// reviewed (scripts/corpus-review.py) before it lands.
func TestCorpusReviewCurrent(t *testing.T) {
	review, err := os.ReadFile("testdata/corpus-review.md")
	if err != nil {
		t.Fatal(err)
	}
	files := corpustest.Files(t, "testdata/corpus-review.md against the findings on the corpus")
	want := map[string]bool{}
	for _, line := range strings.Split(string(review), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) > 4 && strings.Contains(cells[1], ":") {
			if strings.TrimSpace(cells[4]) == "UNREVIEWED" {
				t.Errorf("unreviewed finding in the corpus review: %s", line)
			}
			want[strings.TrimSpace(cells[1])+" "+strings.TrimSpace(cells[3])] = true
		}
	}
	got := map[string]bool{}
	for _, path := range files {
		name := filepath.Base(path)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, diags := parser.Parse(name, src)
		for _, d := range check.RunWith(f, diags, check.Rules, check.Options{Path: path}) {
			if d.Severity == source.Error || d.Severity == source.Warning {
				got[fmt.Sprintf("%s:%d:%d %s", name, d.Range.Start.Line, d.Range.Start.Col, d.Code)] = true
			}
		}
	}
	for k := range got {
		if !want[k] {
			t.Errorf("finding not in testdata/corpus-review.md (run scripts/corpus-review.py and review it): %s", k)
		}
	}
	for k := range want {
		if !got[k] {
			t.Errorf("testdata/corpus-review.md lists a finding that is gone (run scripts/corpus-review.py): %s", k)
		}
	}
}
