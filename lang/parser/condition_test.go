package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// condTestScalar builds a string scalar whose decoded text is src, copied
// verbatim from a file holding just src.
func condTestScalar(src string) (*source.File, *ast.Scalar) {
	f := source.NewFile("t", []byte(src))
	s := &ast.Scalar{Kind: ast.String, Text: src, Map: source.Verbatim(0, len(src))}
	s.Span = source.Span{Start: 0, End: len(src)}
	return f, s
}

// embedPart is one piece of a scalar's body: how it is spelled in the source
// and what it decodes to. Equal strings make a verbatim segment.
type embedPart struct{ src, dec string }

// embedMappedScalar builds a string scalar inside file, spanning the source
// bytes [from, to), whose body starts at bodyAt and is spelled by parts.
func embedMappedScalar(t *testing.T, file string, from, to, bodyAt int, parts []embedPart) (*source.File, *ast.Scalar) {
	t.Helper()
	f := source.NewFile("t.lobster", []byte(file))
	var m source.TextMap
	var text strings.Builder
	off := bodyAt
	for _, p := range parts {
		if !strings.HasPrefix(file[off:], p.src) {
			t.Fatalf("part %q does not match the source at %d: %q", p.src, off, file[off:])
		}
		m.Add(source.Seg{Dec: text.Len(), DecLen: len(p.dec), Src: off, SrcLen: len(p.src), Verbatim: p.src == p.dec})
		text.WriteString(p.dec)
		off += len(p.src)
	}
	s := &ast.Scalar{Kind: ast.String, Style: ast.DoubleQuoted, Text: text.String(), Map: m}
	s.Span = source.Span{Start: from, End: to}
	return f, s
}

// embedMarked splits a test input written with «» around the expected error
// range into the input and that range's offsets.
func embedMarked(t *testing.T, marked string) (src string, i, j int) {
	t.Helper()
	i = strings.Index(marked, "«")
	j = strings.Index(marked, "»")
	if i < 0 || j < i {
		t.Fatalf("input %q has no «» marks", marked)
	}
	j -= len("«")
	return strings.Replace(strings.Replace(marked, "«", "", 1), "»", "", 1), i, j
}

// condDump writes an expression compactly: (op X Y), (! X), [X] for
// parentheses, $id.path, "string", number, true/false/null and word:w.
func condDump(e ast.Expr) string {
	switch e := e.(type) {
	case nil:
		return "<nil>"
	case *ast.BinaryExpr:
		return "(" + e.Op + " " + condDump(e.X) + " " + condDump(e.Y) + ")"
	case *ast.UnaryExpr:
		return "(" + e.Op + " " + condDump(e.X) + ")"
	case *ast.ParenExpr:
		return "[" + condDump(e.X) + "]"
	case *ast.StepRef:
		return "$" + e.ID + embedPath(e.Path)
	case *ast.Literal:
		switch e.Kind {
		case ast.LitString:
			return fmt.Sprintf("%q", e.Value)
		case ast.LitWord:
			return "word:" + e.Value
		}
		return e.Value
	}
	return fmt.Sprintf("<%T>", e)
}

// embedPath writes a reference path as .a.b.
func embedPath(path []*ast.Ident) string {
	var b strings.Builder
	for _, id := range path {
		b.WriteString("." + id.Name)
	}
	return b.String()
}

// embedCheckTree checks the range invariants of the tree under root: every
// range lies within [0, size] with start <= end, and children lie inside
// their parents and follow each other in source order.
func embedCheckTree(t *testing.T, root ast.Node, size int) {
	t.Helper()
	for n := range ast.Preorder(root) {
		embedCheckRange(t, n, ast.SpanOf(n), size)
		prev := n.Pos()
		for _, c := range ast.Children(n) {
			if !ast.SpanOf(n).Covers(ast.SpanOf(c)) {
				t.Errorf("%T %v is not inside its parent %T %v", c, ast.SpanOf(c), n, ast.SpanOf(n))
			}
			if c.Pos() < prev {
				t.Errorf("%T %v starts before its previous sibling ends (%d)", c, ast.SpanOf(c), prev)
			}
			prev = c.End()
		}
	}
}

// embedCheckRange checks that r is a well-formed range of a file of size bytes.
func embedCheckRange(t *testing.T, what any, r source.Span, size int) {
	t.Helper()
	if r.Start < 0 || r.End > size || r.Start > r.End {
		t.Errorf("%T: bad range %v [%d,%d) in a file of %d bytes", what, r, r.Start, r.End, size)
	}
}

