package parser

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// refsTestScalar builds a string scalar whose text is the whole file, copied
// verbatim.
func refsTestScalar(src string) (*source.File, *ast.Scalar) {
	f := source.NewFile("t", []byte(src))
	s := &ast.Scalar{Kind: ast.String, Text: src, Map: source.Verbatim(0, len(src))}
	s.Span = source.Span{Start: 0, End: len(src)}
	return f, s
}

// refsTestBlock builds the scalar of a YAML literal block: the file is
// header ("run: |\n") followed by each line of text indented by indent spaces,
// and the decoded text is text. The map skips the indentation.
func refsTestBlock(header, text string, indent int) (*source.File, *ast.Scalar) {
	var src strings.Builder
	src.WriteString(header)
	var m source.TextMap
	pad := strings.Repeat(" ", indent)
	for dec := 0; dec < len(text); {
		end := strings.IndexByte(text[dec:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += dec + 1
		}
		src.WriteString(pad)
		m.Add(source.Seg{Dec: dec, DecLen: end - dec, Src: src.Len(), SrcLen: end - dec, Verbatim: true})
		src.WriteString(text[dec:end])
		dec = end
	}
	f := source.NewFile("t", []byte(src.String()))
	s := &ast.Scalar{Kind: ast.String, Style: ast.LiteralBlock, Text: text, Map: m}
	s.Span = source.Span{Start: len(header) - 2, End: len(src.String())}
	return f, s
}

// refsTestEscaped builds the scalar of a double-quoted YAML string in which
// every '$' is written as the escape \u0024.
func refsTestEscaped(text string) (*source.File, *ast.Scalar) {
	var src strings.Builder
	src.WriteString(`run: "`)
	var m source.TextMap
	for i := 0; i < len(text); i++ {
		if text[i] == '$' {
			m.Add(source.Seg{Dec: i, DecLen: 1, Src: src.Len(), SrcLen: 6})
			src.WriteString(`\u0024`)
			continue
		}
		m.Add(source.Seg{Dec: i, DecLen: 1, Src: src.Len(), SrcLen: 1, Verbatim: true})
		src.WriteByte(text[i])
	}
	src.WriteString(`"`)
	f := source.NewFile("t", []byte(src.String()))
	s := &ast.Scalar{Kind: ast.String, Style: ast.DoubleQuoted, Text: text, Map: m}
	s.Span = source.Span{Start: 5, End: len(src.String())}
	return f, s
}

// refSpelling is how a reference is written: "$id.a.b", "${name}" or "${id.a.b}".
func refSpelling(r ast.Ref) string {
	switch r := r.(type) {
	case *ast.StepRef:
		return "$" + r.ID + refsTestPath(r.Path)
	case *ast.ArgRef:
		return "${" + r.Name + "}"
	case *ast.BracedRef:
		return "${" + r.ID + refsTestPath(r.Path) + "}"
	}
	return fmt.Sprintf("%T", r)
}

func refsTestPath(path []*ast.Ident) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteByte('.')
		b.WriteString(p.Name)
	}
	return b.String()
}

// refDesc describes a reference for table tests: its kind and spelling.
func refDesc(r ast.Ref) string {
	return strings.TrimPrefix(fmt.Sprintf("%T", r), "*ast.") + " " + refSpelling(r)
}

