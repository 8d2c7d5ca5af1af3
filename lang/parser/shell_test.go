package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// shellVarDesc describes a shell variable for table tests: the source text
// of its range, its name and its operator.
func shellVarDesc(f *source.File, v *ast.ShellVar) string {
	s := f.TextOf(v.Span) + " " + v.Name
	if v.Op != "" {
		s += " " + v.Op
	}
	return s
}

// checkShell checks the invariants of a parsed shell text: valid ranges inside
// the scalar, names spelled in the source, expansions that start with '$'
// (except arithmetic names), Braced matching "${", source order, and
// references and variables that do not overlap.
func checkShell(t testing.TB, f *source.File, s *ast.Scalar, sh *ast.Shell) {
	t.Helper()
	if sh.Scalar != s || sh.Span != s.Span {
		t.Errorf("shell does not wrap its scalar")
	}
	for _, r := range sh.Refs {
		checkRef(t, f, r, false)
	}
	prev := -1
	for _, v := range sh.Vars {
		checkRefRange(t, f, v.Span)
		checkRefRange(t, f, v.NameSpan)
		if !v.Span.Covers(v.NameSpan) {
			t.Errorf("var %s: name %v outside %v", v.Name, v.NameSpan, v.Span)
		}
		if got := f.TextOf(v.NameSpan); got != v.Name {
			t.Errorf("var %s: name source text %q", v.Name, got)
		}
		if v.Name == "" {
			t.Errorf("empty var name at %v", v.Span)
		}
		text := f.TextOf(v.Span)
		if v.Op == "arith" {
			if text != v.Name || v.Braced {
				t.Errorf("arithmetic var %s spelled %q", v.Name, text)
			}
		} else if strings.IndexByte(text, 0) >= 0 {
			// The shell parser skips NUL bytes: "$\x00{A}" is ${A}.
		} else if !strings.HasPrefix(text, "$") && !strings.HasPrefix(text, `\u0024`) ||
			v.Braced != (strings.HasPrefix(text, "${") || strings.HasPrefix(text, `\u0024{`)) {
			t.Errorf("var %s spelled %q (braced %v)", v.Name, text, v.Braced)
		}
		if v.Pos() < prev {
			t.Errorf("var %s out of order", v.Name)
		}
		prev = v.Pos()
		for _, r := range sh.Refs {
			if ast.SpanOf(r).Contains(v.NameSpan.Start) {
				t.Errorf("var %s starts inside ref %s", v.Name, refDesc(r))
			}
		}
	}
	if sh.Err != nil {
		checkRefRange(t, f, sh.Err.Span)
		if sh.Err.Msg == "" {
			t.Errorf("empty syntax error message")
		}
	}
}

