package parser

import (
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/ast"
)

func TestParseDocument(t *testing.T) {
	doc, f, diags := ParseDocument("c.yaml", []byte("rules:\n  a: off\nenv: [X, Y]\n"))
	if len(diags) != 0 {
		t.Fatalf("diags: %v", diags)
	}
	m, ok := doc.(*ast.Mapping)
	if !ok || len(m.Fields) != 2 || m.Fields[0].Name() != "rules" {
		t.Fatalf("doc: %#v", doc)
	}
	inner := m.Fields[0].Value.(*ast.Mapping)
	if got := f.TextOf(ast.SpanOf(inner.Fields[0].Value)); got != "off" {
		t.Errorf("span of the value: %q", got)
	}
	if s := inner.Fields[0].Value.(*ast.Scalar); s.Kind != ast.String || s.Text != "off" {
		t.Errorf("off is a string in YAML 1.2: %+v", s)
	}

	for _, tt := range []struct{ text, code, msg string }{
		{"a: 1\na: 2\n", "yaml-duplicate-key", ""},
		{"a: 1\n---\nb: 2\n", "yaml-multi-document", "only one is read"},
		{"a: [1\n", "yaml-syntax", ""},
	} {
		_, _, diags := ParseDocument("c.yaml", []byte(tt.text))
		if len(diags) == 0 || diags[0].Code != tt.code || !strings.Contains(diags[0].Message, tt.msg) || strings.Contains(diags[0].Message, "workflow") {
			t.Errorf("%q: %v", tt.text, diags)
		}
	}
	if doc, _, diags := ParseDocument("c.yaml", nil); doc != nil || len(diags) != 0 {
		t.Errorf("empty: %v %v", doc, diags)
	}
	if _, _, diags := ParseDocument("c.json", []byte("a: 1")); len(diags) == 0 || diags[0].Code != "json-extension-not-json" {
		t.Errorf("json: %v", diags)
	}
}
