package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// EnvValueShellVar reports env values that expect shell expansion.
var EnvValueShellVar = &Analyzer{
	Name:     "env-value-shell-var",
	Severity: source.Error,
	Summary:  "an env value uses $NAME, ${NAME} or $(…), which are never expanded there",
	Doc: `Env values get Lobster's "${arg}" and "$id.path" substitution and nothing else: no shell ever
reads them. "TEXT: $LOBSTER_ARG_TEXT" sets TEXT to those 17 characters, and
"PATH: $HOME/bin:$PATH" replaces PATH with a path that does not exist. The README's own
shell-safety example has this bug. What works: "${text}" (Lobster substitutes the arg, with no
shell parsing involved), or reading "$LOBSTER_ARG_TEXT" or "$HOME" inside the command, which
inherits the process environment.

ALL_CAPS names, names of declared args and $(…) are errors; other lower-case names are warnings
(the "$" may be part of a literal value such as a password). Values of variables that programs
run through a shell (names ending in _COMMAND or _CMD, EDITOR, PAGER, PS1…) are not reported.`,
	Bad:  "args:\n  text: {default: hi}\nsteps:\n  - id: say\n    run: node say.js\n    env:\n      TEXT: $LOBSTER_ARG_TEXT",
	Good: "args:\n  text: {default: hi}\nsteps:\n  - id: say\n    run: node say.js\n    env:\n      TEXT: ${text}",
	Fix:  "rewrite $LOBSTER_ARG_<N> (or $arg) of a declared arg to ${arg}",
	Run:  runEnvValueShellVar,
}

// aeShellEvaluatedEnv are variables whose value a program runs through a
// shell, so that "$X" in them is expanded after all.
var aeShellEvaluatedEnv = map[string]bool{
	"EDITOR": true, "VISUAL": true, "PAGER": true, "GIT_PAGER": true, "GIT_EDITOR": true, "MANPAGER": true,
	"PS1": true, "PS2": true, "PS3": true, "PS4": true, "PROMPT_COMMAND": true, "ENV": true, "BASH_ENV": true,
	"LESSOPEN": true, "LESSCLOSE": true, "GIT_SEQUENCE_EDITOR": true, "SYSTEMD_EDITOR": true, "SUDO_EDITOR": true,
}

func aeIsShellEvaluatedEnv(name string) bool {
	up := strings.ToUpper(name)
	return aeShellEvaluatedEnv[up] || strings.HasSuffix(up, "_COMMAND") || strings.HasSuffix(up, "_CMD") || strings.HasSuffix(up, "_EDITOR") || strings.HasSuffix(up, "_PAGER")
}

func runEnvValueShellVar(p *Pass) {
	var byVar map[string]*ast.Field
	argForVar := func(name string) *ast.Field {
		n, ok := strings.CutPrefix(name, "LOBSTER_ARG_")
		if !ok {
			return nil
		}
		if byVar == nil {
			byVar = aeArgByVar(p.Info)
		}
		fd := byVar[n]
		if fd == nil || !parser.IsRefName(fd.Name()) {
			return nil
		}
		return fd
	}
	for b := range aeEnvBlocks(p.Info) {
		m, ok := b.Field.Value.(*ast.TemplateMap)
		if !ok {
			continue
		}
		for _, e := range m.Fields {
			t, ok := e.Value.(*ast.Template)
			if !ok || t.Scalar == nil || !strings.Contains(t.Scalar.Text, "$") || aeIsShellEvaluatedEnv(e.Name()) {
				continue
			}
			s := t.Scalar
			if strings.Count(s.Text, "$") == len(t.Refs) && !aeHasEnvLikeArgRef(p.Info, t.Refs) {
				continue // every "$" starts a Lobster reference that is substituted
			}
			key := e.Name()
			literal := aeShorten(s.Text, 60)
			report := func(i, j int, name string) {
				written := s.Text[i:j]
				sp := s.Map.Span(i, j)
				d := p.Finding(sp, "env values are not shell-expanded: %s is set to the literal text %q", key, literal)
				var arg *ast.Field
				switch {
				case name == "":
					d.Message += ". run the command inside the step instead"
				case argForVar(name) != nil:
					arg = argForVar(name)
				case p.Info.ArgBy[name] != nil && parser.IsRefName(name):
					arg = p.Info.ArgBy[name]
				case strings.HasPrefix(name, "LOBSTER_ARG_"):
					d.Message += fmt.Sprintf(". no declared arg maps to %s: declare the arg and write \"${name}\", or read \"$%s\" inside the command", name, name)
				default:
					d.Message += fmt.Sprintf(". read \"$%s\" inside the command instead (the step inherits the process environment)", name)
				}
				if arg != nil {
					ref := "${" + arg.Name() + "}"
					d.Message += fmt.Sprintf(". use %q (Lobster substitution) or read \"$%s\" inside the command", ref, aeArgVar(arg.Name()))
					// Only the plain forms mean the arg's value; ${X:-y} does not.
					if written == "$"+name || written == "${"+name+"}" {
						d.Fixes = []source.Fix{{Message: "Use " + ref, Edits: []source.Edit{p.Edit(sp, ref)}}}
					}
				}
				if name != "" && arg == nil && !aeIsAllCaps(name) {
					d.Severity = source.Warning
				}
				p.Report(d)
			}
			spans := aeRefSpans(s, t.Refs)
			for k, r := range t.Refs {
				a, ok := r.(*ast.ArgRef)
				if !ok || p.Info.ArgBy[a.Name] != nil {
					continue
				}
				// Undeclared ${NAME}: ALL_CAPS and LOBSTER_ names are meant
				// as environment variables; others are undeclared-arg's.
				if aeIsAllCaps(a.Name) || strings.HasPrefix(a.Name, "LOBSTER_") {
					report(spans[k].I, spans[k].J, a.Name)
				}
			}
			aeUnexpanded(s.Text, spans, report)
		}
	}
}

// aeHasEnvLikeArgRef reports whether refs hold an undeclared ${NAME} that
// reads like an environment variable (ALL_CAPS or LOBSTER_…).
func aeHasEnvLikeArgRef(in *Info, refs []ast.Ref) bool {
	for _, r := range refs {
		if a, ok := r.(*ast.ArgRef); ok && in.ArgBy[a.Name] == nil && (aeIsAllCaps(a.Name) || strings.HasPrefix(a.Name, "LOBSTER_")) {
			return true
		}
	}
	return false
}