// condCheckSpelling checks, for a condition parsed from a verbatim scalar,
// that every token's source text spells it.
func condCheckSpelling(t *testing.T, f *source.File, c *ast.Condition) {
	t.Helper()
	text := func(n ast.Node) string { return f.TextOf(ast.SpanOf(n)) }
	for n := range ast.Preorder(c) {
		switch n := n.(type) {
		case *ast.StepRef:
			if got, want := text(n), "$"+n.ID+embedPath(n.Path); got != want {
				t.Errorf("step reference spelled %q, want %q", got, want)
			}
			if got := f.TextOf(n.IDSpan); got != n.ID {
				t.Errorf("step id spelled %q, want %q", got, n.ID)
			}
		case *ast.Ident:
			if got := text(n); got != n.Name {
				t.Errorf("path segment spelled %q, want %q", got, n.Name)
			}
		case *ast.Literal:
			condCheckLiteral(t, text(n), n)
		case *ast.BinaryExpr:
			if got := f.TextOf(n.OpSpan); got != n.Op {
				t.Errorf("operator spelled %q, want %q", got, n.Op)
			}
			if n.X.End() > n.OpSpan.Start || n.OpSpan.End > n.Y.Pos() {
				t.Errorf("operator %q at %v is not between its operands", n.Op, n.OpSpan)
			}
			if n.Pos() != n.X.Pos() || n.End() != n.Y.End() {
				t.Errorf("binary %q at %v does not span its operands", n.Op, ast.SpanOf(n))
			}
		case *ast.UnaryExpr:
			if got := text(n); !strings.HasPrefix(got, "!") || n.End() != n.X.End() {
				t.Errorf("unary expression spelled %q", got)
			}
		case *ast.ParenExpr:
			if got := text(n); !strings.HasPrefix(got, "(") || !strings.HasSuffix(got, ")") {
				t.Errorf("parenthesised expression spelled %q", got)
			}
		}
	}
}

// condCheckLiteral checks that a literal's source text spells it.
func condCheckLiteral(t *testing.T, got string, n *ast.Literal) {
	t.Helper()
	if n.Kind != ast.LitString {
		if got != n.Value {
			t.Errorf("%v literal spelled %q, want %q", n.Kind, got, n.Value)
		}
		return
	}
	if len(got) < 2 || (got[0] != '"' && got[0] != '\'') || got[len(got)-1] != got[0] {
		t.Errorf("string literal spelled %q, want a quoted string", got)
	}
}

