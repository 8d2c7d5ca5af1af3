package check

import (
	"encoding/json"
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// CostLimitUnpricedModel reports model calls that the cost tracker prices at
// zero while a cost_limit is set.
var CostLimitUnpricedModel = &Analyzer{
	Name:     "cost-limit-unpriced-model",
	Severity: source.Warning,
	Summary:  "cost_limit is set, but a model call uses a model without a price, so it costs $0",
	Doc: "The cost tracker prices usage with a built-in table (USD per million tokens): " +
		"gpt-4o, gpt-4o-mini, gpt-4-turbo, gpt-3.5-turbo, claude-opus-4-20250514, " +
		"claude-sonnet-4-5-20250514, claude-haiku-3-5, gemini-1.5-pro and gemini-1.5-flash, matched " +
		"exactly. Any other model, and a missing one, is recorded at zero cost with a warning, so " +
		"`cost_limit` never fires for it. `LOBSTER_LLM_PRICING_JSON` " +
		"(`{\"model\": {\"input\": n, \"output\": n}}`) adds prices; when the workflow sets it in an env " +
		"block, the models it names count as priced (a value that is not literal JSON silences the rule). " +
		"The model is read from `--model` (an `${arg}` is read from its default), else from " +
		"`LOBSTER_LLM_MODEL` / `LLM_TASK_MODEL` in the step's, the enclosing step's or the workflow's env " +
		"for llm.invoke and llm_task.invoke.",
	Bad:  "cost_limit: {max_usd: 2, action: stop}\nsteps:\n  - id: summarise\n    pipeline: llm.invoke --model gpt-5 --prompt 'Summarise'",
	Good: "cost_limit: {max_usd: 2, action: stop}\nenv:\n  LOBSTER_LLM_PRICING_JSON: '{\"gpt-5\": {\"input\": 1.25, \"output\": 10}}'\nsteps:\n  - id: summarise\n    pipeline: llm.invoke --model gpt-5 --prompt 'Summarise'",
	Run:  runCostLimitUnpricedModel,
}

// polModelPrices is the built-in price table's models.
var polModelPrices = map[string]bool{
	"gpt-4o": true, "gpt-4o-mini": true, "gpt-4-turbo": true, "gpt-3.5-turbo": true,
	"claude-opus-4-20250514": true, "claude-sonnet-4-5-20250514": true, "claude-haiku-3-5": true,
	"gemini-1.5-pro": true, "gemini-1.5-flash": true,
}

var polArgOnly = lazyRE(`^\$\{([A-Za-z0-9_-]+)\}$`)

// polEnvValue is the literal value of an env entry in an env field, and
// whether the entry exists.
func polEnvValue(f *ast.Field, names ...string) (value string, literal, found bool) {
	m, ok := fieldValue(f).(*ast.TemplateMap)
	if !ok {
		return "", false, false
	}
	for _, name := range names {
		for i := len(m.Fields) - 1; i >= 0; i-- {
			e := m.Fields[i]
			if e.Name() != name {
				continue
			}
			t, ok := e.Value.(*ast.Template)
			if !ok {
				return "", false, true
			}
			return t.Scalar.Text, len(t.Refs) == 0, true
		}
	}
	return "", false, false
}

// polResolveModel reads a model name: a literal, or an ${arg} with a string
// default. ok is false when it cannot be known.
func polResolveModel(p *Pass, text string) (string, bool) {
	if m := polArgOnly().FindStringSubmatch(text); m != nil {
		def, ok := p.Info.ArgBy[m[1]]
		if !ok {
			return "", false
		}
		a, ok := def.Value.(*ast.ArgDef)
		if !ok {
			return "", false
		}
		return polString(a.Default)
	}
	for i := 0; i < len(text); i++ {
		if text[i] == '$' {
			return "", false
		}
	}
	return text, true
}

func runCostLimitUnpricedModel(p *Pass) {
	if polCostLimit(p.File) == nil {
		return
	}
	// Extra prices from LOBSTER_LLM_PRICING_JSON in any env block.
	priced := map[string]bool{}
	envs := []*ast.Field{p.File.Workflow.Env}
	for _, si := range p.Info.Steps {
		envs = append(envs, si.Step.Env)
	}
	for _, f := range envs {
		v, literal, found := polEnvValue(f, "LOBSTER_LLM_PRICING_JSON")
		if !found {
			continue
		}
		var table map[string]json.RawMessage
		if !literal || json.Unmarshal([]byte(v), &table) != nil {
			return // cannot tell which models it prices
		}
		for k := range table {
			priced[k] = true
		}
	}
	for _, si := range p.Info.Steps {
		for _, st := range polStages(si.Step) {
			if !polIsLLMStage(st) {
				continue
			}
			name := st.Name.Text
			at := ast.SpanOf(st.Name)
			model, origin := "", ""
			if f := polStageFlag(st, "model"); f != nil {
				if f.Value == nil {
					continue
				}
				m, ok := polResolveModel(p, f.Value.Text)
				if !ok {
					continue
				}
				model, at = m, ast.SpanOf(f.Value)
				if m != f.Value.Text {
					origin = fmt.Sprintf(" (the default of %q)", f.Value.Text)
				}
			} else if name != "openclaw.agent" {
				known := false
				for _, env := range polEnvChain(p, si) {
					v, literal, found := polEnvValue(env, "LOBSTER_LLM_MODEL", "LLM_TASK_MODEL")
					if !found {
						continue
					}
					if !literal {
						known = true // set, to a value we cannot read
						break
					}
					model, origin, known = v, " (from LOBSTER_LLM_MODEL)", true
					break
				}
				if known && model == "" {
					continue
				}
			}
			switch {
			case model == "" && si.ID != "":
				p.Reportf(at, "%q calls %s without --model, so the cost is recorded under whatever model the provider reports; unless that exact name has a built-in price, its calls cost $0 and cost_limit never fires; set --model, or LOBSTER_LLM_PRICING_JSON in env", si.ID, name)
			case !polModelPrices[model] && !priced[model]:
				p.Reportf(at, "model %q%s has no built-in price, so its calls cost $0 and cost_limit never fires; price it in LOBSTER_LLM_PRICING_JSON in env", model, origin)
			}
		}
	}
}

// polEnvChain is the env blocks that apply to a step, most specific first:
// the step's, its parent's (loop or parallel step), the workflow's.
func polEnvChain(p *Pass, si *StepInfo) []*ast.Field {
	chain := []*ast.Field{si.Step.Env}
	if si.Parent != nil {
		chain = append(chain, si.Parent.Step.Env)
	}
	return append(chain, p.File.Workflow.Env)
}
