package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// EnvOverridesLobsterVar reports env entries that replace the variables the
// runtime injects for the args.
var EnvOverridesLobsterVar = &Analyzer{
	Name:     "env-overrides-lobster-var",
	Severity: source.Info,
	Summary:  "an env entry replaces a LOBSTER_ARG_ variable or LOBSTER_ARGS_JSON",
	Doc: `The runtime sets LOBSTER_ARGS_JSON and LOBSTER_ARG_<N> for the args, then applies the
workflow env and the step env over them: an explicit entry wins, so the step no longer
sees the arg's value. This is legal and sometimes intended (passing a step's output under an
arg's name), but easy to do by accident. LOBSTER_SHELL is reported by lobster-shell-override.`,
	Bad:  "args:\n  msg: {default: hi}\nsteps:\n  - id: say\n    run: echo \"$LOBSTER_ARG_MSG\"\n    env:\n      LOBSTER_ARG_MSG: hello",
	Good: "args:\n  msg: {default: hi}\nsteps:\n  - id: say\n    run: echo \"$MSG\"\n    env:\n      MSG: hello",
	Run:  runEnvOverridesLobsterVar,
}

func runEnvOverridesLobsterVar(p *Pass) {
	var byVar map[string]*ast.Field
	for b := range aeEnvBlocks(p.Info) {
		m, ok := b.Field.Value.(*ast.TemplateMap)
		if !ok {
			continue
		}
		for _, e := range m.Fields {
			name := e.Name()
			if name == "LOBSTER_ARGS_JSON" {
				p.Reportf(e.Key.Span, "env sets LOBSTER_ARGS_JSON, overriding the JSON of the resolved args that the runtime injects")
				continue
			}
			n, ok := aeArgVarSuffix(name)
			if !ok {
				continue
			}
			if byVar == nil {
				byVar = aeArgByVar(p.Info)
			}
			if fd := byVar[n]; fd != nil {
				d := p.Finding(e.Key.Span, "env sets %s, overriding the value injected from arg %q", name, fd.Name())
				d.Related = []source.Related{p.Related(fd.Key.Span, "the arg is declared here")}
				p.Report(d)
				continue
			}
			p.Reportf(e.Key.Span, "env sets %s, overriding the value the runtime injects when the caller passes an arg that maps to it", name)
		}
	}
}

// aeArgVarSuffix is N when name is LOBSTER_ARG_N spelled as the runtime
// spells it (upper case, digits, inner "_").
func aeArgVarSuffix(name string) (string, bool) {
	const prefix = "LOBSTER_ARG_"
	if len(name) <= len(prefix) || name[:len(prefix)] != prefix {
		return "", false
	}
	n := name[len(prefix):]
	if n[0] == '_' || n[len(n)-1] == '_' {
		return "", false
	}
	for i := 0; i < len(n); i++ {
		if c := n[i]; !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return "", false
		}
	}
	return n, true
}