func TestParseShell(t *testing.T) {
	tests := []struct {
		text string
		refs []string
		vars []string
		err  string // the error message, "" when valid
	}{
		{text: "echo hi"},
		{text: "echo $fetc.json", refs: []string{"StepRef $fetc.json"}},
		{text: `echo "$LOBSTER_ARG_TEXT"`, vars: []string{"$LOBSTER_ARG_TEXT LOBSTER_ARG_TEXT"}},
		// ${NAME} is an arg reference, even when no arg has that name.
		{text: "echo ${LOBSTER_STEP_FOO}", refs: []string{"ArgRef ${LOBSTER_STEP_FOO}"}},
		{text: "echo ${LOBSTER_STEP_FOO:-none}", vars: []string{"${LOBSTER_STEP_FOO:-none} LOBSTER_STEP_FOO :-"}},
		{text: "echo '$NOT_EXPANDED' '$x.json'", refs: []string{"StepRef $x.json"}},
		{text: "echo $HOME.json $PATH.stdout", refs: []string{"StepRef $HOME.json", "StepRef $PATH.stdout"}},
		{text: "echo ${name}", refs: []string{"ArgRef ${name}"}},
		{text: "echo ${a.b}", refs: []string{"BracedRef ${a.b}"}},
		{text: "echo ${a.b-c} $X", refs: []string{"BracedRef ${a.b-c}"}, vars: []string{"$X X"}},
		{text: "echo ${a:-b}", vars: []string{"${a:-b} a :-"}},
		{text: "echo ${x:-$a.json}", refs: []string{"StepRef $a.json"}, vars: []string{"${x:-$a.json} x :-"}},
		{text: "echo ${A:-$B}", vars: []string{"${A:-$B} A :-", "$B B"}},
		{text: "echo $FOO$a.json", refs: []string{"StepRef $a.json"}, vars: []string{"$FOO FOO"}},
		{text: "echo $$a.json", refs: []string{"StepRef $a.json"}},
		{text: "echo $a.json$B", refs: []string{"StepRef $a.json"}, vars: []string{"$B B"}},
		{text: "x=$(cmd $VAR) y=`echo $BT`", vars: []string{"$VAR VAR", "$BT BT"}},
		{text: `echo "$(printf '%s' "$IN")"`, vars: []string{"$IN IN"}},
		{text: "echo $((N+1)) $(( $M * 2 ))", vars: []string{"N N arith", "$M M"}},
		{text: "echo $(( $a.json.count + 1 ))", refs: []string{"StepRef $a.json.count"}},
		{text: "echo $(( (a + b) * ${#C} ))", vars: []string{"a a arith", "b b arith", "${#C} C #len"}},
		{text: "echo $1 $@ $? $# $$ ${10} $0", refs: []string{"ArgRef ${10}"}, vars: []string{"$1 1", "$@ @", "$? ?", "$# #", "$$ $", "$0 0"}},
		{text: "echo ${@} ${#} ${?:-x}", vars: []string{"${@} @", "${#} #", "${?:-x} ? :-"}},
		{
			// ${A-x} and ${A} match the arg pattern; ${A-/x} does not.
			text: "echo ${A#x} ${A##x} ${A%x} ${A%%x} ${A:=x} ${A=x} ${A:?x} ${A?x} ${A:+x} ${A+x} ${A-/x} ${#A} ${A-x} ${A}",
			refs: []string{"ArgRef ${A-x}", "ArgRef ${A}"},
			vars: []string{
				"${A#x} A #", "${A##x} A ##", "${A%x} A %", "${A%%x} A %%", "${A:=x} A :=", "${A=x} A =",
				"${A:?x} A :?", "${A?x} A ?", "${A:+x} A :+", "${A+x} A +", "${A-/x} A -", "${#A} A #len",
			},
		},
		{
			text: "cat <<EOF | grep $PAT\nhello $NAME ${X%%.*}\n$a.json '$Q'\nEOF\ncat <<'RAW'\n$NOT ${NOT}\nRAW\necho $AFTER\n",
			refs: []string{"StepRef $a.json", "ArgRef ${NOT}"},
			vars: []string{"$PAT PAT", "$NAME NAME", "${X%%.*} X %%", "$Q Q", "$AFTER AFTER"},
		},
		{
			text: "cat <<-EOF\n\t$TABBED\n\tEOF\necho \"$DONE\"\n",
			vars: []string{"$TABBED TABBED", "$DONE DONE"},
		},
		{text: "echo $A\r\necho ${B:-x}\r\n", vars: []string{"$A A", "${B:-x} B :-"}},
		{text: "# it's $NOT a var\necho $YES", vars: []string{"$YES YES"}},
		{text: "echo \\$NOT \"\\$NOT\" $YES", vars: []string{"$YES YES"}},
		{
			text: `echo "unterminated $LOBSTER_ARG_X`,
			vars: []string{"$LOBSTER_ARG_X LOBSTER_ARG_X"},
			err:  "reached EOF without closing quote `\"`",
		},
		{
			text: "echo ${a[0]} $a.json \"$LOBSTER_ARG_Y\" '$NO'",
			refs: []string{"StepRef $a.json"},
			vars: []string{"${a[0]} a", "$LOBSTER_ARG_Y LOBSTER_ARG_Y"},
			err:  "arrays are a bash/mksh/zsh feature; tried parsing as posix",
		},
		{
			text: "echo $(( 1 << $S )) \"$(ls '$NO' \"$YES\")\" ${U\n\"$V\"",
			vars: []string{"$S S", "$YES YES", "${U\n\"$V\" U", "$V V"},
			err:  "not a valid parameter expansion operator: \"\\n\"",
		},
		// Bytes that are not UTF-8 are literal word characters to /bin/sh:
		// no syntax error, and no variable starts in them ($\xe9 is not $x).
		{text: "printf 'caf\xe9' \"\xff\xfe\" $A\xe9 $\xe9x ${B:-\xe2\x82} $((1 + 2)) $a.json", refs: []string{"StepRef $a.json"}, vars: []string{"$A A", "${B:-\xe2\x82} B :-"}},
		{text: "cat <<EOF\n\xe9t\xe9 $HOME\nEOF\n", vars: []string{"$HOME HOME"}},
		{text: "echo \"\xe9", err: "reached EOF without closing quote `\"`"},
		{
			text: "if then $A; fi ${B:-${C}} ${#D} ${E:-$F}",
			refs: []string{"ArgRef ${C}"},
			vars: []string{"$A A", "${B:-${C}} B :-", "${#D} D #len", "${E:-$F} E :-", "$F F"},
			err:  "`if` must be followed by a statement list",
		},
	}
	for _, tt := range tests {
		f, s := refsTestScalar(tt.text)
		sh := parseShell(f, s)
		checkShell(t, f, s, sh)
		var refs, vars []string
		for _, r := range sh.Refs {
			refs = append(refs, refDesc(r))
			checkRef(t, f, r, true)
		}
		for _, v := range sh.Vars {
			vars = append(vars, shellVarDesc(f, v))
		}
		if strings.Join(refs, "\n") != strings.Join(tt.refs, "\n") {
			t.Errorf("parseShell(%q) refs = %q, want %q", tt.text, refs, tt.refs)
		}
		if strings.Join(vars, "\n") != strings.Join(tt.vars, "\n") {
			t.Errorf("parseShell(%q) vars = %q, want %q", tt.text, vars, tt.vars)
		}
		var msg string
		if sh.Err != nil {
			msg = sh.Err.Msg
		}
		if msg != tt.err {
			t.Errorf("parseShell(%q) error = %q, want %q", tt.text, msg, tt.err)
		}
	}
}

