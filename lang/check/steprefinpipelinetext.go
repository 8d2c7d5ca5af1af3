package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// StepRefInPipelineText reports step references spliced into pipeline text.
var StepRefInPipelineText = &Analyzer{
	Name:     "step-ref-in-pipeline-text",
	Severity: source.Info,
	Summary:  "a $id.path reference is spliced into pipeline text before it is parsed",
	Doc: `Pipeline text is substituted first and parsed afterwards: the value of
"$draft.json" becomes part of the pipeline's source, so a quote, a "|" or a blank in the data
changes how the text splits into stages and words. Pass data with stdin instead, which hands it
to the first stage as items.`,
	Bad:  "- id: draft\n  run: ./draft.sh\n- id: send\n  pipeline: openclaw.invoke --tool message --action send --args-json '$draft.json'",
	Good: "- id: draft\n  run: ./draft.sh\n- id: send\n  stdin: $draft.json\n  pipeline: openclaw.invoke --tool message --action send --each --item-key message",
	Run:  runStepRefInPipelineText,
}

func runStepRefInPipelineText(p *Pass) {
	for i := range p.Info.Refs {
		rs := &p.Info.Refs[i]
		if rs.Context != InPipeline {
			continue
		}
		r, ok := rs.Ref.(*ast.StepRef)
		if !ok || p.Info.ResolveSite(rs, r.ID).Visibility != Visible {
			continue
		}
		text := ast.RefText(r)
		p.Reportf(ast.SpanOf(r), "%q is substituted into the text before the pipeline is parsed: quotes, blanks or \"|\" in the data change the pipeline; pass the data with stdin: %s", text, text)
	}
}
