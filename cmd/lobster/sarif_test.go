package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lobsterdev/lobster/internal/corpustest"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/source"
)

// sarifSchema is the official SARIF 2.1.0 JSON Schema (draft-07), vendored as
// test data: see testdata/sarif-schema-2.1.0.NOTICE.
func sarifSchema(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	data, err := os.ReadFile("testdata/sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("sarif schema: %v", err)
	}
	if s.Schema != "http://json-schema.org/draft-07/schema#" {
		t.Fatalf("sarif schema: $schema is %q, want draft-07", s.Schema)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("sarif schema: %v", err)
	}
	return rs
}

// validateSARIF checks a SARIF log against the schema, and what the schema
// cannot say: the format keywords (uri, uri-reference) that the validator
// does not check, rule indexes, and positive regions.
func validateSARIF(t *testing.T, rs *jsonschema.Resolved, name string, out []byte) map[string]any {
	t.Helper()
	var v any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s: the output is not JSON: %v\n%s", name, err, out)
	}
	if err := rs.Validate(v); err != nil {
		t.Fatalf("%s: the output is not valid SARIF 2.1.0: %v", name, err)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			ColumnKind string `json:"columnKind"`
			Tool       struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID      string `json:"id"`
						HelpURI string `json:"helpUri"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex *int   `json:"ruleIndex"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region *struct {
							StartLine, StartColumn, EndLine, EndColumn int
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 {
		t.Fatalf("%s: version %q with %d runs, want 2.1.0 with one run", name, log.Version, len(log.Runs))
	}
	run := log.Runs[0]
	if run.ColumnKind != "unicodeCodePoints" || run.Tool.Driver.Name != "lobster" {
		t.Errorf("%s: columnKind %q, driver %q", name, run.ColumnKind, run.Tool.Driver.Name)
	}
	rules := run.Tool.Driver.Rules
	if len(rules) != len(check.All) {
		t.Errorf("%s: %d rules, want every code of check.All (%d)", name, len(rules), len(check.All))
	}
	for _, r := range rules {
		if r.HelpURI != check.DocsURL+"#"+r.ID {
			t.Errorf("%s: rule %s: helpUri %q", name, r.ID, r.HelpURI)
		}
	}
	for _, res := range run.Results {
		if res.RuleIndex != nil && rules[*res.RuleIndex].ID != res.RuleID {
			t.Errorf("%s: result %s has the ruleIndex of %s", name, res.RuleID, rules[*res.RuleIndex].ID)
		}
		for _, l := range res.Locations {
			uri := l.PhysicalLocation.ArtifactLocation.URI
			if uri == "" || strings.ContainsAny(uri, " \\") {
				t.Errorf("%s: bad uri %q", name, uri)
			}
			r := l.PhysicalLocation.Region
			if r == nil {
				continue // a finding without a position
			}
			if r.StartLine < 1 || r.StartColumn < 1 || r.EndLine < r.StartLine || (r.EndLine == r.StartLine && r.EndColumn < r.StartColumn) {
				t.Errorf("%s: bad region %+v", name, r)
			}
		}
	}
	return v.(map[string]any)
}

// TestSARIFSchema checks that the validator rejects what it should, so that
// the tests below prove something.
func TestSARIFSchema(t *testing.T) {
	rs := sarifSchema(t)
	bad := []string{
		`{"version": "2.1.0"}`,
		`{"version": "2.0.0", "runs": []}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"level": "fatal", "message": {"text": "m"}}]}]}`,
		`{"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"message": {"text": "m"}, "locations": [{"physicalLocation": {"artifactLocation": {"uri": "a"}, "region": {"startLine": 0}}}]}]}]}`,
	}
	for _, b := range bad {
		var v any
		if err := json.Unmarshal([]byte(b), &v); err != nil {
			t.Fatal(err)
		}
		if rs.Validate(v) == nil {
			t.Errorf("the SARIF schema accepts %s", b)
		}
	}
}

// TestSARIFOutput validates the output of lobster check --format sarif on
// files with findings, related locations, fixes, non-ASCII text and names
// that need percent-encoding.
func TestSARIFOutput(t *testing.T) {
	rs := sarifSchema(t)
	dir := t.TempDir()
	files := map[string]string{
		"refs.lobster":              "steps:\n  - id: fetch\n    run: echo '{}'\n  - id: use\n    run: echo \"héllo wörld\" \"$fecth.stdout\"\n",
		"dup.lobster":               "steps:\n  - id: a\n    run: echo a\n  - id: a\n    run: echo b\n",
		"sub dir/syntax #1.lobster": "steps: [unclosed\n",
		"clean.lobster":             "steps:\n  - id: a\n    run: echo a\n",
	}
	var paths []string
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, name)
	}
	t.Chdir(dir)

	var stdout, stderr bytes.Buffer
	code := run(append([]string{"check", "--format", "sarif"}, paths...), strings.NewReader(""), &stdout, &stderr)
	if code != exitFindings || stderr.Len() > 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr.String())
	}
	log := validateSARIF(t, rs, "findings", stdout.Bytes())
	out := stdout.String()
	for _, want := range []string{
		`"uri": "sub%20dir/syntax%20%231.lobster"`,
		`"uriBaseId": "%SRCROOT%"`,
		`"ruleId": "duplicate-id"`,
		`"relatedLocations": [`,
		`"fixes": [`,
		`"insertedContent": {`,
		`"text": "fetch"`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %s", want)
		}
	}

	// The reference in line 5 starts after "héllo wörld": its column counts
	// code points, not bytes.
	line := "    run: echo \"héllo wörld\" \"$fecth.stdout\""
	byteCol := strings.Index(line, "fecth") + 1
	cpCol := len([]rune(line[:byteCol-1])) + 1
	found := false
	for _, r := range log["runs"].([]any)[0].(map[string]any)["results"].([]any) {
		res := r.(map[string]any)
		if res["ruleId"] != "unknown-step-ref" {
			continue
		}
		reg := res["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)["region"].(map[string]any)
		if reg["startLine"] != 5.0 || reg["startColumn"] != float64(cpCol) || reg["endColumn"] != float64(cpCol+5) {
			t.Errorf("region %v, want line 5, columns %d-%d (code points; bytes would be %d)", reg, cpCol, cpCol+5, byteCol)
		}
		found = true
	}
	if !found {
		t.Error("no unknown-step-ref result")
	}

	// No findings: a valid log with no results, exit 0.
	stdout.Reset()
	if code := run([]string{"check", "--format", "sarif", "clean.lobster"}, strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("clean: exit %d", code)
	}
	validateSARIF(t, rs, "clean", stdout.Bytes())
	if !strings.Contains(stdout.String(), `"results": []`) {
		t.Error("clean: results is not []")
	}
}

