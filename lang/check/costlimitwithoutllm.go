package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// CostLimitWithoutLLM reports a cost_limit in a workflow that calls no model.
var CostLimitWithoutLLM = &Analyzer{
	Name:     "cost-limit-without-llm",
	Severity: source.Info,
	Summary:  "cost_limit is set, but no step calls a model",
	Doc: "The cost tracker only counts JSON objects with a `usage` object in a step's output: " +
		"model calls (`llm.invoke`, `llm_task.invoke`, `openclaw.agent`, `email.triage --llm`) or any step " +
		"that prints `{model, usage}`. The rule is quiet when some step may call a model: those pipeline " +
		"commands, `openclaw.invoke` / `clawd.invoke`, `workflows.run`, sub-workflows, and shell text that " +
		"mentions a model CLI or API (claude, openai, llm, gemini, ollama, openclaw, lobster, …).",
	Bad:  "cost_limit:\n  max_usd: 1\n  action: stop\nsteps:\n  - id: build\n    run: make",
	Good: "steps:\n  - id: build\n    run: make",
	Run:  runCostLimitWithoutLLM,
}

// polMaybeModelText is shell text that may call a model or print usage.
var polMaybeModelText = lazyRE(`(?i)llm|openclaw|clawd|claude|anthropic|openai|gpt|gemini|ollama|codex|mistral|aider|lobster|bedrock|vertex|litellm|usage`)

// polMayCallModel reports whether a step may produce billed usage.
func polMayCallModel(s *ast.Step) bool {
	if s.Workflow != nil {
		return true
	}
	for _, st := range polStages(s) {
		switch st.Name.Text {
		case "llm.invoke", "llm_task.invoke", "openclaw.agent", "openclaw.invoke", "clawd.invoke", "workflows.run", "email.triage":
			return true
		}
	}
	if pl, ok := fieldValue(s.Pipeline).(*ast.Pipeline); ok && pl.Err != nil {
		return true // cannot tell
	}
	if sh := polShell(s); sh != nil && polMaybeModelText().MatchString(sh.Scalar.Text) {
		return true
	}
	if pl, ok := fieldValue(s.Pipeline).(*ast.Pipeline); ok && polMaybeModelText().MatchString(pl.Scalar.Text) {
		return true
	}
	return false
}

func runCostLimitWithoutLLM(p *Pass) {
	c := polCostLimit(p.File)
	if c == nil {
		return
	}
	for _, si := range p.Info.Steps {
		if polMayCallModel(si.Step) {
			return
		}
	}
	p.Reportf(p.File.Workflow.CostLimit.Key.Span, "cost_limit only counts the JSON \"usage\" objects that model calls print, and no step here calls a model")
}
