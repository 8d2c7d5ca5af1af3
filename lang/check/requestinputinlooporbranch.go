package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// RequestInputInLoopOrBranch reports ask stages in for_each sub-steps and
// parallel branches.
var RequestInputInLoopOrBranch = &Analyzer{
	Name:     "request-input-in-loop-or-branch",
	Severity: source.Error,
	Summary:  "an ask stage is used in a for_each sub-step's or a parallel branch's pipeline",
	Doc: `A pipeline's ` + "`ask`" + ` stage suspends the workflow with ` + "`needs_input`" + ` by calling ` + "`requestInput`" + `.
For_each sub-steps and parallel branches run their pipelines in contexts without it, so the step
fails with "requestInput is not supported in this pipeline context". Ask
once in an input step before the loop or the parallel block, and pass the answer in with
` + "`$<input>.response`" + `.`,
	Bad: `- id: each
  for_each: $list.json
  steps:
    - id: review
      pipeline: ask --prompt 'Keep this one?'`,
	Good: `- id: choose
  input:
    prompt: Which items should be kept?
    responseSchema: {type: array, items: {type: string}}
  stdin: $list.json
- id: each
  for_each: $choose.response
  steps:
    - id: keep
      run: ./keep.sh`,
	Run: runRequestInputInLoopOrBranch,
}

func runRequestInputInLoopOrBranch(p *Pass) {
	for _, si := range p.Info.Steps {
		ctx := si.Step.Context
		if si.Step.Pipeline == nil || ctx == ast.TopStep {
			continue
		}
		pl, ok := si.Step.Pipeline.Value.(*ast.Pipeline)
		if !ok {
			continue
		}
		where := "a for_each sub-step"
		if ctx == ast.BranchStep {
			where = "a parallel branch"
		}
		for _, st := range pl.Stages {
			if st.Name != nil && st.Name.Text == "ask" {
				p.Reportf(ast.SpanOf(st.Name), "\"ask\" cannot suspend inside %s (\"requestInput is not supported in this pipeline context\"); use an input step outside", where)
			}
		}
	}
}
