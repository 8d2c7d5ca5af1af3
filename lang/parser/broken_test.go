package parser

import (
	"strings"
	"testing"
)

// TestBrokenSpans checks the spans that YAML syntax errors keep from being
// read: the error's own text and what recovery skipped after it. "«" and
// "»" in the cases mark where each span starts and ends.
func TestBrokenSpans(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"valid", "steps:\n  - id: a\n    run: echo\n"},
		{"skipped block", "steps:\n  - id: a\n    «run echo\n      more»\n  - id: b\n    run: x\n"},
		{"over-indented key", "steps:\n  - id: a\n    run: echo\n     env«: {A: 1}»\n       «x: y»\n  - id: b\n"},
		{"text after a plain document", "a\nb\nc«: d»\n«- e\n»"},
		{"text after the document", "[a]\n«b\nc: d\n»"},
		{"text after a value", "steps:\n  - id: \"a\" «b»\n    run: echo\n"},
		{"two errors", "steps:\n  - id: a\n    «run echo»\n  - id: b\n    «run echo»\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want []string
			src := tc.src
			var clean strings.Builder
			start := -1
			for i := 0; i < len(src); {
				switch {
				case strings.HasPrefix(src[i:], "«"):
					start = clean.Len()
					i += len("«")
				case strings.HasPrefix(src[i:], "»"):
					want = append(want, clean.String()[start:])
					i += len("»")
				default:
					clean.WriteByte(src[i])
					i++
				}
			}
			text := clean.String()
			f, _ := Parse("t.lobster", []byte(text))
			var got []string
			for _, sp := range f.Broken {
				got = append(got, text[sp.Start:sp.End])
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("broken spans\n got %q\nwant %q", got, want)
			}
		})
	}
}
