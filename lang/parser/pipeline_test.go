package parser

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// pipeDump writes the stages of a pipeline compactly: each stage as
// ["name" args…], where a positional is a quoted string and a flag is --k,
// --k "v" or --k="v"; an error as error:msg.
func pipeDump(p *ast.Pipeline) string {
	if p.Err != nil {
		return "error:" + p.Err.Msg
	}
	var stages []string
	for _, st := range p.Stages {
		parts := []string{pipeDumpWord(st.Name)}
		for _, a := range st.Args {
			parts = append(parts, pipeDumpArg(a))
		}
		stages = append(stages, "["+strings.Join(parts, " ")+"]")
	}
	return strings.Join(stages, " ")
}

// pipeDumpWord writes a word as a quoted string.
func pipeDumpWord(w *ast.Word) string {
	if w == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%q", w.Text)
}

// pipeDumpArg writes a positional or a flag.
func pipeDumpArg(a ast.Arg) string {
	switch a := a.(type) {
	case *ast.Word:
		return pipeDumpWord(a)
	case *ast.Flag:
		switch {
		case a.Eq:
			return "--" + a.Name + "=" + pipeDumpWord(a.Value)
		case a.Value != nil:
			return "--" + a.Name + " " + pipeDumpWord(a.Value)
		}
		return "--" + a.Name
	}
	return fmt.Sprintf("<%T>", a)
}

// pipeSpans lists the source text of every node under the pipeline in
// preorder; a flag adds its name as name:….
func pipeSpans(f *source.File, p *ast.Pipeline) []string {
	var out []string
	for n := range ast.Preorder(p) {
		if n == ast.Node(p) {
			continue
		}
		out = append(out, f.TextOf(ast.SpanOf(n)))
		if fl, ok := n.(*ast.Flag); ok {
			out = append(out, "name:"+f.TextOf(fl.NameSpan))
		}
	}
	return out
}

// pipeCheck checks the invariants of a parsed pipeline over a verbatim
// scalar of src: well-formed nested ranges, and words written without quotes
// or backslashes spelled by their text.
func pipeCheck(t *testing.T, f *source.File, p *ast.Pipeline, src string) {
	t.Helper()
	if (p.Err == nil) == (p.Stages == nil) {
		t.Fatalf("want exactly one of Stages and Err; got %d stages and %v", len(p.Stages), p.Err)
	}
	if p.Refs != nil {
		t.Errorf("Refs is set; the caller fills it")
	}
	if p.Err != nil {
		embedCheckRange(t, p.Err, p.Err.Span, len(src))
		if !p.Scalar.Span.Covers(p.Err.Span) {
			t.Errorf("error range %v outside the scalar", p.Err.Span)
		}
		return
	}
	embedCheckTree(t, p, len(src))
	for n := range ast.Preorder(p) {
		switch n := n.(type) {
		case *ast.Stage:
			pipeCheckStage(t, f, n)
		case *ast.Flag:
			pipeCheckFlag(t, f, n)
		}
	}
}

// pipeCheckStage checks that a stage's text is trimmed, starts with its name
// and that a plain word is spelled by its text.
func pipeCheckStage(t *testing.T, f *source.File, st *ast.Stage) {
	t.Helper()
	text := f.TextOf(ast.SpanOf(st))
	if lo, hi := condTrimBounds(text, 0, len(text)); text == "" || lo != 0 || hi != len(text) {
		t.Errorf("stage %q is empty or not trimmed", text)
	}
	if st.Name == nil || st.Name.Pos() != st.Pos() {
		t.Fatalf("stage %q does not start with its name", text)
	}
	words := append([]ast.Arg{st.Name}, st.Args...)
	for _, a := range words {
		if w, ok := a.(*ast.Word); ok {
			pipeCheckPlainWord(t, f, w)
		}
	}
}

