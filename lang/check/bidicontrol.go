package check

import (
	"unicode/utf8"

	"github.com/lobsterdev/lobster/lang/source"
)

// BidiControl reports bidirectional embeddings, overrides and isolates in
// the file's text.
var BidiControl = &Analyzer{
	Name:     "bidi-control",
	Severity: source.Warning,
	Summary:  "the file holds a bidirectional control character, which makes it show other than it runs",
	Doc: "The characters U+202A to U+202E (embeddings and overrides) and U+2066 to U+2069 (isolates) " +
		"are invisible and reorder the text after them when an editor, a web page or a terminal shows " +
		"it: a command such as `echo done \u202e; rm -rf ~ #` can read as harmless while the shell runs " +
		"the characters in their stored order. Reviewers of a workflow see the shown order. Each is " +
		"reported where it stands, in commands, prompts and comments alike; lobster's own text output " +
		"shows them escaped (\"\\u202e\"). Remove them; where right-to-left text really needs one, write " +
		"it as an escape in a double-quoted string (\"\\u2067\"), which shows as what it is.",
	Bad:  "- id: clean\n  run: echo done \u202e; rm -rf ~ #",
	Good: "- id: clean\n  run: echo done",
	Run:  runBidiControl,
}

// maxBidiFindings bounds the findings of one file.
const maxBidiFindings = 20

// bidiNames names the characters BidiControl reports.
var bidiNames = map[rune]string{
	0x202a: "LEFT-TO-RIGHT EMBEDDING",
	0x202b: "RIGHT-TO-LEFT EMBEDDING",
	0x202c: "POP DIRECTIONAL FORMATTING",
	0x202d: "LEFT-TO-RIGHT OVERRIDE",
	0x202e: "RIGHT-TO-LEFT OVERRIDE",
	0x2066: "LEFT-TO-RIGHT ISOLATE",
	0x2067: "RIGHT-TO-LEFT ISOLATE",
	0x2068: "FIRST STRONG ISOLATE",
	0x2069: "POP DIRECTIONAL ISOLATE",
}

func runBidiControl(p *Pass) {
	src := p.File.Src.Content
	n := 0
	for i := 0; i < len(src); {
		// Each of these characters is encoded as E2 80 AA-AE or E2 81 A6-A9.
		if src[i] != 0xe2 {
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		if !source.IsBidiReordering(r) {
			i += size
			continue
		}
		if n++; n > maxBidiFindings {
			p.Reportf(source.Span{Start: i, End: i}, "more bidirectional control characters follow; only the first %d are reported", maxBidiFindings)
			return
		}
		p.Reportf(source.Span{Start: i, End: i + size}, "U+%04X (%s) is invisible and reorders how the text after it is shown: what a reader sees is not what runs; remove it", r, bidiNames[r])
		i += size
	}
}
