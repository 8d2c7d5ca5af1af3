package parser

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// Hostile input is rejected quickly with a diagnostic, never a hang or a crash.
func TestHostileInput(t *testing.T) {
	cases := map[string][]byte{
		"10 MB line":     append([]byte("steps:\n  - id: a\n    run: "), bytes.Repeat([]byte("x"), 10<<20)...),
		"9 MB file":      bytes.Repeat([]byte("# comment line that is long enough\n"), (9<<20)/35),
		"deep flow":      []byte("steps: " + strings.Repeat("[", 100000)),
		"deep block":     []byte(deepBlock(5000)),
		"alias bomb":     []byte(aliasBomb(9)),
		"unclosed quote": []byte("steps:\n  - id: a\n    run: \"" + strings.Repeat("x ", 100000)),
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			var diags []source.Diagnostic
			noBlowUp(t, len(src), func() { _, diags = Parse("hostile.lobster", src) })
			if len(diags) == 0 {
				t.Fatal("no diagnostic")
			}
		})
	}
}

// noBlowUp fails when parse takes more than 25 times as long as parsing a
// plain workflow of size bytes, timed in the same run so that a loaded
// machine slows both alike. The point is "no blow-up" (a quadratic parse
// of these inputs is hundreds of times slower), not a speed target.
func noBlowUp(t *testing.T, size int, parse func()) {
	t.Helper()
	step := []byte("  - id: step\n    run: echo \"$prev.stdout\" | tr a-z A-Z\n")
	plain := append([]byte("steps:\n"), bytes.Repeat(step, size/len(step)+1)...)
	start := time.Now()
	Parse("plain.lobster", plain)
	base := time.Since(start)
	start = time.Now()
	parse()
	if took := time.Since(start); took > 25*base+50*time.Millisecond {
		t.Errorf("took %v, %.0f times a plain file of the same size (%v)", took, float64(took)/float64(base), base)
	}
}

func deepBlock(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i))
		b.WriteString("k:\n")
	}
	return b.String()
}

func aliasBomb(levels int) string {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= levels; i++ {
		p := "*a" + string(rune('0'+i-1))
		b.WriteString("a" + string(rune('0'+i)) + ": &a" + string(rune('0'+i)) + " [" + strings.Repeat(p+", ", 9) + p + "]\n")
	}
	b.WriteString("steps:\n  - id: a\n    run: echo\n    env: *a" + string(rune('0'+levels)) + "\n")
	return b.String()
}

// A large minified JSON file (one line) parses in linear time.
func TestLongSingleLine(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"steps":[`)
	for i := range 20000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"id":"s` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `","run":"echo $a.json"}`)
	}
	b.WriteString("]}")
	var f *ast.File
	noBlowUp(t, b.Len(), func() { f, _ = Parse("min.json", []byte(b.String())) })
	if f.Workflow == nil {
		t.Fatal("no workflow")
	}
}
