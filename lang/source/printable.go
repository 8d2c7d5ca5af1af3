package source

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Printable is s made safe to show on a terminal: every control character
// but tab and line feed (C0, DEL and C1: ESC, BEL, CR, backspace, U+009B
// CSI...) is written as its Go escape ("\x1b", "\a", "\r", "\u009b"), and
// each byte that is not UTF-8 as U+FFFD, so that text from a file, a step
// or a state file cannot move the cursor, rewrite what was printed, set
// the window title or send a hyperlink or any other escape sequence.
// The bidirectional formatting characters (U+202A-U+202E, U+2066-U+2069,
// the marks U+200E, U+200F and U+061C) are escaped too ("\u202e"): they
// send no escape sequence, but a terminal that reorders text by them shows
// a command other than the one that runs.
// Every human text output that shows such text goes through it (the
// text of lobster check, plan, graph and the dry-run, run's messages and
// progress, gate prompts, state listings); JSON and SARIF are escaped by
// their own rules. s is returned as it is when it is clean.
func Printable(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf {
			if isControl(rune(c)) {
				break
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || isControl(r) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for _, r := range s[i:] {
		if isControl(r) {
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		} else {
			b.WriteRune(r) // a byte that is not UTF-8 is U+FFFD here
		}
	}
	return b.String()
}

// isControl reports whether r is a control character other than tab and
// line feed, or a bidirectional formatting character.
func isControl(r rune) bool {
	return r != '\t' && r != '\n' && (r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0) || isBidi(r)
}

// isBidi reports whether r is a bidirectional formatting character:
// embeddings, overrides, isolates and the directional marks.
func isBidi(r rune) bool {
	return IsBidiReordering(r) || r == 0x200e || r == 0x200f || r == 0x061c
}

// IsBidiReordering reports whether r is a bidirectional embedding,
// override or isolate (U+202A-U+202E, U+2066-U+2069): the characters that
// make editors and terminals show the text after them reordered, so that
// what a reader sees is not the text's order.
func IsBidiReordering(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// PrintableJSON is [Printable] for JSON text shown to people: JSON escapes
// the C0 controls (ESC is "\u001b") but leaves DEL and the C1 controls
// (U+009B is CSI to some terminals) as they are, so those are written as
// "\u007f" ... "\u009f" here, which keeps the JSON valid and its value the
// same (in JSON they can only stand inside strings); so are the
// bidirectional formatting characters; bytes that are not UTF-8 become
// U+FFFD.
func PrintableJSON(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || r >= 0x7f && r < 0xa0 || isBidi(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		if r >= 0x7f && r < 0xa0 || isBidi(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}
