package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// UndeclaredArg reports ${name} where name is not a declared arg.
var UndeclaredArg = &Analyzer{
	Name:     "undeclared-arg",
	Severity: source.Warning,
	Summary:  "a ${name} reference names no declared arg",
	Doc: `"${name}" is replaced only when name is a key of the resolved args: the declared defaults
plus the args the caller passes. Otherwise the text stays as written: in run/command
the shell then expands an environment variable of that name, usually to nothing; in env values,
stdin, workflow_args and cwd it stays literal text. Since a caller may pass args that were never
declared, this is a warning, not an error; declaring the arg documents it and gives it
a default.

An ALL_CAPS name in shell text ("${HOME}") is most likely an environment variable and is reported
as info; a name that an env block of the step sets, or that the script assigns itself, is not
reported. ALL_CAPS names in env values and cwd are reported by env-value-shell-var and
cwd-not-expanded. "${item}" inside a for_each loop is reported with the way loop variables are
read ("$item.json"). Names starting with LOBSTER_ are checked by nonexistent-lobster-env.`,
	Bad:  "steps:\n  - id: deploy\n    run: ./deploy.sh --env \"${target}\"",
	Good: "args:\n  target: {default: staging}\nsteps:\n  - id: deploy\n    run: ./deploy.sh --env \"$LOBSTER_ARG_TARGET\"",
	Fix:  "declare the arg with an empty default (args: {target: {default: \"\"}}); for a loop variable, use $item.stdout",
	Run:  runUndeclaredArg,
}

func runUndeclaredArg(p *Pass) {
	var envEntries map[*ast.Field]bool
	var shellPos aeShellPosCache
	fixed := map[string]bool{}
	for i := range p.Info.Refs {
		rs := &p.Info.Refs[i]
		r, ok := rs.Ref.(*ast.ArgRef)
		if !ok || rs.Context == InCondition {
			continue
		}
		if _, ok := p.Info.ArgBy[r.Name]; ok || strings.HasPrefix(r.Name, "LOBSTER_") {
			continue
		}
		if rs.Context == InShell {
			// In '…', a quoted heredoc or a comment the shell does not
			// expand it: "${x}" there is most often a program's own
			// syntax (a JavaScript template literal).
			switch shellPos.at(rs.Field, r) {
			case aeSingle, aeHeredocQuoted, aeComment:
				continue
			}
		}
		text := "${" + r.Name + "}"
		span := ast.SpanOf(r)
		if loop := aeLoopOf(rs.Step, r.Name); loop != nil {
			field := "json"
			if r.Name == loop.ItemVar {
				field = "stdout"
			}
			d := p.Finding(span, "%q is not how a loop variable is read: %q is no declared arg, so the text stays as written; use \"$%s.json\" (or \"$%s.stdout\" for text)",
				text, r.Name, r.Name, r.Name)
			d.Fixes = []source.Fix{{Message: fmt.Sprintf("Use $%s.%s", r.Name, field), Edits: []source.Edit{p.Edit(span, "$"+r.Name+"."+field)}}}
			p.Report(d)
			continue
		}
		caps := aeIsAllCaps(r.Name)
		var d source.Diagnostic
		switch rs.Context {
		case InShell, InPipeline:
			if aeEnvSets(p.Info, rs.Step, r.Name) || aeAssigns(aeShellText(rs.Field), r.Name) {
				continue // a variable of the step's env or of the script
			}
			switch {
			case caps && rs.Context == InShell:
				d = p.Finding(span, "%q is not an arg; the shell will expand it as an environment variable", text)
				d.Severity = source.Info
			case caps:
				d = p.Finding(span, "%q is not an arg; it reaches the pipeline as literal text, and only a shell (exec --shell) expands it as an environment variable", text)
				d.Severity = source.Info
			case rs.Context == InShell:
				d = p.Finding(span, "%q is not a declared arg; unless the caller passes %q, the text stays literal and the shell expands an environment variable named %q (usually empty)", text, r.Name, r.Name)
			default:
				d = p.Finding(span, "%q is not a declared arg; unless the caller passes %q, the text stays literal in the pipeline", text, r.Name)
			}
		default:
			if envEntries == nil {
				envEntries = aeEnvEntries(p.Info)
			}
			if caps && (envEntries[rs.Field] || rs.Context == InCwd) {
				continue // env-value-shell-var, cwd-not-expanded
			}
			d = p.Finding(span, "%q is not a declared arg; unless the caller passes %q, the text stays literal (nothing expands environment variables here)", text, r.Name)
		}
		if d.Severity != source.Info && !fixed[r.Name] {
			if e, ok := aeAddArgEdit(p, r.Name); ok {
				fixed[r.Name] = true
				d.Fixes = []source.Fix{{Message: fmt.Sprintf("Declare arg %q with an empty default", r.Name), Edits: []source.Edit{e}}}
			}
		}
		p.Report(d)
	}
}
