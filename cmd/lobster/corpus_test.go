package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/lobsterdev/lobster/internal/corpustest"
	"github.com/lobsterdev/lobster/lang/source"
)

// TestCorpusJSON runs `lobster check --format json` on every real-world file
// of ../shared/corpus: the output must be a valid JSON array of diagnostics
// with ranges inside the file and consistent positions, and the exit code 0
// or 1 (never a crash).
func TestCorpusJSON(t *testing.T) {
	for _, path := range corpustest.Files(t, "lobster check --format json on every corpus file") {
		var stdout, stderr bytes.Buffer
		code := run([]string{"check", "--format", "json", path}, strings.NewReader(""), &stdout, &stderr)
		if code != 0 && code != 1 {
			t.Errorf("%s: exit %d: %s", path, code, stderr.String())
			continue
		}
		var diags []source.Diagnostic
		if err := json.Unmarshal(stdout.Bytes(), &diags); err != nil {
			t.Errorf("%s: output is not a JSON array of diagnostics: %v", path, err)
			continue
		}
		if (code == 1) != source.HasErrors(diags) {
			t.Errorf("%s: exit %d does not match the findings", path, code)
		}
		for _, d := range diags {
			r := d.Range
			if r.Start.Offset < 0 || r.Start.Offset > r.End.Offset || r.Start.Line < 1 || r.Start.Col < 1 ||
				r.End.Line < r.Start.Line || (r.End.Line == r.Start.Line && r.End.Col < r.Start.Col) {
				t.Errorf("%s: bad range %+v in %s", path, r, d)
			}
		}
	}
}

// corpusRecord is one line of testdata/reference/corpus-previews.jsonl:
// the reference's outputs for one corpus file
// (scripts/record-corpus-previews.py).
type corpusRecord struct {
	File    string        `json:"file"`
	Mermaid corpusOutcome `json:"mermaid"`
	Dot     corpusOutcome `json:"dot"`
	ASCII   corpusOutcome `json:"ascii"`
	DryRun  corpusOutcome `json:"dryrun"`
}

type corpusOutcome struct {
	Exit   int    `json:"exit"`
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
}

// TestCorpusPreviews runs the previews on every file of ../shared/corpus
// and compares them with the reference's, recorded by
// scripts/record-corpus-previews.py: every file the reference loads gets
// the reference's graph byte for byte in each format (exit 0, whatever
// lobster check finds in it), a plan (exit 0) and the reference's dry-run
// (its text, or its failure); every file it rejects gets no graph, plan
// or dry-run (exit 2).
func TestCorpusPreviews(t *testing.T) {
	data, err := os.ReadFile("../../testdata/reference/corpus-previews.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var records []corpusRecord
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var r corpusRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		records = append(records, r)
	}
	names := corpustest.Files(t, fmt.Sprintf("the previews of %d recorded corpus files (graph identity with the reference, plan and dry-run exit codes)", len(records)))
	corpus := filepath.Dir(names[0])
	recorded := map[string]bool{}
	for _, r := range records {
		recorded[r.File] = true
	}
	for _, n := range names {
		if b := filepath.Base(n); !recorded[b] {
			t.Errorf("corpus file %s has no recorded previews: run scripts/record-corpus-previews.py", b)
		}
	}
	t.Chdir(corpus)
	loads, identical := 0, 0
	for _, r := range records {
		t.Run(r.File, func(t *testing.T) {
			if _, err := os.Stat(r.File); err != nil {
				t.Fatalf("recorded but not in the corpus: %v", err)
			}
			lobster := func(args ...string) (int, string, string) {
				var stdout, stderr bytes.Buffer
				code := run(args, strings.NewReader(""), &stdout, &stderr)
				return code, stdout.String(), stderr.String()
			}
			if r.Mermaid.Exit != 0 {
				// The reference rejects the file: so does every preview.
				for _, args := range [][]string{{"graph", r.File}, {"plan", r.File}, {"run", "--dry-run", r.File}} {
					if code, stdout, _ := lobster(args...); code != exitUsage || stdout != "" {
						t.Errorf("lobster %s: exit %d with %q; the reference rejects the file (%s), want exit 2 and no output",
							strings.Join(args, " "), code, stdout, strings.TrimSpace(r.Mermaid.Stderr))
					}
				}
				return
			}
			loads++
			same := true
			for _, g := range []struct {
				format string
				want   corpusOutcome
			}{{"mermaid", r.Mermaid}, {"dot", r.Dot}, {"ascii", r.ASCII}} {
				code, stdout, stderr := lobster("graph", r.File, "--format", g.format)
				if code != 0 || stdout != g.want.Stdout {
					same = false
					t.Errorf("lobster graph --format %s: exit %d, stderr:\n%s\nstdout differs from the reference's:\n%s", g.format, code, stderr,
						diff.Diff("reference", []byte(g.want.Stdout), "lobster", []byte(stdout)))
				}
			}
			if same {
				identical++
			}
			if code, stdout, stderr := lobster("plan", r.File); code != 0 || stdout == "" {
				t.Errorf("lobster plan: exit %d, stderr:\n%s", code, stderr)
			}
			code, _, stderr := lobster("run", "--dry-run", r.File)
			// The reference's failure is "Error: MESSAGE", lobster's
			// "lobster: MESSAGE".
			failure := r.DryRun.Stderr
			if msg, ok := strings.CutPrefix(failure, "Error: "); ok {
				failure = "lobster: " + msg
			}
			switch {
			case code != r.DryRun.Exit:
				t.Errorf("lobster run --dry-run: exit %d, the reference's %d; stderr:\n%s", code, r.DryRun.Exit, stderr)
			case code == 0 && !strings.HasSuffix(stderr, r.DryRun.Stderr):
				t.Errorf("lobster run --dry-run: the text differs from the reference's:\n%s",
					diff.Diff("reference", []byte(r.DryRun.Stderr), "lobster", []byte(stderr)))
			case code != 0 && !strings.Contains(stderr, failure):
				t.Errorf("lobster run --dry-run: stderr lacks the reference's failure %q:\n%s", failure, stderr)
			}
		})
	}
	t.Logf("%d corpus files: the reference loads %d; %d graph identically in every format", len(records), loads, identical)
}