// pipeCheckPlainWord checks that a word written without quotes or
// backslashes is spelled by its text, and that any word has a source text.
func pipeCheckPlainWord(t *testing.T, f *source.File, w *ast.Word) {
	t.Helper()
	got := f.TextOf(ast.SpanOf(w))
	if got == "" {
		t.Errorf("word %q has an empty range", w.Text)
	}
	if !strings.ContainsAny(got, `'"\`) && got != w.Text {
		t.Errorf("word spelled %q, want %q", got, w.Text)
	}
}

// pipeCheckFlag checks a flag's name and value ranges.
func pipeCheckFlag(t *testing.T, f *source.File, fl *ast.Flag) {
	t.Helper()
	if !ast.SpanOf(fl).Covers(fl.NameSpan) {
		t.Errorf("flag --%s: name range %v outside the flag %v", fl.Name, fl.NameSpan, ast.SpanOf(fl))
	}
	if fl.Value != nil && fl.Value.End() != fl.End() {
		t.Errorf("flag --%s does not end with its value", fl.Name)
	}
	word := f.TextOf(ast.SpanOf(fl))
	if strings.ContainsAny(word, `'"\`) {
		return
	}
	if got := f.TextOf(fl.NameSpan); got != fl.Name {
		t.Errorf("flag name spelled %q, want %q", got, fl.Name)
	}
	if fl.Eq && f.TextOf(ast.SpanOf(fl.Value)) != fl.Value.Text {
		t.Errorf("flag value spelled %q, want %q", f.TextOf(ast.SpanOf(fl.Value)), fl.Value.Text)
	}
}

