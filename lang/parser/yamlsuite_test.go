package parser

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	goyaml "github.com/goccy/go-yaml"
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// The official yaml-test-suite (testdata/yaml-test-suite, MIT, see License
// there) and the verdicts and values the reference's YAML library gives on
// it (reference.json, recorded by scripts/record-yaml-suite.mjs).

const suiteDir = "testdata/yaml-test-suite"

// suiteCase is one case of the suite, unpacked.
type suiteCase struct {
	ID   string
	Src  string // the input, markers unpacked
	JSON string // the suite's expected value(s), or ""
	Fail bool   // the suite says the input is invalid
}

var suiteMarkers = strings.NewReplacer("␣", " ", "←", "\r", "⇔", "\uFEFF", "↵", "")
var suiteTab = regexp.MustCompile(`—*»`)

// unpackSuiteText turns the suite's visible markers into the bytes they
// stand for, as the suite's own tools do.
func unpackSuiteText(s string) string {
	s = suiteTab.ReplaceAllString(s, "\t")
	s = suiteMarkers.Replace(s)
	return strings.TrimSuffix(s, "∎\n")
}

// loadSuite reads the suite's files with goccy/go-yaml.
func loadSuite(tb testing.TB) []suiteCase {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(suiteDir, "src", "*.yaml"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no suite files: %v", err)
	}
	sort.Strings(files)
	var out []suiteCase
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var variants []map[string]any
		if err := goyaml.Unmarshal(data, &variants); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		if len(variants) == 0 || variants[0]["skip"] == true {
			continue
		}
		base := strings.TrimSuffix(filepath.Base(f), ".yaml")
		width := 2
		if len(variants) >= 100 {
			width = 3
		}
		prev := map[string]any{}
		for i, v := range variants {
			for _, k := range []string{"name", "tags", "yaml", "tree", "json", "dump"} {
				if _, ok := v[k]; !ok {
					if p, ok := prev[k]; ok {
						v[k] = p
					}
				}
			}
			prev = v
			id := base
			if len(variants) > 1 {
				id = fmt.Sprintf("%s-%0*d", base, width, i)
			}
			c := suiteCase{ID: id, Fail: v["fail"] == true}
			c.Src, _ = v["yaml"].(string)
			c.Src = unpackSuiteText(c.Src)
			c.JSON, _ = v["json"].(string)
			out = append(out, c)
		}
	}
	return out
}

// suiteRef is the reference library's reading of one case.
type suiteRef struct {
	ID     string          `json:"id"`
	SHA256 string          `json:"sha256"`
	Value  json.RawMessage `json:"value"`
	JSOnly bool            `json:"jsOnly"`
	Error  string          `json:"error"`
	Line   int             `json:"line"`
	Col    int             `json:"col"`
}

func loadSuiteRef(tb testing.TB) map[string]suiteRef {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(suiteDir, "reference.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var refs []suiteRef
	if err := json.Unmarshal(data, &refs); err != nil {
		tb.Fatal(err)
	}
	m := map[string]suiteRef{}
	for _, r := range refs {
		m[r.ID] = r
	}
	return m
}

// rejects reports whether the diagnostics mean the reference's YAML.parse
// throws: every YAML error does; the merge-key warning is the checker's own.
func rejects(diags []source.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == source.Error && d.Code != "yaml-merge-key" {
			return true
		}
	}
	return false
}

// taggedValue is v as the recorder writes JavaScript values: JSON, with
// numbers JSON cannot hold tagged.
func taggedValue(v any) any {
	switch v := v.(type) {
	case float64:
		switch {
		case math.IsNaN(v):
			return map[string]any{"$num": "NaN"}
		case math.IsInf(v, 1):
			return map[string]any{"$num": "Infinity"}
		case math.IsInf(v, -1):
			return map[string]any{"$num": "-Infinity"}
		case v == 0 && math.Signbit(v):
			return map[string]any{"$num": "-0"}
		}
		return v
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, x := range v {
			m[k] = taggedValue(x)
		}
		return m
	case []any:
		s := make([]any, len(v))
		for i, x := range v {
			s[i] = taggedValue(x)
		}
		return s
	}
	return v
}

