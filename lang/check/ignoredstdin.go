package check

import (
	"bytes"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// IgnoredStdin reports stdin on workflow: and parallel steps.
var IgnoredStdin = &Analyzer{
	Name:     "ignored-stdin",
	Severity: source.Warning,
	Summary:  "stdin on a workflow: or parallel step is ignored",
	Doc: `A sub-workflow step does not read ` + "`stdin`" + `: data reaches the child file only through
` + "`workflow_args`" + `. A parallel step does not read it either: each branch has its own
` + "`stdin`" + `. In both cases the reference accepts the key and drops the data silently.`,
	Bad:  "- id: fan\n  stdin: $fetch.stdout\n  parallel:\n    branches:\n      - {id: a, run: ./a.sh}\n      - {id: b, run: ./b.sh}",
	Good: "- id: fan\n  parallel:\n    branches:\n      - {id: a, run: ./a.sh, stdin: $fetch.stdout}\n      - {id: b, run: ./b.sh, stdin: $fetch.stdout}",
	Fix:  "for a parallel step, move stdin onto each branch that has none (unsafe: check that every branch wants the data)",
	Run:  runIgnoredStdin,
}

func runIgnoredStdin(p *Pass) {
	for _, s := range structureSteps(p.Info) {
		st := s.Step
		if st.Stdin == nil || st.Workflow == nil && st.Parallel == nil || st.Context != ast.TopStep || st.ForEach != nil || isNull(st.Stdin) {
			continue
		}
		switch executes(st) {
		case nil:
		case st.Workflow:
			p.Reportf(st.Stdin.Key.Span, "\"stdin\" is ignored on a workflow step (%s); pass data to the sub-workflow with workflow_args", stepLabel(s))
		case st.Parallel:
			d := p.Finding(st.Stdin.Key.Span, "\"stdin\" is ignored on a parallel step (%s); set stdin on each branch instead", stepLabel(s))
			if fix, ok := moveStdinToBranches(p, s); ok {
				d.Fixes = []source.Fix{fix}
			}
			p.Report(d)
		}
	}
}

// moveStdinToBranches builds the fix that copies a parallel step's stdin onto
// every branch without one and removes it from the step.
func moveStdinToBranches(p *Pass, s *StepInfo) (source.Fix, bool) {
	st := s.Step
	src := p.File.Src.Content
	value := p.Text(ast.SpanOf(st.Stdin.Value))
	if value == "" || strings.ContainsAny(value, "\n\r") {
		return source.Fix{}, false
	}
	remove, ok := removeField(p, &st.Object, st.Stdin)
	if !ok {
		return source.Fix{}, false
	}
	edits := []source.Edit{remove}
	stepSpan := ast.SpanOf(st)
	for _, b := range s.Children {
		bs := b.Step
		if bs.Stdin != nil {
			continue
		}
		if len(bs.Fields) == 0 || !stepSpan.Covers(ast.SpanOf(bs)) {
			return source.Fix{}, false
		}
		key := keySpelling(bs.Fields[0].Key, "stdin")
		last := bs.Fields[len(bs.Fields)-1]
		end := last.End()
		if bs.Flow {
			edits = append(edits, p.Edit(source.Span{Start: end, End: end}, ", "+key+": "+value))
			continue
		}
		indent := strings.Repeat(" ", p.File.Src.Pos(bs.Fields[0].Pos()).Col-1)
		switch nl := bytes.IndexByte(src[end:], '\n'); {
		case end > 0 && src[end-1] == '\n':
			edits = append(edits, p.Edit(source.Span{Start: end, End: end}, indent+key+": "+value+"\n"))
		case nl < 0:
			edits = append(edits, p.Edit(source.Span{Start: len(src), End: len(src)}, "\n"+indent+key+": "+value))
		default:
			edits = append(edits, p.Edit(source.Span{Start: end + nl, End: end + nl}, "\n"+indent+key+": "+value))
		}
	}
	return source.Fix{Message: "Move \"stdin\" onto each branch that has none (unsafe: check that every branch wants the data)", Edits: edits, Unsafe: true}, true
}
