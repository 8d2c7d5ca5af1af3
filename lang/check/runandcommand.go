package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// RunAndCommand reports run and command on the same step.
var RunAndCommand = &Analyzer{
	Name:     "run-and-command",
	Severity: source.Warning,
	Summary:  "both run and command are set; run is used and command is ignored",
	Doc: `` + "`run`" + ` and ` + "`command`" + ` are synonyms. The reference's load-time check counts them as one
field (` + "`run`" + ` when it is a string, otherwise ` + "`command`" + `), so a step with both is accepted and
` + "`command`" + ` is silently ignored, although the error message for two
execution fields suggests they are exclusive. On a loop sub-step two non-blank texts are rejected
at load time (` + "`conflicting-execution`" + `).`,
	Bad:  "- id: build\n  run: make\n  command: make test",
	Good: "- id: build\n  run: make && make test",
	Fix:  "remove command (unsafe: the author may have meant the other one)",
	Run:  runRunAndCommand,
}

func runRunAndCommand(p *Pass) {
	for _, s := range structureSteps(p.Info) {
		st := s.Step
		if st.Run == nil || st.Command == nil {
			continue
		}
		if ast.StringOf(ast.Resolve(st.Run.Value)) == nil {
			continue // a non-string run is wrong-type; command is then used
		}
		if st.Context == ast.SubStep && nonBlank(st.Run) && nonBlank(st.Command) {
			continue // rejected at load time: conflicting-execution
		}
		d := p.Finding(st.Command.Key.Span, "both \"run\" and \"command\" are set on %s; \"run\" is used and \"command\" is ignored", stepLabel(s))
		if !nonBlank(st.Run) {
			d.Message += " (and \"run\" is blank)"
		}
		d.Related = []source.Related{p.Related(st.Run.Key.Span, "\"run\" is used")}
		if e, ok := removeField(p, &st.Object, st.Command); ok {
			d.Fixes = []source.Fix{{Message: "Remove the ignored \"command\" (unsafe: check which one was meant)", Edits: []source.Edit{e}, Unsafe: true}}
		}
		p.Report(d)
	}
}
