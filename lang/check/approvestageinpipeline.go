package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ApproveStageInPipeline reports an approve stage inside a workflow pipeline.
var ApproveStageInPipeline = &Analyzer{
	Name:     "approve-stage-in-pipeline",
	Severity: source.Error,
	Summary:  "an approve stage is used inside a workflow's pipeline: field",
	Doc: `Inside a workflow file, a pipeline's ` + "`approve`" + ` stage that emits its request (tool mode, or no
terminal) fails the step with "Workflow step {id} halted for approval inside pipeline stage
approve. Use a separate approval step in the workflow file." The error bypasses
` + "`on_error`" + ` and ` + "`retry`" + `. It works only in an interactive terminal. Split the pipeline: a
pipeline step, an approval-only step fed by ` + "`stdin: $<step>.json`" + `, and a step for the rest.`,
	Bad: `- id: send
  pipeline: "exec --json ./draft.sh | approve --prompt 'Send?' | exec ./send.sh"`,
	Good: `- id: draft
  pipeline: "exec --json ./draft.sh"
- id: confirm
  approval: Send?
  stdin: $draft.json
- id: send
  run: ./send.sh
  stdin: $draft.json`,
	Run: runApproveStageInPipeline,
}

func runApproveStageInPipeline(p *Pass) {
	for _, si := range p.Info.Steps {
		if si.Step.Pipeline == nil {
			continue
		}
		pl, ok := si.Step.Pipeline.Value.(*ast.Pipeline)
		if !ok {
			continue
		}
		for _, st := range pl.Stages {
			if st.Name != nil && st.Name.Text == "approve" {
				p.Reportf(ast.SpanOf(st.Name), "\"approve\" inside a pipeline step fails in tool mode (\"halted for approval inside pipeline stage approve\"); use a separate approval step in the workflow")
			}
		}
	}
}
