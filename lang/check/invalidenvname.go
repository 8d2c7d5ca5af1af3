package check

import (
	"strings"
	"unicode"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// InvalidEnvName reports env names that no process environment can hold.
var InvalidEnvName = &Analyzer{
	Name:     "invalid-env-name",
	Severity: source.Warning,
	Summary:  "an env name is empty or contains \"=\", white space or NUL",
	Doc: `An environment entry is NAME=value: a name that is empty or contains "=" cannot be read back
under that name, and white space or a NUL character make it unreadable from a shell (or make
the process spawn fail). What the reference does with such a name is not specified; rename it to
letters, digits and underscores.`,
	Bad:  "env:\n  API URL: https://example.com\nsteps:\n  - id: call\n    run: curl \"$API_URL\"",
	Good: "env:\n  API_URL: https://example.com\nsteps:\n  - id: call\n    run: curl \"$API_URL\"",
	Run:  runInvalidEnvName,
}

func runInvalidEnvName(p *Pass) {
	for b := range aeEnvBlocks(p.Info) {
		m, ok := b.Field.Value.(*ast.TemplateMap)
		if !ok {
			continue
		}
		for _, e := range m.Fields {
			name := e.Name()
			var why string
			switch {
			case name == "":
				why = "is empty"
			case strings.ContainsRune(name, '='):
				why = "contains \"=\""
			case strings.ContainsRune(name, 0):
				why = "contains a NUL character"
			case strings.IndexFunc(name, unicode.IsSpace) >= 0:
				why = "contains white space"
			default:
				continue
			}
			p.Reportf(e.Key.Span, "env name %q %s; it is not a valid environment variable name", name, why)
		}
	}
}