func TestParseShellErrorPosition(t *testing.T) {
	f, s := refsTestBlock("run: |\n", "echo ok\necho \"unterminated $LOBSTER_ARG_X\n", 4)
	sh := parseShell(f, s)
	checkShell(t, f, s, sh)
	if sh.Err == nil {
		t.Fatal("no syntax error")
	}
	if got := f.TextOf(sh.Err.Span); got != `"` || f.Pos(sh.Err.Span.Start).Line != 3 || f.Pos(sh.Err.Span.Start).Col != 10 {
		t.Errorf("error at %v %q, want the opening quote at 3:10", sh.Err.Span, got)
	}
	if len(sh.Vars) != 1 || sh.Vars[0].Name != "LOBSTER_ARG_X" || f.TextOf(sh.Vars[0].Span) != "$LOBSTER_ARG_X" {
		t.Errorf("vars %v", sh.Vars)
	}
}

func TestParseShellLiteralBlock(t *testing.T) {
	text := "echo $a.json\ncat ${x}\ncat <<EOF\n  ${HOME:-/root} $b.stdout\nEOF\necho \"$LOBSTER_ARG_TEXT\" '$NO'\n"
	f, s := refsTestBlock("run: |\n", text, 4)
	if !strings.HasPrefix(string(f.Content), "run: |\n    echo $a.json\n    cat ${x}\n") {
		t.Fatalf("bad test source %q", f.Content)
	}
	sh := parseShell(f, s)
	checkShell(t, f, s, sh)
	if sh.Err != nil {
		t.Fatalf("syntax error %s", sh.Err.Msg)
	}
	type at struct {
		desc      string
		line, col int
	}
	var got []at
	for _, n := range ast.Children(sh) {
		switch n := n.(type) {
		case ast.Ref:
			checkRef(t, f, n, true)
			got = append(got, at{refDesc(n), f.Pos(n.Pos()).Line, f.Pos(n.Pos()).Col})
		case *ast.ShellVar:
			got = append(got, at{shellVarDesc(f, n), f.Pos(n.Pos()).Line, f.Pos(n.Pos()).Col})
		}
	}
	want := []at{
		{"StepRef $a.json", 2, 10},
		{"ArgRef ${x}", 3, 9},
		{"${HOME:-/root} HOME :-", 5, 7},
		{"StepRef $b.stdout", 5, 22},
		{"$LOBSTER_ARG_TEXT LOBSTER_ARG_TEXT", 7, 11},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

func TestParseShellEscapedDollar(t *testing.T) {
	f, s := refsTestEscaped(`echo $a.json "$HOME" ${B:-x}`)
	sh := parseShell(f, s)
	checkShell(t, f, s, sh)
	if len(sh.Refs) != 1 || f.TextOf(ast.SpanOf(sh.Refs[0])) != `\u0024a.json` {
		t.Errorf("refs %v", sh.Refs)
	}
	var got []string
	for _, v := range sh.Vars {
		got = append(got, f.TextOf(v.Span))
	}
	if want := []string{`\u0024HOME`, `\u0024{B:-x}`}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("vars spelled %q, want %q", got, want)
	}
}

func TestParseShellNil(t *testing.T) {
	sh := parseShell(nil, nil)
	if sh == nil || sh.Refs != nil || sh.Vars != nil || sh.Err != nil {
		t.Errorf("parseShell(nil, nil) = %#v", sh)
	}
	f, s := refsTestScalar("")
	sh = parseShell(f, s)
	checkShell(t, f, s, sh)
	if sh.Err != nil || sh.Vars != nil || sh.Refs != nil {
		t.Errorf("parseShell(empty) = %#v", sh)
	}
}

func TestParseShellInvalidUTF8(t *testing.T) {
	f, s := refsTestScalar("echo \xff $A")
	sh := parseShell(f, s)
	checkShell(t, f, s, sh)
	if sh.Err != nil || len(sh.Vars) != 1 || sh.Vars[0].Name != "A" {
		t.Errorf("parseShell(invalid UTF-8) = err %v vars %v", sh.Err, sh.Vars)
	}
}

// TestShellLexAgreesWithParser checks the fallback scan against the parser on
// valid scripts: both must find the same '$' expansions.
func TestShellLexAgreesWithParser(t *testing.T) {
	for _, text := range []string{
		"echo $A ${B} ${C:-x} ${#D} ${E%%.*} $1 $@ $?",
		`echo "$A '$B'" '$C' \$D "\$E"`,
		"x=$(echo \"$(printf '%s' \"$IN\")\" '$NO') $OUT",
		"# don't $NO\necho $YES # $NO\necho a#$YES2",
		"cat <<EOF >out\n$A '${B}'\nEOF\ncat <<\"Q\"\n$NO\nQ\ncat <<-E\n\t$C\n\tE\necho $D",
		"cat <<A <<'B'\n$X\nA\n$NO\nB\necho $Y",
		"case $V in (a) echo $W;; b) echo $Z;; esac",
		"echo $(( 1 << 2 )) $(( $X << 1 ))\necho $A",
		"echo ${A:-${B:-$C}} ${D:+\"$E\"}",
		"echo $a.json ${x} '$b.json' $HOME.json $F$c.stdout",
	} {
		f, s := refsTestScalar(text)
		sh := parseShell(f, s)
		if sh.Err != nil {
			t.Fatalf("parseShell(%q): %s", text, sh.Err.Msg)
		}
		var parsed []string
		for _, v := range sh.Vars {
			if v.Op != "arith" {
				parsed = append(parsed, shellVarDesc(f, v))
			}
		}
		var spans []refSpan
		scanRefSpans(f, s, &spans)
		masked := []byte(text)
		for _, sp := range spans {
			for k := sp.i; k < sp.j; k++ {
				masked[k] = 'x'
			}
		}
		var lexed []string
		for _, v := range shellVars(f, s, shellLex(string(masked), nil), spans) {
			lexed = append(lexed, shellVarDesc(f, v))
		}
		if fmt.Sprint(parsed) != fmt.Sprint(lexed) {
			t.Errorf("%q:\nparser %q\nlexer  %q", text, parsed, lexed)
		}
	}
}

func TestShellLexUnterminated(t *testing.T) {
	for _, text := range []string{"${", "${A", "${A:-", "$", "\\", "<<", "<<-", "<<EOF\n$A", "$(", ")", "'", `"`, "${#", "${#}"} {
		toks := shellLex(text, nil)
		for _, tk := range toks {
			if tk.start < 0 || tk.end > len(text) || tk.nameStart < tk.start || tk.nameEnd > tk.end || tk.nameEnd <= tk.nameStart {
				t.Errorf("shellLex(%q): bad token %+v", text, tk)
			}
		}
	}
}

// shellFuzzSeeds are the seed texts of FuzzParseShell.
var shellFuzzSeeds = []string{
	"echo $a.json\ncat ${x}\n",
	"echo \"$LOBSTER_ARG_TEXT\" '$NOT' ${LOBSTER_STEP_FOO} ${a:-b} ${a.b}",
	"cat <<EOF\n$A ${B#x}\nEOF\ncat <<'E'\n$C\nE\n",
	"x=$(cmd $VAR) $((N+1)) $(( $a.json + 1 ))",
	"echo \"unterminated $LOBSTER_ARG_X",
	"echo ${a[0]} $FOO$a.json $$a.b",
	"if then $A; fi ${B:-${C}}",
	"echo $A\r\n",
	"0$\x00{0}",
}

func FuzzParseShell(f *testing.F) {
	for _, s := range shellFuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		vf, vs := refsTestScalar(text)
		sh := parseShell(vf, vs)
		checkShell(t, vf, vs, sh)
		for _, r := range sh.Refs {
			checkRef(t, vf, r, true)
		}
		for _, v := range sh.Vars {
			if v.Span.End > len(text) || vf.TextOf(v.Span) != text[v.Span.Start:v.Span.End] {
				t.Errorf("var %s: range %v does not match the decoded text", v.Name, v.Span)
			}
		}
		if strings.Contains(text, "\r") {
			return
		}
		bf, bs := refsTestBlock("run: |\n", text, 4)
		checkShell(t, bf, bs, parseShell(bf, bs))
		lexToks := shellLex(text, nil)
		for _, tk := range lexToks {
			if tk.start < 0 || tk.end > len(text) || tk.nameStart < tk.start || tk.nameEnd > tk.end || tk.nameEnd <= tk.nameStart {
				t.Errorf("shellLex: bad token %+v", tk)
			}
		}
	})
}

