package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// ShellSyntax reports run and command text that is not valid POSIX shell.
var ShellSyntax = &Analyzer{
	Name:     "shell-syntax",
	Severity: source.Error,
	Summary:  "run or command text is not valid shell: the step fails with a syntax error",
	Doc: `Shell steps run with /bin/sh -lc. Text that the shell cannot parse (an unterminated
quote, a "for" without "done", an "if" without "fi", a stray ")") fails before any of it runs:
dash reports "Syntax error: Unterminated quoted string" and the step fails. The checker parses
every run and command text as POSIX shell (with mvdan.cc/sh, the references replaced by
placeholders of their length), so the error is reported at its place in the YAML string without
shellcheck.

Not reported here: bash syntax under /bin/sh (` + "`bashism-in-sh`" + `), text for another shell
(LOBSTER_SHELL set in the workflow's or a step's env), "${{ … }}" and "{{ … }}" templates
(` + "`mustache-syntax`" + `, ` + "`foreign-dialect`" + `), "${name.field}" (` + "`braced-ref`" + `) and bytes that are not
UTF-8 (` + "`invalid-utf8`" + `: /bin/sh takes them as part of a word), which have rules of their own.`,
	Bad:  "- id: greet\n  run: echo \"hello",
	Good: "- id: greet\n  run: echo \"hello\"",
	Run:  runShellSyntax,
}

func runShellSyntax(p *Pass) {
	plShellFields(p.Info, func(si *StepInfo, f *ast.Field, sh *ast.Shell) {
		if shSyntaxError(p.Info, si, sh) {
			p.Reportf(sh.Err.Span, "the shell cannot parse this text: %s; /bin/sh fails with a syntax error before the step runs any of it", sh.Err.Msg)
		}
	})
}

// shSyntaxError reports whether shell-syntax reports the text: it does not
// parse as POSIX shell, runs under /bin/sh, and the error is not one that
// another rule explains.
func shSyntaxError(in *Info, si *StepInfo, sh *ast.Shell) bool {
	if sh == nil || sh.Err == nil || sh.Scalar == nil {
		return false
	}
	if _, ok := plBashFeature(sh.Err.Msg); ok {
		return false // bashism-in-sh
	}
	if w := in.File.Workflow; w == nil || plLobsterShellSet(w.Env) {
		return false
	}
	for s := si; s != nil; s = s.Parent {
		if plLobsterShellSet(s.Step.Env) {
			return false
		}
	}
	if sc := sh.Scalar; sc.Style == ast.Plain || sc.Style == ast.FoldedBlock {
		if why, _, _ := plHarmfulFoldIn(in.File, sc); why != "" {
			return false // folding broke it: plain-scalar-shell, folded-scalar-shell
		}
	}
	return !shHasTemplateSyntax(sh.Scalar.Text)
}

// shHasTemplateSyntax reports whether shell text holds "{{" or "${name.",
// which other rules explain (and which makes the parser stop there).
func shHasTemplateSyntax(text string) bool {
	if strings.Contains(text, "{{") {
		return true
	}
	for i := strings.Index(text, "${"); i >= 0; {
		j := i + 2
		for j < len(text) && (parser.IsWordByte(text[j]) || text[j] == '-') {
			j++
		}
		if j < len(text) && text[j] == '.' {
			return true
		}
		k := strings.Index(text[j:], "${")
		if k < 0 {
			break
		}
		i = j + k
	}
	return false
}