// TestParseCondition parses valid conditions and checks the tree and the
// spelling of every token.
func TestParseCondition(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		// Literal conditions.
		{"true", "true"},
		{"false", "false"},
		{"  true\n", "true"},
		{"null", "null"},
		{"(true)", "[true]"},
		// The comparisons of the reference's own condition tests.
		{"$data.json.count > 3", "(> $data.json.count 3)"},
		{"$data.json.val < 10", "(< $data.json.val 10)"},
		{"$data.json.val >= 5", "(>= $data.json.val 5)"},
		{"$data.json.val <= 5", "(<= $data.json.val 5)"},
		{"$data.json.val > 0", "(> $data.json.val 0)"},
		{"$data.json.a >= 1 && $data.json.b < 100", "(&& (>= $data.json.a 1) (< $data.json.b 100))"},
		{`$data.json.status == "ok"`, `(== $data.json.status "ok")`},
		// Approval and input results combined.
		{"$gate.approved && ($review.response.pending == true || $review.skipped)",
			"(&& $gate.approved [(|| (== $review.response.pending true) $review.skipped)])"},
		{"!$a.json.t == false", "(== (! $a.json.t) false)"},
		{"!$x.json.missing", "(! $x.json.missing)"},
		{"$x.json.missing == null", "(== $x.json.missing null)"},
		{`-1 < "0"`, `(< -1 "0")`},
		{`1 == "1"`, `(== 1 "1")`},
		{"false && $nope.x", "(&& false $nope.x)"},
		{"$mode.stdout == full", "(== $mode.stdout word:full)"},
		{"$a.json.items.0.name != ''", `(!= $a.json.items.0.name "")`},
		// Precedence and associativity.
		{"$a.b || $c.d && $e.f", "(|| $a.b (&& $c.d $e.f))"},
		{"$a.b && $c.d || $e.f", "(|| (&& $a.b $c.d) $e.f)"},
		{"$a.b || $c.d || $e.f", "(|| (|| $a.b $c.d) $e.f)"},
		{"$a.b && $c.d && $e.f", "(&& (&& $a.b $c.d) $e.f)"},
		{"$a.b == 1 && $c.d != 2 || !$e.f", "(|| (&& (== $a.b 1) (!= $c.d 2)) (! $e.f))"},
		{"($a.b == 1) == true", "(== [(== $a.b 1)] true)"},
		{"!!$a.b", "(! (! $a.b))"},
		{"(($a.b))", "[[$a.b]]"},
		{"!($a.b || $c.d)", "(! [(|| $a.b $c.d)])"},
		// Bare words on the right.
		{"$a.json == approve", "(== $a.json word:approve)"},
		{"$a.json == !b", "(== $a.json (! word:b))"},
		{"$a.json != true-ish", "(!= $a.json word:true-ish)"},
		{"$a.json == _x-1", "(== $a.json word:_x-1)"},
		{"$a.json == TRUE", "(== $a.json word:TRUE)"},
		// Strings: a backslash takes the next character literally.
		{`'a\nb' == $x.y`, `(== "anb" $x.y)`},
		{`"say \"hi\"" == $x.y`, `(== "say \"hi\"" $x.y)`},
		{`$x.y == 'it\'s'`, `(== $x.y "it's")`},
		{`$x.y == 'a\\'`, `(== $x.y "a\\")`},
		{`$x.y == "é\ü"`, `(== $x.y "éü")`},
		{`"a" == "a"`, `(== "a" "a")`},
		{`$x.y == "||"`, `(== $x.y "||")`},
		// Numbers.
		{"$a.b >= -2.25", "(>= $a.b -2.25)"},
		{"1.5 < $a.b", "(< 1.5 $a.b)"},
		{"$a.b == 007", "(== $a.b 007)"},
		// Step references.
		{"$my-step_1.json.items.0.name", "$my-step_1.json.items.0.name"},
		{"$1.stdout", "$1.stdout"},
		// Whitespace.
		{"$a.b==1", "(== $a.b 1)"},
		{"\t$a.b\n&&\r\n$c.d ", "(&& $a.b $c.d)"},
		{"\u00a0$a.b\u3000==\u2003x\ufeff", "(== $a.b word:x)"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			f, s := condTestScalar(tt.src)
			c := parseCondition(f, s)
			if c.Err != nil {
				t.Fatalf("error %q at %v", c.Err.Msg, c.Err.Span)
			}
			if got := condDump(c.Expr); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if c.Scalar != s || c.Span != s.Span {
				t.Errorf("condition does not carry its scalar and range")
			}
			embedCheckTree(t, c, len(tt.src))
			condCheckSpelling(t, f, c)
		})
	}
}

// TestParseConditionSpans pins the exact source text of every node, in
// preorder, for a few conditions.
func TestParseConditionSpans(t *testing.T) {
	tests := []struct {
		src   string
		spans []string
	}{
		{"  true ", []string{"  true ", "true"}},
		{"$data.json.count > 3", []string{
			"$data.json.count > 3", "$data.json.count > 3", "$data.json.count", "json", "count", "3"}},
		{"!$a.json.t == false", []string{
			"!$a.json.t == false", "!$a.json.t == false", "!$a.json.t", "$a.json.t", "json", "t", "false"}},
		{`$g.approved && ( $r.x == 'o\'k' )`, []string{
			`$g.approved && ( $r.x == 'o\'k' )`, `$g.approved && ( $r.x == 'o\'k' )`, "$g.approved", "approved",
			`( $r.x == 'o\'k' )`, `$r.x == 'o\'k'`, "$r.x", "x", `'o\'k'`}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			f, s := condTestScalar(tt.src)
			c := parseCondition(f, s)
			if c.Err != nil {
				t.Fatalf("error %q", c.Err.Msg)
			}
			var got []string
			for n := range ast.Preorder(c) {
				got = append(got, f.TextOf(ast.SpanOf(n)))
			}
			if strings.Join(got, "¦") != strings.Join(tt.spans, "¦") {
				t.Errorf("spans\ngot  %q\nwant %q", got, tt.spans)
			}
		})
	}
}

