package parser

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	goyaml "github.com/goccy/go-yaml"
	"github.com/lobsterdev/lobster/internal/corpustest"
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/rogpeppe/go-internal/txtar"
)

// readYAML runs the YAML reader alone.
func readYAML(src string) (ast.Value, []source.Diagnostic, *source.File) {
	f := source.NewFile("t.lobster", []byte(src))
	start := 0
	if strings.HasPrefix(src, "\uFEFF") {
		start = len("\uFEFF") // as Parse does
	}
	r := newYAMLReader(f, start)
	v := r.readDocument()
	return v, r.diags, f
}

// plainValue converts a generic tree to Go values the way a YAML decoder does.
func plainValue(v ast.Value) any { return JSONValue(v) }

// normalize turns a goccy decode result into the same shape as plainValue.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := map[string]any{}
		for k, x := range v {
			m[k] = normalize(x)
		}
		return m
	case []any:
		s := []any{}
		for _, x := range v {
			s = append(s, normalize(x))
		}
		return s
	case int:
		return float64(v)
	case int64:
		return float64(v)
	case uint64:
		return float64(v)
	case float64:
		if math.IsNaN(v) {
			return "NaN"
		}
		return v
	}
	return v
}

// goccyValue decodes src with goccy/go-yaml, the reference YAML library of
// the Go ecosystem, to cross-check our reader.
func goccyValue(src string) (any, error) {
	var v any
	err := goyaml.Unmarshal([]byte(src), &v)
	return normalize(v), err
}

var yamlCases = []string{
	"a: 1\nb: two\nc: true\nd: null\ne: ~\nf:\ng: 1.5\nh: -3\ni: 0x1F\nj: yes\n",
	"steps:\n  - id: a\n    run: echo hi\n  - id: b\n    run: |\n      echo one\n      echo two\n",
	"k: >\n  folded\n  text\n\n  para\n",
	"k: |-\n  strip\n\n",
	"k: |+\n  keep\n\n",
	"k: >-\n  a\n    more\n  b\n",
	"k: \"dq \\\"x\\\" \\n \\u00e9 \\t end\"\n",
	"k: 'sq ''x'' y'\n",
	"k: plain\n  continued\n  lines\n",
	"k: \"multi\n  line\n\n  dq\"\n",
	"k: [a, b, {c: d, e: [1, 2]}]\n",
	"{\"steps\": [{\"id\": \"a\", \"run\": \"echo $a.json\"}], \"n\": 1}",
	"a: &x {p: 1}\nb: *x\n",
	"- a\n- - b\n  - c\n- d: e\n  f: g\n",
	"k: \"caf\\u00e9 \\U0001F600\"\n",
	"# comment\nk: v # trailing\n# end\n",
	"k:\n- a\n- b\nz: 1\n",
	"k: |2\n    two extra\n  base\n",
	"k: !!str 123\n",
	"k: 'a\n\n  b'\n",
	"emoji: \"🦞 $a.json\"\nx: 日本語\n",
	"k: a:b\nurl: http://x.y/z#frag\n",
	"k: >\n  a\n\n\n  b\n",
	"k: >\n  a\n\n    more\n  b\n",
}

func TestYAMLMatchesGoccy(t *testing.T) {
	for i, src := range yamlCases {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			v, diags, _ := readYAML(src)
			for _, d := range diags {
				t.Errorf("unexpected diagnostic %s", d)
			}
			want, err := goccyValue(src)
			if err != nil {
				t.Skipf("goccy rejects: %v", err)
			}
			got := normalize(plainValue(v))
			if !reflect.DeepEqual(got, want) {
				t.Errorf("src %q\n got %#v\nwant %#v", src, got, want)
			}
		})
	}
}