// decodeJSONValues decodes one or more JSON texts.
func decodeJSONValues(s string) ([]any, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	var out []any
	for dec.More() {
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// suiteResult compares the reader with the reference on one case.
func suiteResult(c suiteCase, ref suiteRef) (kind, detail string) {
	return compareReading(c.Src, ref, c.JSON)
}

// compareReading compares the reader's reading of src with the reference
// library's; it returns "" when they agree, else the kind of difference and
// a detail. A value with JavaScript-only objects is judged by suiteJSON, the
// suite's own JSON, or not at all when there is none.
func compareReading(src string, ref suiteRef, suiteJSON string) (kind, detail string) {
	v, diags, f := readYAML(src)
	for _, d := range diags {
		if d.Range.Start.Offset < 0 || d.Range.End.Offset > len(f.Content) || d.Range.Start.Offset > d.Range.End.Offset {
			return "bad-range", fmt.Sprintf("diagnostic %s outside the text", d)
		}
	}
	rejected := rejects(diags)
	switch {
	case ref.Error != "" && !rejected:
		return "accepted-here", "the reference rejects: " + ref.Error
	case ref.Error == "" && rejected:
		var msgs []string
		for _, d := range diags {
			msgs = append(msgs, fmt.Sprintf("%d:%d %s", d.Range.Start.Line, d.Range.Start.Col, d.Message))
		}
		return "rejected-here", strings.Join(msgs, "; ")
	case ref.Error != "":
		return "", ""
	}
	if knownKeyDifference(v, src) {
		return "", ""
	}
	got := taggedValue(normalizeNumbers(JSONValue(v)))
	var want any
	if ref.JSOnly {
		if suiteJSON == "" {
			return "", ""
		}
		// The reference builds JavaScript-only objects: judge by the
		// suite's own JSON.
		vals, err := decodeJSONValues(suiteJSON)
		if err != nil || len(vals) != 1 {
			return "bad-suite-json", fmt.Sprint(err)
		}
		want = vals[0]
	} else if err := json.Unmarshal(ref.Value, &want); err != nil {
		return "bad-reference", err.Error()
	}
	if !reflect.DeepEqual(got, want) && !reflect.DeepEqual(layoutFreeKeys(got), layoutFreeKeys(want)) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		return "different-value", fmt.Sprintf("got %s, want %s", g, w)
	}
	return "", ""
}

var (
	blankLine     = regexp.MustCompile(`\n[ \t]*\n`)
	collectionTag = regexp.MustCompile(`![^ \t\n\[\]{},]*[ \t]*[\[{]`)
)

// knownKeyDifference reports a known difference in value: a collection
// used as a key whose text (with the blank and comment lines after it)
// holds a comment, an empty line or a tag on a collection. The reference
// names such a key by writing the collection as YAML with its comments,
// empty lines and collection tags; the reader writes it without them.
func knownKeyDifference(v ast.Value, src string) bool {
	known := false
	ast.Inspect(v, func(n ast.Node) bool {
		f, ok := n.(*ast.Field)
		if !ok || f.KeyNode() == nil || known {
			return !known
		}
		switch f.KeyNode().(type) {
		case *ast.Mapping, *ast.Sequence:
			sp := ast.SpanOf(f.KeyNode())
			end := sp.End // with the rest of its last line, and the blank and comment lines after it
			for end < len(src) && src[end] != '\n' {
				end++
			}
			for end < len(src) {
				next := end + 1
				for next < len(src) && (src[next] == ' ' || src[next] == '\t' || src[next] == '\r') {
					next++
				}
				if next < len(src) && src[next] != '\n' && src[next] != '#' {
					break
				}
				for end = next; end < len(src) && src[end] != '\n'; end++ {
				}
			}
			text := strings.ReplaceAll(src[sp.Start:end], "\r", "")
			known = strings.Contains(text, "#") || blankLine.MatchString(text) || collectionTag.MatchString(text)
		}
		return !known
	})
	return known
}

var (
	keyFold  = regexp.MustCompile(`\\\n[ \t]*`) // an escaped line break in a double-quoted string
	keySpace = regexp.MustCompile(`\s+`)
	keyTag   = regexp.MustCompile(`![^\s\[\]{},]*\s+([\[{])`)
)

// layoutFreeKeys returns v with the names of collection keys without their
// layout (line breaks, escaped ones in quoted strings too, empty lines,
// indentation) and collection tags, which
// the library writes into such names and the reader does not (a deliberate
// difference: README, "Differences from the reference").
func layoutFreeKeys(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			if strings.HasPrefix(k, "[") || strings.HasPrefix(k, "{") {
				k = keySpace.ReplaceAllString(keyTag.ReplaceAllString(keyFold.ReplaceAllString(k, ""), "$1"), " ")
			}
			out[k] = layoutFreeKeys(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = layoutFreeKeys(x)
		}
		return out
	}
	return v
}

