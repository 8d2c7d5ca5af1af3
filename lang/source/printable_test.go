package source_test

import (
	"strings"
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

// TestPrintableWriter: text written in pieces, cut anywhere, even inside a
// character, comes out as Printable (or PrintableJSON) of the whole.
func TestPrintableWriter(t *testing.T) {
	texts := []string{
		"plain ascii\n",
		"a\x1b[2Jb \u202eé\u009b漢😀\x7f\tz",
		"[\"c1 \u009b2J del \x7f\", \"\u2067x\u2069\"]",
		"cut \xe2\x80", // a character cut at the end of the text
		"bad \xff\xfe mid \xe2\x28\xa1 end",
	}
	for _, json := range []bool{false, true} {
		whole := source.Printable
		if json {
			whole = source.PrintableJSON
		}
		for _, text := range texts {
			for cut1 := 0; cut1 <= len(text); cut1++ {
				for cut2 := cut1; cut2 <= len(text); cut2++ {
					var b strings.Builder
					w := source.NewPrintableWriter(&b, json)
					for _, piece := range []string{text[:cut1], text[cut1:cut2], text[cut2:]} {
						if n, err := w.Write([]byte(piece)); n != len(piece) || err != nil {
							t.Fatalf("Write(%q) = %d, %v", piece, n, err)
						}
					}
					if err := w.Close(); err != nil {
						t.Fatal(err)
					}
					if want := whole(text); b.String() != want {
						t.Fatalf("json %v, %q cut at %d and %d: got %q, want %q", json, text, cut1, cut2, b.String(), want)
					}
				}
			}
		}
	}
}
