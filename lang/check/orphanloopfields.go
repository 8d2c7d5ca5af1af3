package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// OrphanLoopFields reports loop fields on steps that are not loops, and
// workflow_args without workflow.
var OrphanLoopFields = &Analyzer{
	Name:     "orphan-loop-fields",
	Severity: source.Warning,
	Summary:  "a loop field (steps, item_var, index_var, batch_size, pause_ms) on a step without for_each, or workflow_args without workflow",
	Doc: `` + "`steps`" + `, ` + "`item_var`" + `, ` + "`index_var`" + `, ` + "`batch_size`" + ` and ` + "`pause_ms`" + ` are read only on a
` + "`for_each`" + ` step, and ` + "`workflow_args`" + ` only on a ` + "`workflow:`" + ` step. Elsewhere the reference never
validates them and ignores them: nested ` + "`steps`" + ` without
` + "`for_each`" + ` never run, and ` + "`workflow_args`" + ` reach nothing.`,
	Bad:  "- id: each\n  run: ./list.sh\n  item_var: file\n  batch_size: 5",
	Good: "- id: each\n  for_each: $list.json\n  item_var: file\n  steps:\n    - {id: show, run: echo $file.stdout}",
	Run:  runOrphanLoopFields,
}

func runOrphanLoopFields(p *Pass) {
	for _, s := range structureSteps(p.Info) {
		st := s.Step
		if st.ForEach == nil {
			for _, f := range []*ast.Field{st.Steps, st.ItemVar, st.IndexVar, st.BatchSize, st.PauseMs} {
				if f == nil {
					continue
				}
				switch {
				case f != st.Steps:
					p.Reportf(f.Key.Span, "%q only applies to for_each steps; it is ignored on %s", f.Name(), stepLabel(s))
				case st.Parallel != nil && st.Context == ast.TopStep:
					p.Reportf(f.Key.Span, "\"steps\" only applies to for_each steps: these nested steps never run; parallel branches go under parallel: {branches: […]}")
				default:
					p.Reportf(f.Key.Span, "\"steps\" only applies to for_each steps: these nested steps of %s never run", stepLabel(s))
				}
			}
		}
		if st.WorkflowArgs != nil && st.Workflow == nil {
			p.Reportf(st.WorkflowArgs.Key.Span, "\"workflow_args\" only applies to steps with \"workflow\"; it is ignored on %s", stepLabel(s))
		}
	}
}
