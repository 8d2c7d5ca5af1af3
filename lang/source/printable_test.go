package source_test

import (
	"testing"

	"github.com/lobsterdev/lobster/lang/source"
)

func TestPrintable(t *testing.T) {
	for in, want := range map[string]string{
		"plain text, tabs\tand\nline feeds": "plain text, tabs\tand\nline feeds",
		"café 漢字 ✓":                         "café 漢字 ✓",
		"a\x1b[2Jb":                         `a\x1b[2Jb`,                 // erase the screen
		"\x1b]0;title\a":                    `\x1b]0;title\a`,            // OSC: window title, BEL
		"\x1b]8;;http://x\x1b\\link":        `\x1b]8;;http://x\x1b\link`, // OSC 8 hyperlink, ST
		"ok\rFAKE":                          `ok\rFAKE`,                  // carriage return over a line
		"back\bspace\x7f":                   `back\bspace\x7f`,
		"c1 \u009b2J \u0085":                `c1 \u009b2J \u0085`,  // C1 CSI and NEL
		"raw \x9b2J \xff":                   "raw \uFFFD2J \uFFFD", // bytes that are not UTF-8
		"\x00nul":                           `\x00nul`,
		"rm -rf /tmp/x \u202e# safe":        `rm -rf /tmp/x \u202e# safe`, // right-to-left override
		"\u2066a\u2069 \u200f \u061c":       `\u2066a\u2069 \u200f \u061c`,
		"":                                  "",
	} {
		if got := source.Printable(in); got != want {
			t.Errorf("Printable(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPrintableJSON(t *testing.T) {
	for in, want := range map[string]string{
		`["a\u001b[2J", "tab\t"]`:    `["a\u001b[2J", "tab\t"]`,
		"[\"c1 \u009b2J del \x7f\"]": `["c1 \u009b2J del \u007f"]`,
		"[\"raw \x9b\", \"é\"]":      "[\"raw \uFFFD\", \"é\"]",
		"[\"a\u202eb\"]":             `["a\u202eb"]`,
	} {
		if got := source.PrintableJSON(in); got != want {
			t.Errorf("PrintableJSON(%q) = %q, want %q", in, got, want)
		}
	}
}