// checkRef checks the invariants of a reference node: the name parts are
// spelled in the source, lie inside the reference and come in order; when
// whole is set, the source text of the reference is its spelling.
func checkRef(t testing.TB, f *source.File, r ast.Ref, whole bool) {
	t.Helper()
	rng := ast.SpanOf(r)
	checkRefRange(t, f, rng)
	if whole && f.TextOf(rng) != refSpelling(r) {
		t.Errorf("%s: source text %q", refDesc(r), f.TextOf(rng))
	}
	part := func(what string, pr source.Span, want string) {
		t.Helper()
		checkRefRange(t, f, pr)
		if !rng.Covers(pr) {
			t.Errorf("%s: %s range %v outside %v", refDesc(r), what, pr, rng)
		}
		if got := f.TextOf(pr); got != want {
			t.Errorf("%s: %s source text %q, want %q", refDesc(r), what, got, want)
		}
	}
	path := func(prev source.Span, p []*ast.Ident) {
		t.Helper()
		if len(p) == 0 {
			t.Errorf("%s: empty path", refDesc(r))
		}
		for _, id := range p {
			part("path", id.Span, id.Name)
			if id.Span.Start <= prev.Start {
				t.Errorf("%s: path segment %q out of order", refDesc(r), id.Name)
			}
			prev = id.Span
		}
	}
	switch r := r.(type) {
	case *ast.StepRef:
		part("id", r.IDSpan, r.ID)
		path(r.IDSpan, r.Path)
	case *ast.ArgRef:
		part("name", r.NameSpan, r.Name)
	case *ast.BracedRef:
		part("id", r.IDSpan, r.ID)
		path(r.IDSpan, r.Path)
	default:
		t.Errorf("unexpected ref type %T", r)
	}
}

// checkRefRange checks that a range is valid and inside the file.
func checkRefRange(t testing.TB, f *source.File, r source.Span) {
	t.Helper()
	if r.Start < 0 || r.End < r.Start || r.End > len(f.Content) {
		t.Errorf("bad range %v (offsets %d-%d, file %d bytes)", r, r.Start, r.End, len(f.Content))
	}
}

