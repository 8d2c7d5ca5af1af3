package source

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// diagAt builds a diagnostic that starts at the first occurrence of sub in
// f's text, with the given width (-1: the length of sub).
func diagAt(t *testing.T, f *File, sub string, width int) Diagnostic {
	t.Helper()
	i := strings.Index(string(f.Content), sub)
	if i < 0 {
		t.Fatalf("%q not in source", sub)
	}
	if width < 0 {
		width = len(sub)
	}
	return Diagnostic{
		File:     f.Name,
		Range:    f.Range(i, i+width),
		Severity: Error,
		Code:     "test-code",
		Message:  "something is wrong",
	}
}

func TestWriteText(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		sub   string // the range starts at the first occurrence of sub
		width int    // -1: len(sub)
		want  string
	}{
		{
			name:  "simple",
			src:   "steps:\n  - id: a\n    run: echo \"$fecth.stdout\"\n",
			sub:   "$fecth.stdout",
			width: -1,
			want: "f.lobster:3:16: error: something is wrong [test-code]\n" +
				" 3 |     run: echo \"$fecth.stdout\"\n" +
				"   |                ^~~~~~~~~~~~~\n",
		},
		{
			name:  "tabs in the prefix are kept",
			src:   "{\n\t\t\"id\": \"x\"}\n",
			sub:   "\"x\"",
			width: -1,
			want: "f.lobster:2:9: error: something is wrong [test-code]\n" +
				" 2 | \t\t\"id\": \"x\"}\n" +
				"   | \t\t      ^~~\n",
		},
		{
			name:  "multi-byte text counts one column per rune",
			src:   "name: \"héllo wörld\" # ünïcode\n",
			sub:   "wörld",
			width: -1,
			want: "f.lobster:1:15: error: something is wrong [test-code]\n" +
				" 1 | name: \"héllo wörld\" # ünïcode\n" +
				"   |              ^~~~~\n",
		},
		{
			name:  "zero-width range",
			src:   "steps: [a, b\n",
			sub:   "\n",
			width: 0,
			want: "f.lobster:1:13: error: something is wrong [test-code]\n" +
				" 1 | steps: [a, b\n" +
				"   |             ^\n",
		},
		{
			name:  "multi-line range is clipped to its first line",
			src:   "- run: |\n    echo one\n    echo two\n",
			sub:   "|",
			width: len("|\n    echo one\n    echo two"),
			want: "f.lobster:1:8: error: something is wrong [test-code]\n" +
				" 1 | - run: |\n" +
				"   |        ^\n",
		},
		{
			name:  "range starting at a line end",
			src:   "key:\nnext: 1\n",
			sub:   "\nnext",
			width: -1,
			want: "f.lobster:1:5: error: something is wrong [test-code]\n" +
				" 1 | key:\n" +
				"   |     ^\n",
		},
		{
			name:  "CRLF line endings",
			src:   "a: 1\r\nbb: 22\r\n",
			sub:   "22",
			width: -1,
			want: "f.lobster:2:5: error: something is wrong [test-code]\n" +
				" 2 | bb: 22\n" +
				"   |     ^~\n",
		},
		{
			name:  "wide gutter",
			src:   strings.Repeat("#\n", 11) + "x: y\n",
			sub:   "y",
			width: -1,
			want: "f.lobster:12:4: error: something is wrong [test-code]\n" +
				" 12 | x: y\n" +
				"    |    ^\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewFile("f.lobster", []byte(tt.src))
			d := diagAt(t, f, tt.sub, tt.width)
			var buf bytes.Buffer
			if err := WriteText(&buf, map[string]*File{f.Name: f}, []Diagnostic{d}, false); err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != tt.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tt.want)
			}
		})
	}
}