// TestParsePipeline parses valid pipelines and checks
// the stages and range invariants.
func TestParsePipeline(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		// Worked examples of the reference's tokenizer, with the empty
		// quotes of 2026.9.13.
		{"stages", "exec echo hi | where a=1 | pick id,subject",
			`["exec" "echo" "hi"] ["where" "a=1"] ["pick" "id,subject"]`},
		{"quoted bar", `exec echo 'a|b' | json`, `["exec" "echo" "a|b"] ["json"]`},
		{"double escape quote", `a "x\"y"`, `["a" "x\"y"]`},
		{"single escape quote", `a 'it\'s'`, `["a" "it's"]`},
		{"double escapes", "a \"\\n \\\\ \\$ \\`\"", "[\"a\" \"\\\\n \\\\ $ `\"]"},
		{"concatenation", `a x"y z"w`, `["a" "xy zw"]`},
		{"flags", "a --x=1 --y 2 --z --w --v=", `["a" --x="1" --y "2" --z --w --v=""]`},
		{"short options", "a -x 1", `["a" "-x" "1"]`},
		{"double dash", "a -- b", `["a" -- "b"]`},
		{"repeated flag", "a --x 1 --x 2", `["a" --x "1" --x "2"]`},
		{"flag empty quotes", "a --x ''", `["a" --x ""]`},
		{"trailing bar", "a |", `["a"]`},
		{"lone empty quotes", "''", `[""]`},
		{"backslash bar", `a a\|b`, `["a" "a\\"] ["b"]`},
		{"separators", "a\tb\nc\rd  e", `["a" "b" "c" "d" "e"]`},
		// Empty quotes are empty arguments (2026.9.13).
		{"empty single", "a ''", `["a" ""]`},
		{"empty double", `a ""`, `["a" ""]`},
		{"printf", `printf '<%s>' a '' b`, `["printf" "<%s>" "a" "" "b"]`},
		{"empty eq", "a --x=''", `["a" --x=""]`},
		{"empty glued", "a b'' ''c", `["a" "b" "c"]`},
		{"empty name", `"" x`, `["" "x"]`},
		// Flags.
		{"eq with eq", "a --x=a=b", `["a" --x="a=b"]`},
		{"quoted flag", "a '--x' y", `["a" --x "y"]`},
		{"flag then flag", "a --x --y", `["a" --x --y]`},
		{"flag then short", "a --x -y", `["a" --x "-y"]`},
		{"quoted eq flag", `a "--k=v w"`, `["a" --k="v w"]`},
		{"quoted eq value", `a --k="v w" z`, `["a" --k="v w" "z"]`},
		{"empty key eq", "a --=v", `["a" --="v"]`},
		{"flag value with dashes later", "a --x y--", `["a" --x "y--"]`},
		{"quoted flag value", `exec --json "echo [1,2,3]"`, `["exec" --json "echo [1,2,3]"]`},
		{"flag as name", "--x y", `["--x" "y"]`},
		// Quoting.
		{"single backslash literal", `a '\n' 'a\b'`, `["a" "\\n" "a\\b"]`},
		{"double other backslash", `a "\a\'"`, `["a" "\\a\\'"]`},
		{"line continuation", "a \"b\\\nc\"", `["a" "bc"]`},
		{"newline in quotes", "a 'b\nc'", `["a" "b\nc"]`},
		{"unquoted backslash", `a \' x`, `error:Unclosed quote`},
		{"quotes in quotes", `a "it's" 'say "hi"'`, `["a" "it's" "say \"hi\""]`},
		{"template", `template --text '{{ name | upper }}' | json`, `["template" --text "{{ name | upper }}"] ["json"]`},
		{"unicode", `a é "ü ö"`, `["a" "é" "ü ö"]`},
		// Whitespace and trimming.
		{"surrounding space", "  a  |  b  ", `["a"] ["b"]`},
		{"nbsp trimmed", "\u00a0a\u00a0| b", `["a"] ["b"]`},
		{"nbsp inside", "a\u00a0b", `["a\u00a0b"]`},
		{"two trailing", "a | b |", `["a"] ["b"]`},
		{"trailing bar spaces", "a |  \t", `["a"]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, s := condTestScalar(tt.src)
			p := parsePipeline(f, s)
			if got := pipeDump(p); got != tt.want {
				t.Errorf("%q\ngot  %s\nwant %s", tt.src, got, tt.want)
			}
			if p.Scalar != s || p.Span != s.Span {
				t.Errorf("pipeline does not carry its scalar and range")
			}
			pipeCheck(t, f, p, tt.src)
		})
	}
}

// TestParsePipelineSpans pins the source text of every node, in preorder.
func TestParsePipelineSpans(t *testing.T) {
	tests := []struct {
		src   string
		spans []string
	}{
		{"exec echo 'a|b' | json", []string{"exec echo 'a|b'", "exec", "echo", "'a|b'", "json", "json"}},
		{`  a x"y z"w  `, []string{`a x"y z"w`, "a", `x"y z"w`}},
		{"a --x=1 --y 2 --z --w --v=", []string{
			"a --x=1 --y 2 --z --w --v=", "a",
			"--x=1", "name:x", "1",
			"--y 2", "name:y", "2",
			"--z", "name:z",
			"--w", "name:w",
			"--v=", "name:v", ""}},
		{"a -- b", []string{"a -- b", "a", "-- b", "name:", "b"}},
		{"a --x ''", []string{"a --x ''", "a", "--x ''", "name:x", "''"}},
		{"a '' b", []string{"a '' b", "a", "''", "b"}},
		{"''", []string{"''", "''"}},
		{`a '--x' y`, []string{`a '--x' y`, "a", `'--x' y`, "name:x", "y"}},
		{`a --k="v w"`, []string{`a --k="v w"`, "a", `--k="v w"`, "name:k", `"v w"`}},
		{`a "--k=v w"`, []string{`a "--k=v w"`, "a", `"--k=v w"`, "name:k", `v w"`}},
		{`a --"a\"b"=c`, []string{`a --"a\"b"=c`, "a", `--"a\"b"=c`, `name:a\"b`, "c"}},
		{`a "--\$x"`, []string{`a "--\$x"`, "a", `"--\$x"`, `name:\$x`}},
		{"a --=v", []string{"a --=v", "a", "--=v", "name:", "v"}},
		{"a\tb |\n c", []string{"a\tb", "a", "b", "c", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			f, s := condTestScalar(tt.src)
			p := parsePipeline(f, s)
			if p.Err != nil {
				t.Fatalf("error %q", p.Err.Msg)
			}
			got := pipeSpans(f, p)
			if strings.Join(got, "¦") != strings.Join(tt.spans, "¦") {
				t.Errorf("spans\ngot  %q\nwant %q", got, tt.spans)
			}
		})
	}
}