// checkScalarMaps verifies that every verbatim segment of every scalar's map
// copies source bytes to the same decoded bytes.
func checkScalarMaps(t *testing.T, v ast.Value, f *source.File) {
	t.Helper()
	ast.Inspect(v, func(n ast.Node) bool {
		s, ok := n.(*ast.Scalar)
		if !ok {
			return true
		}
		for _, seg := range s.Map.Segments() {
			if seg.Dec+seg.DecLen > len(s.Text) || seg.Src+seg.SrcLen > len(f.Content) {
				t.Errorf("segment %+v out of bounds for %q", seg, s.Text)
				continue
			}
			if seg.Verbatim && s.Text[seg.Dec:seg.Dec+seg.DecLen] != string(f.Content[seg.Src:seg.Src+seg.SrcLen]) {
				t.Errorf("verbatim segment %+v: decoded %q, source %q", seg, s.Text[seg.Dec:seg.Dec+seg.DecLen], f.Content[seg.Src:seg.Src+seg.SrcLen])
			}
		}
		if s.Span.Start > s.Span.End || s.Span.End > len(f.Content) {
			t.Errorf("bad range %v", s.Span)
		}
		return true
	})
}

func TestYAMLScalarMaps(t *testing.T) {
	for _, src := range yamlCases {
		v, _, f := readYAML(src)
		checkScalarMaps(t, v, f)
	}
}

func TestYAMLErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"steps: [unclosed\n", "1:8 yaml-syntax"},
		{"a: 1\na: 2\n", "2:1 yaml-duplicate-key"},
		{"a: 1\n---\nb: 2\n", "2:1 yaml-multi-document"},
		{"a: *nope\n", "1:4 yaml-undefined-alias"},
		{"a:\n\tb: 1\n", "2:1 yaml-syntax"},
		{"a: \"open\nb: 1\n", "1:4 yaml-syntax"},
		{"a: b: c\n", "1:5 yaml-syntax"},
		{"a: 1\n  b: 2\n", "2:4 yaml-syntax"},
	}
	for _, c := range cases {
		_, diags, _ := readYAML(c.src)
		var got []string
		for _, d := range diags {
			got = append(got, fmt.Sprintf("%d:%d %s", d.Range.Start.Line, d.Range.Start.Col, d.Code))
		}
		if !strings.Contains(strings.Join(got, ","), c.want) {
			t.Errorf("%q: got %v, want %s", c.src, got, c.want)
		}
	}
}

// TestYAMLMatchesReference compares the reader with the reference's YAML
// library on the cases of testdata/yaml/cases.json, hand-written ones and
// the differences that fuzzing found (recorded by scripts/record-yaml.mjs):
// the same verdict and, where it accepts, the same value.
func TestYAMLMatchesReference(t *testing.T) {
	data, err := os.ReadFile("testdata/yaml/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Src string `json:"src"`
		suiteRef
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		v, _, f := readYAML(c.Src)
		checkScalarMaps(t, v, f)
		if kind, detail := compareReading(c.Src, c.suiteRef, ""); kind != "" {
			t.Errorf("%q (%s): %s", c.Src, kind, detail)
		}
	}
}

// fileInputs are the YAML texts of every golden input and corpus file.
func fileInputs(t *testing.T) map[string]string {
	goldens, _ := filepath.Glob("../../testdata/golden/*.txtar")
	if len(goldens) == 0 {
		t.Fatal("no golden files in ../../testdata/golden")
	}
	inputs := map[string]string{}
	for _, g := range goldens {
		ar, err := txtar.ParseFile(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasPrefix(f.Name, "input.") && !strings.Contains(string(f.Data), "<CR>") {
				inputs[filepath.Base(g)] = string(f.Data)
			}
		}
	}
	for _, c := range corpustest.Optional(t) {
		data, err := os.ReadFile(c)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(c)] = string(data)
	}
	return inputs
}

