package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
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
