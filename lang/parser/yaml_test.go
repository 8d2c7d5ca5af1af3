package parser

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	goyaml "github.com/goccy/go-yaml"
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/rogpeppe/go-internal/txtar"
)

// readYAML runs the YAML reader alone.
func readYAML(src string) (ast.Value, []source.Diagnostic, *source.File) {
	f := source.NewFile("t.lobster", []byte(src))
	r := newYAMLReader(f, 0)
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

// TestYAMLMatchesReference compares the reader with the values recorded from
// the reference's own YAML library (scripts/record-yaml.mjs).
func TestYAMLMatchesReference(t *testing.T) {
	data, err := os.ReadFile("testdata/yaml/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Src   string          `json:"src"`
		Value json.RawMessage `json:"value"`
		Error string          `json:"error"`
	}
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	// Explicit keys are reported as unsupported although YAML allows them.
	unsupported := map[string]bool{"? a\n: b\n": true}
	for _, c := range cases {
		v, diags, f := readYAML(c.Src)
		checkScalarMaps(t, v, f)
		hasErr := source.HasErrors(diags)
		switch {
		case unsupported[c.Src]:
			if !hasErr {
				t.Errorf("%q: want an unsupported-construct diagnostic", c.Src)
			}
		case c.Error != "":
			if !hasErr {
				t.Errorf("%q: the reference fails (%s) but the reader reports nothing", c.Src, c.Error)
			}
		default:
			if hasErr {
				t.Errorf("%q: unexpected diagnostics %v", c.Src, diags)
				continue
			}
			got, _ := json.Marshal(plainValue(v))
			var a, b any
			_ = json.Unmarshal(got, &a)
			_ = json.Unmarshal(c.Value, &b)
			if !reflect.DeepEqual(a, b) {
				t.Errorf("%q:\n got %s\nwant %s", c.Src, got, c.Value)
			}
		}
	}
}

// TestYAMLMatchesGoccyOnFiles reads every golden input and corpus file with
// both readers; where both accept the text, the values must agree.
func TestYAMLMatchesGoccyOnFiles(t *testing.T) {
	goldens, _ := filepath.Glob("../../testdata/golden/*.txtar")
	corpus, _ := filepath.Glob("../../../shared/corpus/*.*")
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
	for _, c := range corpus {
		if !strings.HasSuffix(c, ".md") {
			data, _ := os.ReadFile(c)
			inputs[filepath.Base(c)] = string(data)
		}
	}
	compared := 0
	for name, src := range inputs {
		v, diags, _ := readYAML(src)
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