// TestParseConditionStepRef pins the id, path and operator offsets of a
// comparison.
func TestParseConditionStepRef(t *testing.T) {
	src := "$my-step.json.items.0 == 1"
	f, s := condTestScalar(src)
	c := parseCondition(f, s)
	b, ok := c.Expr.(*ast.BinaryExpr)
	if !ok {
		t.Fatalf("got %s, want a comparison", condDump(c.Expr))
	}
	ref, ok := b.X.(*ast.StepRef)
	if !ok {
		t.Fatalf("left operand is %T, want *ast.StepRef", b.X)
	}
	if ref.ID != "my-step" || f.TextOf(ref.IDSpan) != "my-step" || ref.IDSpan.Start != 1 {
		t.Errorf("id %q at %v", ref.ID, ref.IDSpan)
	}
	var segs []string
	for _, id := range ref.Path {
		segs = append(segs, fmt.Sprintf("%s@%d", id.Name, id.Pos()))
	}
	if got, want := strings.Join(segs, " "), "json@9 items@14 0@20"; got != want {
		t.Errorf("path %s, want %s", got, want)
	}
	if b.OpSpan.Start != 22 || b.OpSpan.End != 24 {
		t.Errorf("operator at %v", b.OpSpan)
	}
}

// TestParseConditionErrors checks the message and exact range of every
// syntax error.
func TestParseConditionErrors(t *testing.T) {
	tests := []struct {
		marked string // the input, with «» around the expected error range
		msg    string
	}{
		// Bare words, which the reference rejects.
		{"«approve»", `bare word "approve" is not a condition: only the right side of a comparison may be a bare word`},
		{"«x» == $a.json.s", `bare word "x" on the left of a comparison`},
		{"«a» == b == c", `bare word "a" on the left of a comparison`},
		{"$a.b == 1 «==» 2", "only one comparison per operand: use && to combine comparisons"},
		{"$a.b < $c.d «>» 2 && $e.f", "only one comparison per operand: use && to combine comparisons"},
		{"«1e3»", "numbers have no exponent"},
		{"$a.b > «1.5E-3»", "numbers have no exponent"},
		{"$a.b > «2e+10» && x", "numbers have no exponent"},
		{"$a.json.n «=» 3", `unexpected "=" (use "==")`},
		{"$a.json.n ==«=» 3", `unexpected "=" (use "==")`},
		{"«=»", `unexpected "=" (use "==")`},
		{"«yes»", `bare word "yes" is not a condition: only the right side of a comparison may be a bare word`},
		{"«TRUE»", `bare word "TRUE" is not a condition: only the right side of a comparison may be a bare word`},
		{"!«approve»", `bare word "approve" is not a condition: only the right side of a comparison may be a bare word`},
		{"$a.b == («x»)", `bare word "x" is not a condition: only the right side of a comparison may be a bare word`},
		{"«x» == ${y}", `bare word "x" on the left of a comparison`},
		// Operators.
		{"$a.b «&» $c.d", `unexpected "&" (use "&&")`},
		{"$a.b «|» $c.d", `unexpected "|" (use "||")`},
		{"$a.b == «&&» $c.d", `unexpected "&&"`},
		{"«||» $a.b", `unexpected "||"`},
		{"$a.b «!» $c.d", `unexpected "!"`},
		// Args and malformed references.
		{"«${mode}» == \"full\"", `"${" is not allowed in a condition: args cannot be used in conditions`},
		{"$a.b == «${x}»", `"${" is not allowed in a condition: args cannot be used in conditions`},
		{"«${» mode}", `"${" is not allowed in a condition: args cannot be used in conditions`},
		{"«${»", `"${" is not allowed in a condition: args cannot be used in conditions`},
		{"«$»", `unexpected "$": a step reference is written $id.path`},
		{"«$» == 1", `unexpected "$": a step reference is written $id.path`},
		{"«$a» == 1", `step reference "$a" has no path: expected $a.<field>`},
		{"«$a.» == 1", `step reference "$a" has no path: expected $a.<field>`},
		{"«$a.»-x", `step reference "$a" has no path: expected $a.<field>`},
		{"$a.b«.» == 1", `unexpected "."`},
		{"$a.b«-»c == 1", `unexpected "-"`},
		// Strings.
		{"«'abc»", "unterminated string"},
		{`$a.b == «"x\"»`, "unterminated string"},
		{`$a.b == «'x\»`, "unterminated string"},
		{"$a.b == «\"x»    ", "unterminated string"},
		// Numbers.
		{"$a.b == «.»5", `numbers need a digit before "."`},
		{"$a.b == «1.»", `number "1." needs digits after "."`},
		{"$a.b == «-1.»x", `number "-1." needs digits after "."`},
		{"$a.b == «-»x", `unexpected "-"`},
		{"$a.b == 1«x»", `unexpected "x"`},
		{"$a.b == 1«ex»", `unexpected "ex"`},
		// Structure.
		{"$a.b &&«»", "unexpected end of condition"},
		{"$a.b &&«»  \n", "unexpected end of condition"},
		{"$a.b ==«»", "unexpected end of condition"},
		{"!«»", "unexpected end of condition"},
		{"«(»$a.b", `unclosed "("`},
		{"«(»($a.b)", `unclosed "("`},
		{"($a.b «c»)", `unexpected "c": expected ")"`},
		{"(«)»", `unexpected ")"`},
		{"$a.b«)»", `unexpected ")"`},
		{"$a.b «$c.d»", `unexpected "$c.d"`},
		{"$a.b == x «y»", `unexpected "y"`},
		{"true «false»", `unexpected "false"`},
		{`$a.b «"x"»`, `unexpected "\"x\""`},
		// Other characters.
		{"«@»", `unexpected "@"`},
		{"$a.b == «é»", `unexpected "é"`},
		{"$a.b == «\xff»", `unexpected "\xff"`},
		{"«#» comment", `unexpected "#"`},
	}
	for _, tt := range tests {
		t.Run(tt.marked, func(t *testing.T) {
			src, i, j := embedMarked(t, tt.marked)
			f, s := condTestScalar(src)
			c := parseCondition(f, s)
			if c.Err == nil {
				t.Fatalf("no error; parsed %s", condDump(c.Expr))
			}
			if c.Expr != nil {
				t.Errorf("Expr is %s, want nil on error", condDump(c.Expr))
			}
			if c.Err.Msg != tt.msg {
				t.Errorf("message\ngot  %s\nwant %s", c.Err.Msg, tt.msg)
			}
			if r := c.Err.Span; r.Start != i || r.End != j {
				t.Errorf("error at [%d,%d) %q, want [%d,%d) %q", r.Start, r.End, f.TextOf(r), i, j, src[i:j])
			}
			embedCheckRange(t, c.Err, c.Err.Span, len(src))
		})
	}
}

