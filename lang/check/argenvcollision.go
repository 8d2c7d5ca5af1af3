package check

import (
	"strings"
	"unicode"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ArgEnvCollision reports args whose LOBSTER_ARG_ variables collide, are
// missing, or lose letters.
var ArgEnvCollision = &Analyzer{
	Name:     "arg-env-collision",
	Severity: source.Warning,
	Summary:  "two args map to the same LOBSTER_ARG_ variable, or an arg gets none or a mangled one",
	Doc: `Every resolved arg is exported as LOBSTER_ARG_<N>, where N is the name trimmed, upper-cased,
with each run of characters outside [A-Z0-9] replaced by one "_" and leading and trailing "_"
removed. "my-arg" and "my_arg" both become LOBSTER_ARG_MY_ARG, and only the later one
in the resolved args is visible. A name with no letter or digit ("---") gets no variable at
all, and letters outside A-Z ("café") are dropped: its variable is LOBSTER_ARG_CAF.`,
	Bad:  "args:\n  my-arg: {default: a}\n  my_arg: {default: b}\nsteps:\n  - id: show\n    run: echo \"$LOBSTER_ARG_MY_ARG\"",
	Good: "args:\n  my_arg: {default: b}\nsteps:\n  - id: show\n    run: echo \"$LOBSTER_ARG_MY_ARG\"",
	Run:  runArgEnvCollision,
}

func runArgEnvCollision(p *Pass) {
	if len(p.Info.Args) == 0 {
		return
	}
	first := map[string]*ast.Field{}
	for _, fd := range p.Info.Args {
		name := fd.Name()
		n := ArgEnvName(name)
		if n == "" {
			p.Reportf(fd.Key.Span, "arg %q gets no LOBSTER_ARG_ variable: its name has no letter A-Z or digit; only \"${%s}\" and LOBSTER_ARGS_JSON carry it", name, name)
			continue
		}
		if prev := first[n]; prev != nil {
			d := p.Finding(fd.Key.Span, "args %q and %q both map to LOBSTER_ARG_%s; only the later one in the resolved args is visible", prev.Name(), name, n)
			d.Related = []source.Related{p.Related(prev.Key.Span, "the other arg is declared here")}
			p.Report(d)
			continue
		}
		first[n] = fd
		if lost := aeLostLetters(name); lost != "" {
			p.Reportf(fd.Key.Span, "arg %q maps to LOBSTER_ARG_%s: %q has no upper-case form in A-Z and is dropped from the variable name", name, n, lost)
		}
	}
}

// aeLostLetters is the letters and digits of a name that its LOBSTER_ARG_
// variable drops (outside [A-Z0-9] after upper-casing), or "".
func aeLostLetters(name string) string {
	var lost strings.Builder
	for _, r := range name {
		if r < 0x80 || !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
			continue
		}
		up := aeUpper(string(r))
		for i := 0; i < len(up); i++ {
			if c := up[i]; !('A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
				lost.WriteRune(r)
				break
			}
		}
	}
	return lost.String()
}
