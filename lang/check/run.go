package check

import (
	"fmt"
	"runtime/debug"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// Run runs the analyzers over a parsed file and returns their findings
// together with the parser's, with suppression comments applied and sorted.
// An analyzer that panics is reported as an internal-error diagnostic; the
// others still run.
func Run(f *ast.File, parseDiags []source.Diagnostic, analyzers []*Analyzer) []source.Diagnostic {
	info := NewInfo(f)
	diags := append([]source.Diagnostic(nil), parseDiags...)
	for _, a := range analyzers {
		if a.Run == nil {
			continue
		}
		diags = append(diags, runOne(a, f, info)...)
	}
	diags = applySuppressions(f, diags)
	source.Sort(diags)
	return diags
}

func runOne(a *Analyzer, f *ast.File, info *Info) (diags []source.Diagnostic) {
	defer func() {
		if r := recover(); r != nil {
			diags = append(diags, source.Diagnostic{
				File: f.Src.Name, Range: f.Src.Range(0, 0), Severity: source.Error, Code: "internal-error",
				Message: fmt.Sprintf("internal error in rule %s: %v\n%s", a.Name, r, firstFrames(debug.Stack())),
			})
		}
	}()
	pass := &Pass{Analyzer: a, File: f, Info: info, report: func(d source.Diagnostic) { diags = append(diags, d) }}
	a.Run(pass)
	return diags
}

// firstFrames keeps the start of a stack for a bug report.
func firstFrames(stack []byte) string {
	const max = 800
	if len(stack) > max {
		return string(stack[:max]) + "…"
	}
	return string(stack)
}