// TestSARIFCorpus validates the SARIF output for every real-world file.
func TestSARIFCorpus(t *testing.T) {
	paths := corpustest.Files(t, "the SARIF output of every corpus file against the SARIF schema")
	rs := sarifSchema(t)
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"check", "--format", "sarif"}, paths...), strings.NewReader(""), &stdout, &stderr)
	if code != exitOK && code != exitFindings {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	validateSARIF(t, rs, "corpus", stdout.Bytes())
}

// TestWriteSARIFEdges validates logs with the edge cases of positions that
// files do not produce often: an insertion, a range over several lines, a
// range ending on a line break, a diagnostic without a position, an absolute
// path, a code with no rule.
func TestWriteSARIFEdges(t *testing.T) {
	rs := sarifSchema(t)
	f := source.NewFile("x.lobster", []byte("steps:\n  - id: ä\n    run: echo\n"))
	diags := []source.Diagnostic{
		{File: "x.lobster", Range: f.Range(9, 9), Severity: source.Hint, Code: "missing-id", Message: "insert",
			Fixes: []source.Fix{{Message: "Insert", Edits: []source.Edit{{Range: f.Range(9, 9), NewText: "# x\n"}}}}},
		{File: "x.lobster", Range: f.Range(7, 30), Severity: source.Info, Code: "no-such-code", Message: "multi-line"},
		{File: "x.lobster", Range: f.Range(13, 18), Severity: source.Warning, Code: "duplicate-id", Message: "to the line break",
			Related: []source.Related{{File: "/abs/other file.lobster", Range: source.Range{Start: source.Pos{Line: 2, Col: 3}, End: source.Pos{Line: 2, Col: 4}}, Message: "there"}}},
		{File: "y.lobster", Severity: source.Error, Code: "yaml-syntax", Message: "no position"},
	}
	var buf bytes.Buffer
	if err := source.WriteSARIF(&buf, map[string]*source.File{"x.lobster": f}, diags, sarifTool()); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, rs, "edges", buf.Bytes())
	for _, want := range []string{`"uri": "file:///abs/other%20file.lobster"`, `"level": "note"`, `"ruleId": "no-such-code"`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the output lacks %s", want)
		}
	}
}