// TestParseConditionEmpty checks blank conditions and a nil scalar.
func TestParseConditionEmpty(t *testing.T) {
	for _, src := range []string{"", "   ", "\n\t\u00a0"} {
		f, s := condTestScalar(src)
		c := parseCondition(f, s)
		if c.Err == nil || c.Err.Msg != "empty condition" || c.Err.Span != s.Span || c.Expr != nil {
			t.Errorf("%q: got %+v, want an empty-condition error over the scalar", src, c.Err)
		}
	}
	if c := parseCondition(nil, nil); c == nil || c.Expr != nil {
		t.Errorf("a nil scalar should give an empty condition")
	}
}

// TestParseConditionMapped parses conditions decoded from quoted and folded
// YAML scalars and checks that ranges land on the escaped source bytes.
func TestParseConditionMapped(t *testing.T) {
	t.Run("double-quoted", func(t *testing.T) {
		file := `when: "$a.json == \"x\""` + "\n"
		f, s := embedMappedScalar(t, file, 6, 24, 7, []embedPart{
			{`$a.json == `, `$a.json == `}, {`\"`, `"`}, {`x`, `x`}, {`\"`, `"`},
		})
		c := parseCondition(f, s)
		if c.Err != nil {
			t.Fatalf("error %q", c.Err.Msg)
		}
		if got, want := condDump(c.Expr), `(== $a.json "x")`; got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
		b := c.Expr.(*ast.BinaryExpr)
		embedWantText(t, f, "binary", ast.SpanOf(b), `$a.json == \"x\"`)
		embedWantText(t, f, "step ref", ast.SpanOf(b.X), `$a.json`)
		embedWantText(t, f, "operator", b.OpSpan, `==`)
		embedWantText(t, f, "literal", ast.SpanOf(b.Y), `\"x\"`)
		embedWantText(t, f, "condition", ast.SpanOf(c), `"$a.json == \"x\""`)
		embedCheckTree(t, c, len(file))
	})
	t.Run("single-quoted", func(t *testing.T) {
		file := `when: '$data.json.status == ''ok'''`
		f, s := embedMappedScalar(t, file, 6, len(file), 7, []embedPart{
			{`$data.json.status == `, `$data.json.status == `}, {`''`, `'`}, {`ok`, `ok`}, {`''`, `'`},
		})
		c := parseCondition(f, s)
		if got, want := condDump(c.Expr), `(== $data.json.status "ok")`; got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
		embedWantText(t, f, "literal", ast.SpanOf(c.Expr.(*ast.BinaryExpr).Y), `''ok''`)
		embedCheckTree(t, c, len(file))
	})
	t.Run("folded", func(t *testing.T) {
		file := "when: >-\n  $a.json.x == 1 &&\n  $b.json.y\n"
		f, s := embedMappedScalar(t, file, 6, len(file), 11, []embedPart{
			{"$a.json.x == 1 &&", "$a.json.x == 1 &&"}, {"\n  ", " "}, {"$b.json.y", "$b.json.y"},
		})
		c := parseCondition(f, s)
		if got, want := condDump(c.Expr), "(&& (== $a.json.x 1) $b.json.y)"; got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
		b := c.Expr.(*ast.BinaryExpr)
		embedWantText(t, f, "and", ast.SpanOf(b), "$a.json.x == 1 &&\n  $b.json.y")
		embedWantText(t, f, "operator", b.OpSpan, "&&")
		embedWantText(t, f, "right", ast.SpanOf(b.Y), "$b.json.y")
		if p := f.Pos(b.Y.Pos()); p.Line != 3 || p.Col != 3 {
			t.Errorf("right operand at %v, want 3:3", p)
		}
		ref := b.Y.(*ast.StepRef)
		embedWantText(t, f, "segment", ast.SpanOf(ref.Path[1]), "y")
		embedCheckTree(t, c, len(file))
	})
	t.Run("escaped error", func(t *testing.T) {
		file := `when: "$a.json \u003d 1"`
		f, s := embedMappedScalar(t, file, 6, len(file), 7, []embedPart{
			{`$a.json `, `$a.json `}, {`\u003d`, `=`}, {` 1`, ` 1`},
		})
		c := parseCondition(f, s)
		if c.Err == nil {
			t.Fatalf("no error; parsed %s", condDump(c.Expr))
		}
		embedWantText(t, f, "error", c.Err.Span, `\u003d`)
	})
	t.Run("trimmed", func(t *testing.T) {
		file := "when: \"  \\t$a.b\""
		f, s := embedMappedScalar(t, file, 6, len(file), 7, []embedPart{
			{"  ", "  "}, {`\t`, "\t"}, {"$a.b", "$a.b"},
		})
		c := parseCondition(f, s)
		if c.Err != nil {
			t.Fatalf("error %q", c.Err.Msg)
		}
		embedWantText(t, f, "step ref", ast.SpanOf(c.Expr), "$a.b")
	})
}

