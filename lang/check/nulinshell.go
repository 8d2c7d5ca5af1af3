package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// NulInShell reports NUL characters in run and command text.
var NulInShell = &Analyzer{
	Name:     "nul-in-shell",
	Severity: source.Error,
	Summary:  "the shell text holds a NUL character, which no command line can carry",
	Doc: "The shell text of `run` or `command` is passed to the shell as an argument (`/bin/sh -lc TEXT`), " +
		"and an argument ends at its first NUL character (U+0000): the operating system cannot carry one. " +
		"The step fails when it starts: the reference says \"The argument 'args[1]' must be a string " +
		"without null bytes\", lobster would say \"invalid argument\". A NUL comes from a raw NUL byte in the " +
		"file or from an escape of a double-quoted YAML string (`\"\\0\"`, `\"\\x00\"`, `\"\\u0000\"`). To " +
		"print one, let the shell make it: `printf 'a\\0b'`.",
	Bad:  "- id: split\n  run: \"printf 'a\\0b'\"",
	Good: "- id: split\n  run: printf 'a\\0b'",
	Run:  runNulInShell,
}

// maxNulFindings bounds the findings of one text (a file of NUL bytes).
const maxNulFindings = 10

func runNulInShell(p *Pass) {
	for _, s := range p.Info.Steps {
		for _, f := range []*ast.Field{s.Step.Run, s.Step.Command} {
			if f == nil {
				continue
			}
			sc := ast.StringOf(ast.Resolve(f.Value))
			if sc == nil {
				continue
			}
			text := sc.Text
			for i, n := 0, 0; n < maxNulFindings; n++ {
				j := strings.IndexByte(text[i:], 0)
				if j < 0 {
					break
				}
				i += j
				p.Reportf(sc.Map.Span(i, i+1), "%q holds a NUL character (U+0000) at this position: a command line cannot carry one, so the step fails when it starts; to produce one, let the shell do it (printf '\\0')", f.Key.Text)
				i++
			}
		}
	}
}