// TestYAMLMatchesGoccyOnFiles reads every golden input and corpus file with
// both readers; where both accept the text, the values must agree. (goccy
// gives a block scalar that ends the text without a final line break no
// "\n"; the reference does, as YAML wants: goccy reads the text with one.)
func TestYAMLMatchesGoccyOnFiles(t *testing.T) {
	inputs := fileInputs(t)
	compared := 0
	for name, src := range inputs {
		v, diags, _ := readYAML(src)
		if !strings.HasSuffix(src, "\n") {
			src += "\n"
		}
		src = strings.TrimPrefix(src, "\uFEFF") // goccy keeps it in the first key
		want, err := goccyValue(src)
		if err != nil || source.HasErrors(diags) {
			continue
		}
		compared++
		if got := normalize(plainValue(v)); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the readers disagree", name)
		}
	}
	if compared < len(inputs)/2 {
		t.Errorf("only %d of %d files compared", compared, len(inputs))
	}
}

// TestYAMLMatchesReferenceOnFiles compares the reader with the reference's
// YAML library on every golden input and corpus file: the same verdict and,
// where it accepts, the same value. It runs where node and the library are
// found (see yamloracle_test.go).
func TestYAMLMatchesReferenceOnFiles(t *testing.T) {
	o, why := getYAMLOracle()
	if o == nil {
		t.Skip(why)
	}
	inputs := fileInputs(t)
	names := make([]string, 0, len(inputs))
	for name := range inputs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		src := inputs[name]
		if !oracleComparable(src) {
			continue
		}
		ref, err := o.read(src)
		if err != nil {
			t.Fatal(err)
		}
		if kind, detail := compareReading(src, ref, ""); kind != "" {
			t.Errorf("%s (%s): %s", name, kind, detail)
		}
	}
}

// TestYAMLDeliberateDifferences pins where the reader knowingly differs from
// the reference's YAML library (README, "Differences from the reference").
func TestYAMLDeliberateDifferences(t *testing.T) {
	cases := []struct{ src, code, msg string }{
		// The library builds a circular value; a workflow cannot use one.
		{"a: &x [1, *x]\n", "yaml-undefined-alias", "refers to the node that holds it"},
		// Merge keys: YAML 1.2 makes "<<" an ordinary key (the checker's
		// yaml-merge-key says the merged fields are missing); after
		// %YAML 1.1, or with the !!merge tag, the library merges, which
		// the reader does not: it reports the key the same way.
		{"%YAML 1.1\n---\nx: &x {a: 1}\ny:\n  <<: *x\n", "yaml-merge-key", "merge keys are not supported"},
		{"x: &x {a: 1}\ny:\n  !!merge <<: *x\n", "yaml-merge-key", "!!merge tag is not supported"},
	}
	for _, c := range cases {
		_, diags, _ := readYAML(c.src)
		found := false
		for _, d := range diags {
			if d.Code == c.code && strings.Contains(d.Message, c.msg) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: want %s %q, got %v", c.src, c.code, c.msg, diags)
		}
	}
	// A collection used as a key is named as the library writes it, but
	// without the comments and empty lines inside it.
	v, _, _ := readYAML("? [a, # note\n  b]\n: c\n")
	if got := fmt.Sprint(JSONValue(v)); got != "map[[ a, b ]:c]" {
		t.Errorf("collection key with a comment: %s", got)
	}
	// ... and on one line where the library breaks it ("{\n\n  ?\n}").
	v, _, _ = readYAML("? ? \n")
	if got := fmt.Sprint(JSONValue(v)); got != "map[{ ? }:<nil>]" {
		t.Errorf("collection key with an empty key: %s", got)
	}
	// An alias of the node being read is no error in a key, which the
	// library names by the alias, as the reader does.
	v, diags, _ := readYAML("&a\nk:\n  *a : b\n")
	if got := fmt.Sprint(JSONValue(v)); len(diags) > 0 || got != "map[k:map[*a:b]]" {
		t.Errorf("alias of its own mapping in a key: %s %v", got, diags)
	}
}