// embedWantText checks that the source text of r is want.
func embedWantText(t *testing.T, f *source.File, what string, r source.Span, want string) {
	t.Helper()
	if got := f.TextOf(r); got != want {
		t.Errorf("%s spelled %q at %v, want %q", what, got, r, want)
	}
}

// condFuzzSeeds are the seed inputs of FuzzParseCondition.
var condFuzzSeeds = []string{
	"", "true", " false ", "$a.b", "$data.json.count > 3", "$a.b == 1 == 2",
	"$gate.approved && ($review.response.pending == true || $review.skipped)",
	"!$a.json.t == false", `'$x' == "y\"z"`, "${x}", "$", "$a.", "1e3", "-1.5 < $a.b",
	"(($a.b)", "$a.b)", "x == y", "$a.b == x", "a = b", "é", "\xff\xfe", "'\\", "1.",
}

// FuzzParseCondition checks that any text parses without panicking into a
// tree with well-formed, nested and correctly spelled ranges.
func FuzzParseCondition(f *testing.F) {
	for _, s := range condFuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, s := condTestScalar(src)
		c := parseCondition(file, s)
		if (c.Err == nil) == (c.Expr == nil) {
			t.Fatalf("want exactly one of Expr and Err; got %v and %v", c.Expr, c.Err)
		}
		if c.Err != nil {
			embedCheckRange(t, c.Err, c.Err.Span, len(src))
			if !s.Span.Covers(c.Err.Span) {
				t.Errorf("error range %v outside the scalar", c.Err.Span)
			}
			return
		}
		embedCheckTree(t, c, len(src))
		condCheckSpelling(t, file, c)
	})
}