// TestParsePipelineErrors checks the message and exact range of every
// pipeline error.
func TestParsePipelineErrors(t *testing.T) {
	tests := []struct {
		marked string // the input, with «» around the expected error range
		msg    string
	}{
		{"«|» a", "Empty command stage"},
		{"a |«|» b", "Empty command stage"},
		{"a |  «|» b", "Empty command stage"},
		{"a | «|»", "Empty command stage"},
		{"«|»", "Empty command stage"},
		{"«|»|", "Empty command stage"},
		{"  «|» a | | b", "Empty command stage"},
		{"a «'b»", "Unclosed quote"},
		{"a «'b | c»", "Unclosed quote"},
		{`a «"b\"»`, "Unclosed quote"},
		{`a «"b\»`, "Unclosed quote"},
		{"a | b «\"c»", "Unclosed quote"},
		{`a «'a\\'» | b`, "Unclosed quote"},
		{`a «'x\\'»`, "Unclosed quote"},
		{`a 'a\\' | «'b»`, "Unclosed quote"},
		{`a \«' x»`, "Unclosed quote"},
		{"| a «'b»", "Unclosed quote"},
		// An empty stage before a stage with an unclosed quote in phase 2.
		{`«|» a 'a\\'`, "Empty command stage"},
	}
	for _, tt := range tests {
		t.Run(tt.marked, func(t *testing.T) {
			src, i, j := embedMarked(t, tt.marked)
			f, s := condTestScalar(src)
			p := parsePipeline(f, s)
			pipeCheck(t, f, p, src)
			if p.Err == nil {
				t.Fatalf("no error; parsed %s", pipeDump(p))
			}
			if p.Err.Msg != tt.msg {
				t.Errorf("message %q, want %q", p.Err.Msg, tt.msg)
			}
			if r := p.Err.Span; r.Start != i || r.End != j {
				t.Errorf("error at [%d,%d) %q, want [%d,%d) %q", r.Start, r.End, f.TextOf(r), i, j, src[i:j])
			}
		})
	}
}

// TestParsePipelineEmpty checks blank pipelines and a nil scalar.
func TestParsePipelineEmpty(t *testing.T) {
	for _, src := range []string{"", "   ", "\t\n\r ", "\u00a0"} {
		f, s := condTestScalar(src)
		p := parsePipeline(f, s)
		if p.Err == nil || p.Err.Msg != "Empty pipeline" || p.Err.Span != s.Span || p.Stages != nil {
			t.Errorf("%q: got %s, want Empty pipeline over the scalar", src, pipeDump(p))
		}
	}
	if p := parsePipeline(nil, nil); p == nil || p.Stages != nil {
		t.Errorf("a nil scalar should give an empty pipeline")
	}
}