// TestWriteTextControl: control characters of the file, of its name and of
// a message never reach the terminal: they are shown escaped, and the
// carets count the escapes.
func TestWriteTextControl(t *testing.T) {
	src := "run: echo \"\x1b]0;pwned\a\x1b[2J\" $bad\rok \u009b1m # \x1b]8;;http://x\x1b\\\n"
	f := NewFile("evil\x1b[31m.lobster", []byte(src))
	d := diagAt(t, f, "$bad", -1)
	d.Message = "unknown step \"bad\x07\x1b[1A\""
	d.Related = []Related{{File: f.Name, Range: d.Range, Message: "see \r\x1b[K here"}}
	var buf bytes.Buffer
	if err := WriteText(&buf, map[string]*File{f.Name: f}, []Diagnostic{d}, false); err != nil {
		t.Fatal(err)
	}
	want := `evil\x1b[31m.lobster:1:28: error: unknown step "bad\a\x1b[1A" [test-code]` + "\n" +
		` 1 | run: echo "\x1b]0;pwned\a\x1b[2J" $bad\rok \u009b1m # \x1b]8;;http://x\x1b\` + "\n" +
		`   |                                   ^~~~` + "\n" +
		`  evil\x1b[31m.lobster:1:28: note: see \r\x1b[K here` + "\n"
	if got := buf.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// With colour, the only escapes are lobster's own SGR codes.
	buf.Reset()
	if err := WriteText(&buf, map[string]*File{f.Name: f}, []Diagnostic{d}, true); err != nil {
		t.Fatal(err)
	}
	for _, part := range strings.Split(buf.String(), "\x1b[")[1:] {
		if i := strings.IndexByte(part, 'm'); i < 0 || strings.Trim(part[:i], "0123456789;") != "" {
			t.Errorf("an escape that is not a colour: %q", "\x1b["+part)
		}
	}
	if strings.ContainsAny(buf.String(), "\a\r\u009b") || strings.Contains(buf.String(), "\x1b]") {
		t.Errorf("control characters in the output: %q", buf.String())
	}
}

// A long line is clipped around the range, so that a file of one huge line
// does not print it whole; the underline stays aligned.
func TestWriteTextLongLine(t *testing.T) {
	x := func(n int) string { return strings.Repeat("x", n) }
	tests := []struct {
		name       string
		src        string
		sub        string
		width      int
		line, mark string // the two snippet lines after the gutter
	}{
		{
			name: "range in the middle",
			src:  "run: " + x(1000) + " BAD " + x(1000) + "\n",
			sub:  "BAD", width: -1,
			line: "..." + x(39) + " BAD " + x(116) + "...",
			mark: "   " + strings.Repeat(" ", 40) + "^~~",
		},
		{
			name: "range at the start",
			src:  "BAD " + x(1000) + "\n",
			sub:  "BAD", width: -1,
			line: "BAD " + x(156) + "...",
			mark: "^~~",
		},
		{
			name: "range at the end",
			src:  x(1000) + "BAD\n",
			sub:  "BAD", width: -1,
			line: "..." + x(40) + "BAD",
			mark: "   " + strings.Repeat(" ", 40) + "^~~",
		},
		{
			name: "a range longer than the window is underlined to its edge",
			src:  x(100) + "B" + strings.Repeat("y", 1000) + "\n",
			sub:  "B", width: 1001,
			line: "..." + x(40) + "B" + strings.Repeat("y", 119) + "...",
			mark: "   " + strings.Repeat(" ", 40) + "^" + strings.Repeat("~", 119),
		},
		{
			name: "tabs before the range are kept",
			src:  x(1000) + "\t\tBAD" + x(1000) + "\n",
			sub:  "BAD", width: -1,
			line: "..." + x(38) + "\t\tBAD" + x(117) + "...",
			mark: "   " + strings.Repeat(" ", 38) + "\t\t^~~",
		},
		{
			name: "cuts fall between runes",
			src:  strings.Repeat("é", 500) + "BAD" + strings.Repeat("é", 500) + "\n",
			sub:  "BAD", width: -1,
			line: "..." + strings.Repeat("é", 20) + "BAD" + strings.Repeat("é", 58) + "...",
			mark: "   " + strings.Repeat(" ", 20) + "^~~",
		},
		{
			name: "a line of exactly the width is not clipped",
			src:  x(157) + "BAD\n",
			sub:  "BAD", width: -1,
			line: x(157) + "BAD",
			mark: strings.Repeat(" ", 157) + "^~~",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := NewFile("f.lobster", []byte(tt.src))
			d := diagAt(t, f, tt.sub, tt.width)
			var buf bytes.Buffer
			if err := WriteText(&buf, map[string]*File{f.Name: f}, []Diagnostic{d}, false); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(buf.String(), "\n")
			if len(lines) != 4 {
				t.Fatalf("got %q", buf.String())
			}
			if got, want := lines[1], " 1 | "+tt.line; got != want {
				t.Errorf("line:\n got %q\nwant %q", got, want)
			}
			if got, want := lines[2], "   | "+tt.mark; got != want {
				t.Errorf("underline:\n got %q\nwant %q", got, want)
			}
		})
	}
	// A one-line file of 16 MiB prints a few hundred bytes.
	f := NewFile("f.lobster", []byte(x(16<<20)))
	d := Diagnostic{File: f.Name, Range: f.Range(8<<20, 8<<20+5), Severity: Error, Message: "m"}
	var buf bytes.Buffer
	if err := WriteText(&buf, map[string]*File{f.Name: f}, []Diagnostic{d}, false); err != nil {
		t.Fatal(err)
	}
	if buf.Len() > 1024 {
		t.Errorf("printed %d bytes for a range of 5", buf.Len())
	}
}

func TestWriteTextWithoutSnippet(t *testing.T) {
	f := NewFile("a.lobster", []byte("steps: []\n"))
	diags := []Diagnostic{
		// No file text: no snippet.
		{File: "other.lobster", Range: f.Range(0, 5), Severity: Warning, Code: "c1", Message: "m1"},
		// No position: no line or column.
		{File: "a.lobster", Severity: Info, Code: "c2", Message: "m2"},
		// Past the end of the file: no snippet.
		{File: "a.lobster", Range: Range{Start: Pos{Line: 9, Col: 1, Offset: 99}}, Severity: Hint, Code: "c3", Message: "m3"},
		// No code.
		{File: "other.lobster", Range: f.Range(0, 5), Severity: Error, Message: "m4"},
	}
	var buf bytes.Buffer
	if err := WriteText(&buf, map[string]*File{"a.lobster": f}, diags, false); err != nil {
		t.Fatal(err)
	}
	want := "other.lobster:1:1: warning: m1 [c1]\n" +
		"a.lobster: info: m2 [c2]\n" +
		"a.lobster:9:1: hint: m3 [c3]\n" +
		"other.lobster:1:1: error: m4\n"
	if got := buf.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestWriteTextRelated(t *testing.T) {
	f := NewFile("a.lobster", []byte("steps:\n  - id: x\n  - id: x\n"))
	second := strings.LastIndex(string(f.Content), "x")
	first := strings.Index(string(f.Content), "x")
	d := Diagnostic{
		File: "a.lobster", Range: f.Range(second, second+1), Severity: Error,
		Code: "duplicate-id", Message: `duplicate step id "x"`,
		Related: []Related{{File: "a.lobster", Range: f.Range(first, first+1), Message: "previously defined here"}},
	}
	var buf bytes.Buffer
	if err := WriteText(&buf, map[string]*File{"a.lobster": f}, []Diagnostic{d}, false); err != nil {
		t.Fatal(err)
	}
	want := "a.lobster:3:9: error: duplicate step id \"x\" [duplicate-id]\n" +
		" 3 |   - id: x\n" +
		"   |         ^\n" +
		"  a.lobster:2:9: note: previously defined here\n"
	if got := buf.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestWriteTextColor(t *testing.T) {
	f := NewFile("a.lobster", []byte("x: y\n"))
	d := Diagnostic{File: "a.lobster", Range: f.Range(3, 4), Severity: Warning, Code: "c", Message: "m",
		Related: []Related{{File: "a.lobster", Range: f.Range(0, 1), Message: "here"}}}
	files := map[string]*File{"a.lobster": f}

	var plain, colored bytes.Buffer
	if err := WriteText(&plain, files, []Diagnostic{d}, false); err != nil {
		t.Fatal(err)
	}
	if err := WriteText(&colored, files, []Diagnostic{d}, true); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "\x1b") {
		t.Errorf("escape codes without colour:\n%q", plain.String())
	}
	if !strings.Contains(colored.String(), ansiYellow+"warning"+ansiReset) {
		t.Errorf("severity not coloured:\n%q", colored.String())
	}
	// Removing the escapes gives the plain text back.
	stripped := colored.String()
	for _, code := range []string{ansiReset, ansiBold, ansiRed, ansiYellow, ansiBlue, ansiCyan, ansiDim} {
		stripped = strings.ReplaceAll(stripped, code, "")
	}
	if stripped != plain.String() {
		t.Errorf("coloured text differs from plain text:\n%s\nvs\n%s", stripped, plain.String())
	}
}

func TestWriteJSONEmpty(t *testing.T) {
	for _, diags := range [][]Diagnostic{nil, {}} {
		var buf bytes.Buffer
		if err := WriteJSON(&buf, diags); err != nil {
			t.Fatal(err)
		}
		if got := buf.String(); got != "[]\n" {
			t.Errorf("WriteJSON(%#v) = %q, want %q", diags, got, "[]\n")
		}
	}
}

func TestWriteJSON(t *testing.T) {
	f := NewFile("a.lobster", []byte("steps:\n  - id: a&b\n"))
	d := Diagnostic{
		File:     "a.lobster",
		Range:    f.Range(15, 18),
		Severity: Warning,
		Code:     "id-not-referenceable",
		Message:  `id "a&b" can never be referenced; use "$each.json.<N>"`,
		Related:  []Related{{File: "a.lobster", Range: f.Range(0, 5), Message: "a -> b"}},
		Fixes:    []Fix{{Message: "Rename", Edits: []Edit{{Range: f.Range(15, 18), NewText: "a_b"}}}, {Message: "Nothing"}},
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, []Diagnostic{d}); err != nil {
		t.Fatal(err)
	}
	want := `[
  {
    "file": "a.lobster",
    "range": {
      "start": {
        "offset": 15,
        "line": 2,
        "col": 9
      },
      "end": {
        "offset": 18,
        "line": 2,
        "col": 12
      }
    },
    "severity": "warning",
    "code": "id-not-referenceable",
    "message": "id \"a&b\" can never be referenced; use \"$each.json.<N>\"",
    "related": [
      {
        "file": "a.lobster",
        "range": {
          "start": {
            "offset": 0,
            "line": 1,
            "col": 1
          },
          "end": {
            "offset": 5,
            "line": 1,
            "col": 6
          }
        },
        "message": "a -> b"
      }
    ],
    "fixes": [
      {
        "message": "Rename",
        "edits": [
          {
            "range": {
              "start": {
                "offset": 15,
                "line": 2,
                "col": 9
              },
              "end": {
                "offset": 18,
                "line": 2,
                "col": 12
              }
            },
            "newText": "a_b"
          }
        ]
      },
      {
        "message": "Nothing",
        "edits": []
      }
    ]
  }
]
`
	if got := buf.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestWriteJSONMatchesDiagnostic checks that WriteJSON writes the same
// document as the JSON form of Diagnostic itself (the contract), apart from
// HTML escaping.
func TestWriteJSONMatchesDiagnostic(t *testing.T) {
	f := NewFile("a.lobster", []byte("x: <y>\n"))
	diags := []Diagnostic{
		{File: "a.lobster", Range: f.Range(3, 6), Severity: Hint, Code: "c", Message: "<&>"},
		{File: "b.lobster", Severity: Error, Code: "d", Message: "m",
			Related: []Related{{File: "a.lobster", Message: "r"}},
			Fixes:   []Fix{{Message: "f", Edits: []Edit{{NewText: "&"}}}}},
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, diags); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte(`\u003c`)) || bytes.Contains(buf.Bytes(), []byte(`\u0026`)) {
		t.Errorf("output is HTML-escaped:\n%s", buf.String())
	}
	ref, err := json.Marshal(diags)
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(ref, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("WriteJSON and json.Marshal disagree:\n%s\nvs\n%s", buf.String(), ref)
	}
	// And it reads back into the same diagnostics.
	var back []Diagnostic
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back[0].Message != "<&>" || back[1].Fixes[0].Edits[0].NewText != "&" {
		t.Errorf("round trip lost text: %+v", back)
	}
}