func BenchmarkParseShell(b *testing.B) {
	f, s := refsTestBlock("run: |\n",
		"set -eu\ncurl -s \"${base}/items?id=$fetch.json.id\" -H \"Authorization: Bearer $API_TOKEN\" > \"$TMPDIR/out.json\"\njq -r '.items[] | .name' \"${TMPDIR:-/tmp}/out.json\" | head -n \"$LOBSTER_ARG_LIMIT\"\n", 4)
	b.ReportAllocs()
	for b.Loop() {
		parseShell(f, s)
	}
}

// TestParseShellLarge checks that a long script with many references and
// variables is parsed in linear time (a quadratic pass would take seconds).
func TestParseShellLarge(t *testing.T) {
	const n = 5000
	text := strings.Repeat("echo \"$A$a.json\" ${B:-$b.stdout} $((N+1)) '$c.json'\n", n)
	f, s := refsTestScalar(text)
	sh := parseShell(f, s)
	if sh.Err != nil || len(sh.Refs) != 3*n || len(sh.Vars) != 3*n {
		t.Fatalf("valid: err %v, %d refs, %d vars", sh.Err, len(sh.Refs), len(sh.Vars))
	}
	bad := strings.Repeat("echo \"$A$a.json\" ${B:-$b.stdout} '$c.json' $(x\n", n)
	f, s = refsTestScalar(bad)
	sh = parseShell(f, s)
	if sh.Err == nil || len(sh.Refs) != 3*n || len(sh.Vars) != 2*n {
		t.Fatalf("invalid: err %v, %d refs, %d vars", sh.Err, len(sh.Refs), len(sh.Vars))
	}
	open := strings.Repeat("${A:-", n) + "\"$B"
	f, s = refsTestScalar(open)
	sh = parseShell(f, s)
	if sh.Err == nil || len(sh.Vars) != n+1 {
		t.Fatalf("unclosed: err %v, %d vars", sh.Err, len(sh.Vars))
	}
}
