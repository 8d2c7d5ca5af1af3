package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// BlankExecution reports a whitespace-only run, command or pipeline.
var BlankExecution = &Analyzer{
	Name:     "blank-execution",
	Severity: source.Error,
	Summary:  "run, command or pipeline holds only whitespace, so the step runs nothing",
	Doc: `The load-time check counts a non-empty string as present, so ` + "`run: \" \"`" + ` passes it, but the
runner trims the text before choosing what to execute and finds nothing: the step runs as a no-op
and stores an empty result. An empty string ` + "`\"\"`" + ` is rejected at load
time instead (` + "`missing-execution`" + `), and on a loop sub-step blank text counts as absent.`,
	Bad:        "- id: build\n  run: \" \"",
	Good:       "- id: build\n  run: make",
	Run:        runBlankExecution,
	Supersedes: []string{"pipeline-parse-error"}, // "Empty pipeline": the runner never parses blank text
}

func runBlankExecution(p *Pass) {
	for _, s := range structureSteps(p.Info) {
		st := s.Step
		if st.Context == ast.SubStep || !isBlank(st.Run) && !isBlank(st.Command) && !isBlank(st.Pipeline) {
			continue // on sub-steps blank counts as absent: missing-execution
		}
		if st.Context == ast.TopStep && executes(st) != nil {
			continue // something else runs (or conflicting-execution)
		}
		if st.Context == ast.BranchStep && (nonBlank(st.Run) || nonBlank(st.Command) || nonBlank(st.Pipeline)) {
			continue
		}
		runIsString := false
		if ast.StringOf(ast.Resolve(fieldValue(st.Run))) != nil {
			runIsString = true
		}
		for _, f := range []*ast.Field{st.Run, st.Command, st.Pipeline} {
			if f == nil || (f == st.Command && runIsString) {
				continue
			}
			if !isBlank(f) {
				continue
			}
			p.Reportf(ast.SpanOf(f.Value), "%q is blank, so %s runs nothing: the runner trims the text and finds no command", f.Name(), stepLabel(s))
		}
	}
}

// isBlank reports whether a field holds a non-empty, whitespace-only string.
func isBlank(f *ast.Field) bool {
	if f == nil {
		return false
	}
	sc := ast.StringOf(ast.Resolve(f.Value))
	return sc != nil && sc.Text != "" && strings.TrimSpace(sc.Text) == ""
}
