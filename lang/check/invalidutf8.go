package check

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/lobsterdev/lobster/lang/source"
)

// InvalidUTF8 reports bytes that are not UTF-8.
var InvalidUTF8 = &Analyzer{
	Name:     "invalid-utf8",
	Severity: source.Warning,
	Summary:  "the file has bytes that are not UTF-8",
	Doc: "A workflow file is UTF-8 text. Lobster, like the reference, decodes it as such: each sequence of " +
		"bytes that is not part of a UTF-8 character becomes U+FFFD (the replacement character, \"\uFFFD\"), " +
		"so a command, a path or a prompt with a Latin-1 \"é\" (byte 0xE9) runs with \"\uFFFD\" instead, and " +
		"editors show such text differently. A step's output is read the same way. Each run of such bytes " +
		"is reported at its first byte. Save the file as UTF-8.",
	Bad:  "- id: greet\n  run: echo caf\\xE9   # the byte 0xE9 (Latin-1)",
	Good: "- id: greet\n  run: echo café",
	Run:  runInvalidUTF8,
}

// maxUTF8Findings bounds the findings of one file (a binary file).
const maxUTF8Findings = 20

func runInvalidUTF8(p *Pass) {
	src := p.File.Src.Content
	if utf8.Valid(src) {
		return
	}
	n := 0
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r != utf8.RuneError || size != 1 {
			i += size
			continue
		}
		start := i
		for i < len(src) {
			if r, size := utf8.DecodeRune(src[i:]); r != utf8.RuneError || size != 1 {
				break
			}
			i++
		}
		if n++; n > maxUTF8Findings {
			p.Reportf(source.Span{Start: start, End: start}, "more bytes that are not UTF-8 follow; only the first %d runs are reported", maxUTF8Findings)
			return
		}
		bad := make([]string, 0, 4)
		for _, b := range src[start:min(i, start+4)] {
			bad = append(bad, fmt.Sprintf("0x%02X", b))
		}
		what := "byte " + bad[0] + " is"
		if i-start > 1 {
			more := ""
			if i-start > len(bad) {
				more = " …"
			}
			what = fmt.Sprintf("%d bytes (%s%s) are", i-start, strings.Join(bad, " "), more)
		}
		p.Reportf(source.Span{Start: start, End: i}, "%s not UTF-8: lobster, like the reference, reads U+FFFD (\"\uFFFD\") there instead; save the file as UTF-8", what)
	}
}
