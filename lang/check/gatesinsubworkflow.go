package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// GatesInSubworkflow reports children that halt for approval or input.
var GatesInSubworkflow = &Analyzer{
	Name:     "gates-in-subworkflow",
	Severity: source.Warning,
	Summary:  "the child workflow of a workflow: step has approval or input gates",
	Doc: `A child workflow runs in the parent's mode. When it would halt for an approval or an
input (tool mode, or no terminal), its resume state is deleted and the calling step fails with
"Workflow step <id> sub-workflow halted for approval|input. Sub-workflow approval/input gates are
not supported in composition." Only in an interactive terminal do the child's gates
prompt and the composition work. Gates are approval: steps, input: steps, and the approve and ask
commands of pipelines.

Move the gate into the parent, before or after the workflow: step, and pass the decision to the
child in workflow_args.`,
	Bad:  "steps:\n  - id: sub\n    workflow: child.lobster\n-- child.lobster --\nsteps:\n  - id: ok\n    approval: Deploy?\n  - id: go\n    run: ./deploy.sh\n",
	Good: "steps:\n  - id: ok\n    approval: Deploy?\n  - id: sub\n    workflow: child.lobster\n    when: $ok.approved\n-- child.lobster --\nsteps:\n  - id: go\n    run: ./deploy.sh\n",
	Run:  runGatesInSubworkflow,
}

// maxGatesShown bounds the related locations of a gates finding.
const maxGatesShown = 5

func runGatesInSubworkflow(p *Pass) {
	eachSub(p, func(c subCall, child *subFile) {
		var related []source.Related
		n := 0
		add := func(sp source.Span, msg string) {
			n++
			if n <= maxGatesShown {
				related = append(related, childRelated(child, sp, msg))
			}
		}
		for _, s := range child.Info().Steps {
			if s.HasGate() {
				add(ast.SpanOf(s.Step.Approval.Key), fmt.Sprintf("approval gate of step %q", s.ID))
			}
			if s.IsInput() {
				add(ast.SpanOf(s.Step.Input.Key), fmt.Sprintf("input step %q", s.ID))
			}
			if s.Step.Pipeline == nil {
				continue
			}
			if pl, ok := s.Step.Pipeline.Value.(*ast.Pipeline); ok {
				for _, st := range pl.Stages {
					if st.Name != nil && (st.Name.Text == "approve" || st.Name.Text == "ask") {
						add(ast.SpanOf(st.Name), fmt.Sprintf("%s command in the pipeline of step %q", st.Name.Text, s.ID))
					}
				}
			}
		}
		if n == 0 {
			return
		}
		gates := "an approval/input gate"
		if n > 1 {
			gates = fmt.Sprintf("%d approval/input gates", n)
		}
		d := p.Finding(ast.SpanOf(c.Value), "sub-workflow %q has %s; in tool mode or without a terminal the step fails with \"Sub-workflow approval/input gates are not supported in composition\" (they prompt only in an interactive terminal); move the gate into this file",
			c.Value.Scalar.Text, gates)
		d.Related = related
		p.Report(d)
	})
}
