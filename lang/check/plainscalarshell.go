package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// PlainScalarShell reports run/command text written as a plain (unquoted)
// scalar over several lines, which YAML folds into one line.
var PlainScalarShell = &Analyzer{
	Name:     "plain-scalar-shell",
	Severity: source.Warning,
	Summary:  "an unquoted run spread over several lines is folded into one command line",
	Doc: `A plain (unquoted) scalar may continue on more-indented lines, but YAML joins them with a
space: "run: echo a" followed by an indented "echo b" runs "echo a echo b", one command. A
"# comment" swallows the rest, "then" or "done" become arguments, two commands become one. Use a
literal block scalar ("run: |" and the script on the lines below) for multi-line scripts.
Continuation lines that are parts of one command (after "|" or "&&", lines starting with an
option) are not reported, since joining them is what was meant.`,
	Bad:  "- id: setup\n  run: mkdir -p out\n    cp report.json out/",
	Good: "- id: setup\n  run: |\n    mkdir -p out\n    cp report.json out/",
	Fix:  "write the text as a literal block scalar (unsafe: it changes the command if the folding was meant)",
	Run:  runPlainScalarShell,
}

func runPlainScalarShell(p *Pass) {
	plShellFields(p.Info, func(si *StepInfo, f *ast.Field, sh *ast.Shell) {
		s := sh.Scalar
		if s.Style != ast.Plain || s.Kind != ast.String {
			return
		}
		why, at, k := plHarmfulFoldIn(p.File, s)
		if why == "" {
			return
		}
		// The finding is on the line that folding joins to the one before.
		end := len(s.Text)
		for _, j := range plFoldPoints(p.File, s) {
			if j > k {
				end = j
				break
			}
		}
		d := p.Finding(s.Map.Span(k+1, end), "this unquoted text runs as one command line: YAML folds its lines into \"%s\", so %s; use \"|\" and put the script on the lines below for a multi-line script",
			plShortText(s.Text), why)
		d.Related = []source.Related{p.Related(s.Map.Span(at, k), "this line is joined with the next one")}
		if e, ok := plLiteralBlockEdit(p, s); ok {
			d.Fixes = []source.Fix{{Message: "Use a literal block scalar (unsafe: it changes the command if the folding was meant)", Edits: []source.Edit{e}, Unsafe: true}}
		}
		p.Report(d)
	})
}

// plLiteralBlockEdit rewrites a plain multi-line scalar as "|" followed by
// its lines, when every continuation line has the same indentation (the
// first line moves to it).
func plLiteralBlockEdit(p *Pass, s *ast.Scalar) (source.Edit, bool) {
	src := p.File.Src
	text := src.TextOf(ast.SpanOf(s))
	lines := strings.Split(text, "\n")
	if len(lines) < 2 {
		return source.Edit{}, false
	}
	indent := ""
	for i, l := range lines[1:] {
		l = strings.TrimSuffix(l, "\r")
		if strings.TrimSpace(l) == "" {
			return source.Edit{}, false // an empty line is a line break, not a fold
		}
		ind := l[:len(l)-len(strings.TrimLeft(l, " "))]
		if i == 0 {
			indent = ind
		} else if ind != indent {
			return source.Edit{}, false
		}
	}
	if indent == "" || strings.Contains(text, "\t") {
		return source.Edit{}, false
	}
	return p.Edit(ast.SpanOf(s), "|\n"+indent+text), true
}

// plShortText shortens a text for a message.
func plShortText(s string) string {
	if len(s) <= 60 {
		return s
	}
	cut := 57
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
