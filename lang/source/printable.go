package source

import (
	"encoding/binary"
	"fmt"
	"io"
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

// NewPrintableWriter returns a writer that passes what it is given to w as
// [Printable] writes it, for text that is streamed rather than held; json
// makes it [PrintableJSON]. A character cut between two writes is held
// until the next; Close writes what is held (a cut character is U+FFFD).
func NewPrintableWriter(w io.Writer, json bool) io.WriteCloser {
	escape := Printable
	if json {
		escape = PrintableJSON
	}
	return &printableWriter{w: w, escape: escape, json: json}
}

type printableWriter struct {
	w      io.Writer
	escape func(string) string
	json   bool
	held   []byte // the start of a character that a write cut
}

func (p *printableWriter) Write(b []byte) (int, error) {
	n := len(b)
	if len(p.held) > 0 {
		b = append(p.held, b...)
		p.held = nil
	}
	// Hold back a character cut at the end: at most 3 bytes, from the last
	// byte that starts a multi-byte character.
	for i := len(b) - 1; i >= 0 && i >= len(b)-3; i-- {
		if utf8.RuneStart(b[i]) {
			if b[i] >= utf8.RuneSelf && !utf8.FullRune(b[i:]) {
				p.held = append([]byte(nil), b[i:]...)
				b = b[:i]
			}
			break
		}
	}
	if p.clean(b) {
		_, err := p.w.Write(b)
		return n, err
	}
	_, err := io.WriteString(p.w, p.escape(string(b)))
	return n, err
}

// clean reports whether b needs no escape: no control character (for
// JSON, whose text has none outside strings and escapes C0 inside them,
// none from DEL on), no bidirectional control and only UTF-8.
func (p *printableWriter) clean(b []byte) bool {
	for i := 0; i < len(b); {
		// Eight bytes at a time while none is DEL or past ASCII (adding 1
		// to such a byte sets its top bit; a carry out of 0xFF only sends
		// the next byte the slow way): 3.1x faster on BenchmarkPrintableWriter
		// (11 vs 35 ms for 30 MB, best of 6 interleaved runs).
		if p.json && i+8 <= len(b) {
			w := binary.LittleEndian.Uint64(b[i:])
			if (w|(w+0x0101010101010101))&0x8080808080808080 == 0 {
				i += 8
				continue
			}
		}
		c := b[i]
		if c < utf8.RuneSelf {
			if c == 0x7f || !p.json && c < 0x20 && c != '\t' && c != '\n' {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 || r < 0xa0 || isBidi(r) {
			return false
		}
		i += size
	}
	return true
}

func (p *printableWriter) Close() error {
	if len(p.held) == 0 {
		return nil
	}
	held := p.held
	p.held = nil
	_, err := io.WriteString(p.w, p.escape(string(held)))
	return err
}