// TestParsePipelineMapped parses pipelines decoded from quoted YAML scalars
// and checks that ranges land on the escaped source bytes.
func TestParsePipelineMapped(t *testing.T) {
	t.Run("double-quoted", func(t *testing.T) {
		file := `pipeline: "exec echo \"a|b\" --x=\u0031 | json"`
		f, s := embedMappedScalar(t, file, 10, len(file), 11, []embedPart{
			{"exec echo ", "exec echo "}, {`\"`, `"`}, {"a|b", "a|b"}, {`\"`, `"`},
			{" --x=", " --x="}, {`\u0031`, "1"}, {" | json", " | json"},
		})
		p := parsePipeline(f, s)
		if got, want := pipeDump(p), `["exec" "echo" "a|b" --x="1"] ["json"]`; got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
		st := p.Stages[0]
		embedWantText(t, f, "stage", ast.SpanOf(st), `exec echo \"a|b\" --x=\u0031`)
		embedWantText(t, f, "word", ast.SpanOf(st.Args[1]), `\"a|b\"`)
		fl := st.Args[2].(*ast.Flag)
		embedWantText(t, f, "flag", ast.SpanOf(fl), `--x=\u0031`)
		embedWantText(t, f, "flag name", fl.NameSpan, "x")
		embedWantText(t, f, "flag value", ast.SpanOf(fl.Value), `\u0031`)
		embedWantText(t, f, "second stage", ast.SpanOf(p.Stages[1]), "json")
		embedCheckTree(t, p, len(file))
	})
	t.Run("literal block", func(t *testing.T) {
		file := "pipeline: |\n  exec echo hi\n  | json\n"
		f, s := embedMappedScalar(t, file, 10, len(file), 14, []embedPart{
			{"exec echo hi", "exec echo hi"}, {"\n  ", "\n"}, {"| json", "| json"}, {"\n", "\n"},
		})
		p := parsePipeline(f, s)
		if got, want := pipeDump(p), `["exec" "echo" "hi"] ["json"]`; got != want {
			t.Fatalf("got %s, want %s", got, want)
		}
		if pos := f.Pos(p.Stages[1].Pos()); pos.Line != 3 || pos.Col != 5 {
			t.Errorf("second stage at %v, want 3:5", pos)
		}
		embedCheckTree(t, p, len(file))
	})
	t.Run("unclosed quote", func(t *testing.T) {
		file := `pipeline: "a \"b c"`
		f, s := embedMappedScalar(t, file, 10, len(file), 11, []embedPart{
			{"a ", "a "}, {`\"`, `"`}, {"b c", "b c"},
		})
		p := parsePipeline(f, s)
		if p.Err == nil || p.Err.Msg != "Unclosed quote" {
			t.Fatalf("got %s, want Unclosed quote", pipeDump(p))
		}
		embedWantText(t, f, "error", p.Err.Span, `\"b c`)
	})
	t.Run("empty stage", func(t *testing.T) {
		file := `pipeline: "a \u007c | b"`
		f, s := embedMappedScalar(t, file, 10, len(file), 11, []embedPart{
			{"a ", "a "}, {`\u007c`, "|"}, {" | b", " | b"},
		})
		p := parsePipeline(f, s)
		if p.Err == nil || p.Err.Msg != "Empty command stage" {
			t.Fatalf("got %s, want Empty command stage", pipeDump(p))
		}
		embedWantText(t, f, "error", p.Err.Span, "|")
		if p.Err.Span.Start != len(`pipeline: "a \u007c `) {
			t.Errorf("error at %v, want the second bar", p.Err.Span)
		}
	})
}

// pipeFuzzSeeds are the seed inputs of FuzzParsePipeline.
var pipeFuzzSeeds = []string{
	"", " ", "|", "a |", "| a", "a || b", "''", `a "x\"y"`, `a 'it\'s'`, `a 'a\\' | b`,
	"exec echo hi | where a=1 | pick id,subject", "a --x=1 --y 2 --z --w --v=", "a -- b",
	`a x"y z"w`, "a \"b\\\nc\"", `a --"k"=v`, `"--" x`, "a\u00a0b", "\xff'\"", `a "\`,
}

// FuzzParsePipeline checks that any text parses without panicking into
// either an error inside the scalar or stages with well-formed ranges.
func FuzzParsePipeline(f *testing.F) {
	for _, s := range pipeFuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, s := condTestScalar(src)
		p := parsePipeline(file, s)
		pipeCheck(t, file, p, src)
	})
}
