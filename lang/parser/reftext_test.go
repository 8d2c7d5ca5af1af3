package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// describe renders refs in one comparable form.
func describeText(text string) string {
	var b strings.Builder
	for r := range ScanText(text) {
		fmt.Fprintf(&b, "%d %d-%d %s %s|", r.Kind, r.Start, r.End, r.Name, r.Path)
	}
	return b.String()
}

func describeAST(text string) string {
	f := source.NewFile("t", []byte(text))
	s := &ast.Scalar{Text: text}
	var spans []refSpan
	refs := scanRefSpans(f, s, &spans)
	var b strings.Builder
	for k, ref := range refs {
		var kind TextRefKind
		var name, path string
		join := func(ids []*ast.Ident) string {
			var parts []string
			for _, id := range ids {
				parts = append(parts, id.Name)
			}
			return strings.Join(parts, ".")
		}
		switch r := ref.(type) {
		case *ast.ArgRef:
			kind, name = ArgText, r.Name
		case *ast.BracedRef:
			kind, name, path = BracedText, r.ID, join(r.Path)
		case *ast.StepRef:
			kind, name, path = StepText, r.ID, join(r.Path)
		}
		fmt.Fprintf(&b, "%d %d-%d %s %s|", kind, spans[k].i, spans[k].j, name, path)
	}
	return b.String()
}

func TestScanTextAgreesWithTemplates(t *testing.T) {
	for _, text := range []string{
		"echo $fetch.json.items.0 ${name} ${a.b} $$x.y $HOME.json",
		"$a.stdout.bak. ${x ${y} $-.z $a-b.c_d.e-f",
		"${${x}} $.x $a. $a.. ${a.} ${a.b.}",
		"no refs here", "", "$", "${", "$a",
	} {
		if got, want := describeText(text), describeAST(text); got != want {
			t.Errorf("ScanText(%q):\n got %s\nwant %s", text, got, want)
		}
	}
	if got := describeText("x $a.json.k y"); got != "3 2-11 a json.k|" {
		t.Errorf("ScanText = %q", got)
	}
}

func FuzzScanText(f *testing.F) {
	f.Add("echo $a.b ${c} ${d.e}")
	f.Fuzz(func(t *testing.T, text string) {
		if got, want := describeText(text), describeAST(text); got != want {
			t.Fatalf("ScanText(%q):\n got %s\nwant %s", text, got, want)
		}
	})
}