func TestScanRefs(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"no refs here", nil},
		{"$fetc.json", []string{"StepRef $fetc.json"}},
		{"cat $a.json.items.0.name", []string{"StepRef $a.json.items.0.name"}},
		{"cp $a.stdout.bak x", []string{"StepRef $a.stdout.bak"}},
		{"$a.", nil},
		{"$a. $b", nil},
		{"$.json", nil},
		{"$", nil},
		{"${", nil},
		{"${}", nil},
		{"$a.json.", []string{"StepRef $a.json"}},
		{"$a.json..x", []string{"StepRef $a.json"}},
		{"($a.json)", []string{"StepRef $a.json"}},
		{`"json=$gate.json"`, []string{"StepRef $gate.json"}},
		{"$my-step.json.a_b", []string{"StepRef $my-step.json.a_b"}},
		{"$a.json.key-with-hyphen", []string{"StepRef $a.json.key"}},
		{"$a.b$c.d", []string{"StepRef $a.b", "StepRef $c.d"}},
		{"$$a.b", []string{"StepRef $a.b"}},
		{"${name}", []string{"ArgRef ${name}"}},
		{"${my-arg_2}", []string{"ArgRef ${my-arg_2}"}},
		{"x${a}y${b}", []string{"ArgRef ${a}", "ArgRef ${b}"}},
		{"${a.b}", []string{"BracedRef ${a.b}"}},
		{"${fetch.json.title}", []string{"BracedRef ${fetch.json.title}"}},
		{"${a.b-c}", []string{"BracedRef ${a.b-c}"}},
		{"${a.}", nil},
		{"${a.b.}", nil},
		{"${a.b", nil},
		{"${a:-b}", nil},
		{"${a[0]}", nil},
		{"${a:-$b.json}", []string{"StepRef $b.json"}},
		{"${${x}}", []string{"ArgRef ${x}"}},
		{"$HOME.json $PATH.stdout", []string{"StepRef $HOME.json", "StepRef $PATH.stdout"}},
		{`"$LOBSTER_ARG_TEXT"`, nil},
		{"${LOBSTER_STEP_FOO}", []string{"ArgRef ${LOBSTER_STEP_FOO}"}},
		{"'$x.json'", []string{"StepRef $x.json"}},
		{"é$a.jsoné", []string{"StepRef $a.json"}},
		{"echo $a.json\ncat ${x}\n", []string{"StepRef $a.json", "ArgRef ${x}"}},
	}
	for _, tt := range tests {
		f, s := refsTestScalar(tt.text)
		refs := scanRefs(f, s)
		var got []string
		for _, r := range refs {
			got = append(got, refDesc(r))
			checkRef(t, f, r, true)
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("scanRefs(%q) = %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestScanRefsNodeDetails(t *testing.T) {
	f, s := refsTestScalar("go $a.json.items.0 ${arg} ${s.x-y.z}")
	refs := scanRefs(f, s)
	if len(refs) != 3 {
		t.Fatalf("got %d refs, want 3", len(refs))
	}
	sr, ok := refs[0].(*ast.StepRef)
	if !ok || sr.ID != "a" || len(sr.Path) != 3 || sr.Path[2].Name != "0" {
		t.Fatalf("bad step ref %#v", refs[0])
	}
	if sr.Span.Start != 3 || sr.Span.End != 18 || sr.IDSpan.Start != 4 || f.Pos(sr.Span.Start).Col != 4 {
		t.Errorf("step ref ranges %v %v", sr.Span, sr.IDSpan)
	}
	ar, ok := refs[1].(*ast.ArgRef)
	if !ok || ar.Name != "arg" || f.TextOf(ar.NameSpan) != "arg" || f.TextOf(ar.Span) != "${arg}" {
		t.Errorf("bad arg ref %#v", refs[1])
	}
	br, ok := refs[2].(*ast.BracedRef)
	if !ok || br.ID != "s" || len(br.Path) != 2 || br.Path[0].Name != "x-y" || f.TextOf(br.Span) != "${s.x-y.z}" {
		t.Errorf("bad braced ref %#v", refs[2])
	}
}

func TestScanRefsNilAndEmpty(t *testing.T) {
	if refs := scanRefs(nil, nil); refs != nil {
		t.Errorf("scanRefs(nil, nil) = %v", refs)
	}
	f, s := refsTestScalar("")
	if refs := scanRefs(f, s); refs != nil {
		t.Errorf("scanRefs(empty) = %v", refs)
	}
	if tpl := parseTemplate(nil, nil); tpl == nil || tpl.Refs != nil {
		t.Errorf("parseTemplate(nil, nil) = %#v", tpl)
	}
}

func TestScanRefsLiteralBlock(t *testing.T) {
	text := "echo $a.json\ncat ${x}\nuse ${b.c} $d.stdout.bak\n"
	f, s := refsTestBlock("run: |\n", text, 4)
	if !strings.HasPrefix(string(f.Content), "run: |\n    echo $a.json\n    cat ${x}\n") {
		t.Fatalf("bad test source %q", f.Content)
	}
	refs := scanRefs(f, s)
	want := []struct {
		desc      string
		line, col int
	}{
		{"StepRef $a.json", 2, 10},
		{"ArgRef ${x}", 3, 9},
		{"BracedRef ${b.c}", 4, 9},
		{"StepRef $d.stdout.bak", 4, 16},
	}
	if len(refs) != len(want) {
		t.Fatalf("got %d refs, want %d", len(refs), len(want))
	}
	for i, r := range refs {
		checkRef(t, f, r, true)
		w := want[i]
		if got := refDesc(r); got != w.desc {
			t.Errorf("ref %d = %s, want %s", i, got, w.desc)
		}
		if p := f.Pos(r.Pos()); p.Line != w.line || p.Col != w.col {
			t.Errorf("%s at %v, want %d:%d", w.desc, p, w.line, w.col)
		}
	}
}

func TestScanRefsEscapedDollar(t *testing.T) {
	f, s := refsTestEscaped("echo $a.json ${x} ${b.c}")
	refs := scanRefs(f, s)
	want := []string{`\u0024a.json`, `\u0024{x}`, `\u0024{b.c}`}
	if len(refs) != len(want) {
		t.Fatalf("got %d refs, want %d", len(refs), len(want))
	}
	for i, r := range refs {
		checkRef(t, f, r, false)
		if got := f.TextOf(ast.SpanOf(r)); got != want[i] {
			t.Errorf("ref %d source text %q, want %q", i, got, want[i])
		}
	}
}

func TestParseTemplate(t *testing.T) {
	f, s := refsTestScalar("${dir}/$build.json.out")
	tpl := parseTemplate(f, s)
	if tpl.Scalar != s || tpl.Span != s.Span {
		t.Errorf("template does not wrap its scalar: %#v", tpl)
	}
	if len(tpl.Refs) != 2 || refDesc(tpl.Refs[0]) != "ArgRef ${dir}" || refDesc(tpl.Refs[1]) != "StepRef $build.json.out" {
		t.Errorf("template refs %v", tpl.Refs)
	}
	var n int
	for range ast.Preorder(tpl) {
		n++
	}
	if n != 1+2+2 { // template, two refs, two path segments
		t.Errorf("walked %d nodes", n)
	}
}

// refsRegexp is the union of the reference's patterns and
// the braced form. Go's regexp prefers the leftmost match, like the scanner.
var refsRegexp = regexp.MustCompile(`\$\{[A-Za-z0-9_-]+\}|\$\{[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)+\}|\$[A-Za-z0-9_-]+\.[A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*`)

// checkRefsAgainstRegexp checks that the scanner finds exactly the matches of
// refsRegexp, with exact ranges for a verbatim map.
func checkRefsAgainstRegexp(t testing.TB, text string) {
	t.Helper()
	f, s := refsTestScalar(text)
	refs := scanRefs(f, s)
	want := refsRegexp.FindAllStringIndex(text, -1)
	if len(refs) != len(want) {
		t.Fatalf("scanRefs(%q): %d refs, regexp finds %d", text, len(refs), len(want))
	}
	for i, r := range refs {
		checkRef(t, f, r, true)
		if r.Pos() != want[i][0] || r.End() != want[i][1] {
			t.Errorf("scanRefs(%q): ref %d at %d-%d, regexp at %v", text, i, r.Pos(), r.End(), want[i])
		}
	}
}

func TestScanRefsMatchesRegexp(t *testing.T) {
	for _, text := range []string{
		"$a.b.c.d-e.f", "${a.b.c-d}x", "$-.x", "${-}", "$a-b.c_d.0", "$$${a.b}}", "${a}.json",
		"$a.b.${c}", "$a${b.c}$d.e", "${a.b}${c}", "$a.b\n$c.d", "$é.x", "${a..b}",
	} {
		checkRefsAgainstRegexp(t, text)
	}
}

func FuzzScanRefs(f *testing.F) {
	for _, s := range []string{
		"$fetc.json", "$a.json.items.0.name", "$a.stdout.bak", "$a.", "${name}", "${a.b}", "${a.b-c}",
		"${a:-b}", "$HOME.json $PATH.stdout", `"$LOBSTER_ARG_TEXT"`, "${LOBSTER_STEP_FOO}", "'$x.json'",
		"echo $a.json\ncat ${x}\n", "$$a.b${c}", "\\u0024",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		checkRefsAgainstRegexp(t, text)
		if strings.Contains(text, "\r") {
			return
		}
		bf, bs := refsTestBlock("run: |\n", text, 2)
		for _, r := range scanRefs(bf, bs) {
			checkRef(t, bf, r, true)
		}
		ef, es := refsTestEscaped(text)
		for _, r := range scanRefs(ef, es) {
			checkRef(t, ef, r, false)
			if !strings.HasPrefix(ef.TextOf(ast.SpanOf(r)), `\u0024`) {
				t.Errorf("escaped ref %s spelled %q", refDesc(r), ef.TextOf(ast.SpanOf(r)))
			}
		}
	})
}

func BenchmarkScanRefs(b *testing.B) {
	f, s := refsTestScalar("curl -s \"${base}/items?id=$fetch.json.id\" | jq '.items[] | .name' > $out.stdout # ${a.b}\n")
	b.ReportAllocs()
	for b.Loop() {
		scanRefs(f, s)
	}
}
