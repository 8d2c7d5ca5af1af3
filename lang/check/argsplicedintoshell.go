package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// ArgSplicedIntoShell reports ${arg} pasted into shell text.
var ArgSplicedIntoShell = &Analyzer{
	Name:     "arg-spliced-into-shell",
	Severity: source.Warning,
	Summary:  "an arg is pasted into shell source as raw text",
	Doc: `"${arg}" is replaced by the arg's text before the shell parses the script, whatever
quotes surround it. A value with a quote, "$(…)", backticks or a newline breaks the command or
runs as shell code: args come from callers, and are untrusted. Every arg is also exported as
LOBSTER_ARG_<N>, which the shell expands safely inside double quotes: a value such as
hello "world" $HOME ` + "`backticks`" + ` $(whoami) round-trips unchanged. The same applies to the shell
line of "exec --shell" in a pipeline. References in shell comments are not reported.

The quick fix replaces the reference with "$LOBSTER_ARG_<N>", quoted for the place it stands:
'${x}' becomes "$LOBSTER_ARG_X", text inside single quotes is closed and reopened around it, and
inside double quotes or an unquoted heredoc only the variable is written. An unquoted reference
becomes "$LOBSTER_ARG_X" in double quotes, which also stops word splitting: check that the value
was not meant to split into several words.`,
	Bad:  "args:\n  title: {default: \"\"}\nsteps:\n  - id: post\n    run: ./post.sh --title '${title}'",
	Good: "args:\n  title: {default: \"\"}\nsteps:\n  - id: post\n    run: ./post.sh --title \"$LOBSTER_ARG_TITLE\"",
	Fix:  "replace ${arg} with \"$LOBSTER_ARG_<N>\", quoted for its place",
	Run:  runArgSplicedIntoShell,
}

func runArgSplicedIntoShell(p *Pass) {
	if len(p.Info.Args) == 0 {
		return
	}
	var byVar map[string]*ast.Field
	for _, si := range p.Info.Steps {
		for _, f := range []*ast.Field{si.Step.Run, si.Step.Command} {
			sh, ok := fieldValue(f).(*ast.Shell)
			if !ok || sh.Scalar == nil || !aeHasDeclaredArgRef(p.Info, sh.Refs) {
				continue
			}
			if byVar == nil {
				byVar = aeArgByVar(p.Info)
			}
			sc := sh.Scalar
			spans := aeRefSpans(sc, sh.Refs)
			places := aeShellPositions(sc.Text, spans)
			for k, ref := range sh.Refs {
				r, ok := ref.(*ast.ArgRef)
				if !ok || p.Info.ArgBy[r.Name] == nil || places[k].Quote == aeComment {
					continue
				}
				fd := p.Info.ArgBy[r.Name]
				name := aeArgVar(r.Name)
				text := "${" + r.Name + "}"
				var d source.Diagnostic
				if name == "" {
					d = p.Finding(ast.SpanOf(r), "%q is pasted into the shell script as raw text; quotes, \"$(…)\" or backticks in the value break the command or inject into it. the arg has no LOBSTER_ARG_ variable: read it from LOBSTER_ARGS_JSON", text)
					p.Report(d)
					continue
				}
				d = p.Finding(ast.SpanOf(r), "%q is pasted into the shell script as raw text; quotes, \"$(…)\" or backticks in the value break the command or inject into it. read \"$%s\" instead", text, name)
				if byVar[ArgEnvName(r.Name)] == fd {
					if sp, repl, ok := aeArgRewrite(sc, spans[k], places[k], name); ok && aeEncodeInScalar(sc, sp, &repl) {
						d.Fixes = []source.Fix{{Message: fmt.Sprintf("Read \"$%s\" instead", name), Edits: []source.Edit{p.Edit(sp, repl)}}}
					}
				}
				p.Report(d)
			}
		}
		// The shell line of exec --shell in a pipeline.
		pl, ok := fieldValue(si.Step.Pipeline).(*ast.Pipeline)
		if !ok || !aeHasDeclaredArgRef(p.Info, pl.Refs) {
			continue
		}
		for _, st := range pl.Stages {
			w := aeExecShellWord(st)
			if w == nil {
				continue
			}
			ws := ast.SpanOf(w)
			for _, ref := range pl.Refs {
				r, ok := ref.(*ast.ArgRef)
				if !ok || p.Info.ArgBy[r.Name] == nil || !ws.Covers(ast.SpanOf(r)) {
					continue
				}
				hint := "read it from LOBSTER_ARGS_JSON"
				if name := aeArgVar(r.Name); name != "" {
					hint = fmt.Sprintf("read \"$%s\" instead", name)
				}
				p.Reportf(ast.SpanOf(r), "\"${%s}\" is pasted into the exec --shell line as raw text; quotes, \"$(…)\" or backticks in the value break the command or inject into it. %s", r.Name, hint)
			}
		}
	}
}

// aeHasDeclaredArgRef reports whether refs hold a ${name} of a declared arg.
func aeHasDeclaredArgRef(in *Info, refs []ast.Ref) bool {
	for _, r := range refs {
		if a, ok := r.(*ast.ArgRef); ok && in.ArgBy[a.Name] != nil {
			return true
		}
	}
	return false
}

// aeExecShellWord is the word of an exec stage that runs through a shell:
// the --shell value, or the first positional with a bare
// --shell or when it is the only positional and contains white space.
func aeExecShellWord(st *ast.Stage) *ast.Word {
	if st.Name == nil || st.Name.Text != "exec" {
		return nil
	}
	bare := false
	var positional []*ast.Word
	for _, a := range st.Args {
		switch a := a.(type) {
		case *ast.Flag:
			if a.Name == "shell" {
				if a.Value != nil {
					return a.Value
				}
				bare = true
			}
		case *ast.Word:
			positional = append(positional, a)
		}
	}
	if len(positional) == 0 {
		return nil
	}
	if bare || len(positional) == 1 && strings.ContainsAny(positional[0].Text, " \t\n\r\f\v") {
		return positional[0]
	}
	return nil
}

// aeArgRewrite is the edit that reads the variable name instead of the
// reference at decoded range r, quoted for its place.
func aeArgRewrite(sc *ast.Scalar, r aeSpan, at aeShPos, name string) (source.Span, string, bool) {
	text := sc.Text
	if at.Odd && !at.Arith {
		return source.Span{}, "", false
	}
	bare := "$" + name
	if r.J < len(text) && parser.IsWordByte(text[r.J]) {
		bare = "${" + name + "}"
	}
	span := sc.Map.Span(r.I, r.J)
	switch {
	case at.Arith:
		return span, bare, true
	case at.Quote == aeSingle && at.Alone:
		return sc.Map.Span(r.I-1, r.J+1), `"$` + name + `"`, true
	case at.Quote == aeSingle:
		return span, `'"$` + name + `"'`, true
	case at.Quote == aeDouble, at.Quote == aeHeredoc:
		return span, bare, true
	case at.Quote == aeUnquoted:
		return span, `"$` + name + `"`, true
	}
	return source.Span{}, "", false
}