// normalizeNumbers returns v with every number a float64 (JSONValue gives
// float64 already; this keeps the comparison independent of that).
func normalizeNumbers(v any) any {
	switch v := v.(type) {
	case int:
		return float64(v)
	case map[string]any:
		for k, x := range v {
			v[k] = normalizeNumbers(x)
		}
	case []any:
		for i, x := range v {
			v[i] = normalizeNumbers(x)
		}
	}
	return v
}

// TestYAMLSuite reads every case of the yaml-test-suite and compares the
// verdict (accepted or rejected) and the value with the reference's YAML
// library.
func TestYAMLSuite(t *testing.T) {
	cases := loadSuite(t)
	refs := loadSuiteRef(t)
	if len(cases) != len(refs) {
		t.Errorf("%d suite cases, %d recorded", len(cases), len(refs))
	}
	counts := map[string]int{}
	for _, c := range cases {
		ref, ok := refs[c.ID]
		if !ok {
			t.Errorf("%s: not recorded; run scripts/record-yaml-suite.mjs", c.ID)
			continue
		}
		sum := sha256.Sum256([]byte(c.Src))
		if hex.EncodeToString(sum[:]) != ref.SHA256 {
			t.Errorf("%s: the unpacked input differs from the recorded one", c.ID)
			continue
		}
		kind, detail := suiteResult(c, ref)
		if kind == "" {
			counts["agree"]++
			continue
		}
		counts[kind]++
		t.Errorf("%s (%s): %s\n%q", c.ID, kind, detail, c.Src)
	}
	t.Logf("%d cases: %v", len(cases), counts)
}

var updateSuiteDiagnostics = flag.Bool("update", false, "rewrite testdata/yaml-test-suite/diagnostics.txt (review the diff)")

// TestYAMLSuiteDiagnostics holds the reader's diagnostics on the suite's
// inputs that the reference rejects to testdata/yaml-test-suite/diagnostics.txt
// (with the reference's own message and position for comparison), so that a
// change of position or wording shows in review; -update rewrites it. It
// also checks that each diagnostic covers text (unless it stands at the end
// of a line or of the text), does not end in blanks or a line break, and is
// not reported twice.
func TestYAMLSuiteDiagnostics(t *testing.T) {
	refs := loadSuiteRef(t)
	var b strings.Builder
	for _, c := range loadSuite(t) {
		ref := refs[c.ID]
		if ref.Error == "" {
			continue
		}
		_, diags, _ := readYAML(c.Src)
		fmt.Fprintf(&b, "%s %q\n\treference %d:%d %s\n", c.ID, c.Src, ref.Line, ref.Col, strings.TrimSuffix(ref.Error, ":"))
		seen := map[string]bool{}
		for _, d := range diags {
			a, e := d.Range.Start.Offset, d.Range.End.Offset
			text := c.Src[a:e]
			fmt.Fprintf(&b, "\t%d:%d-%d:%d %q %s\n", d.Range.Start.Line, d.Range.Start.Col, d.Range.End.Line, d.Range.End.Col, text, d.Message)
			key := fmt.Sprint(d.Range, d.Message)
			switch {
			case seen[key]:
				t.Errorf("%s: reported twice: %s", c.ID, d)
			case a == e && a < len(c.Src) && lineBreakAt(c.Src, a) == 0:
				t.Errorf("%s: empty range before text: %s", c.ID, d)
			case text != "" && strings.TrimRight(text, " \t\r\n") != text && strings.TrimSpace(text) != "":
				t.Errorf("%s: the range ends in blanks: %s %q", c.ID, d, text)
			}
			seen[key] = true
		}
	}
	path := filepath.Join(suiteDir, "diagnostics.txt")
	if *updateSuiteDiagnostics {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs from the reader's diagnostics (run with -update and review the diff), first at line %d:\ngot  %s\nwant %s", path, i+1, g, w)
			}
		}
	}
}
