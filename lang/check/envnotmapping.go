package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// EnvNotMapping reports env fields that are not a mapping.
var EnvNotMapping = &Analyzer{
	Name:     "env-not-mapping",
	Severity: source.Error,
	Summary:  "an env field is not a mapping of NAME: value",
	Doc: `env (of the workflow, a step, a parallel branch or a for_each sub-step) is never validated.
Only a mapping of names to string values sets variables: a list such as
["DEBUG=1"] or a string does not set DEBUG, and the step runs without it. An empty env (null)
sets nothing and is not reported.`,
	Bad:  "steps:\n  - id: build\n    run: make\n    env:\n      - DEBUG=1",
	Good: "steps:\n  - id: build\n    run: make\n    env:\n      DEBUG: \"1\"",
	Run:  runEnvNotMapping,
}

func runEnvNotMapping(p *Pass) {
	for b := range aeEnvBlocks(p.Info) {
		if _, ok := b.Field.Value.(*ast.TemplateMap); ok {
			continue
		}
		v := ast.Resolve(b.Field.Value)
		if s, ok := v.(*ast.Scalar); ok && s.Kind == ast.Null || v == nil {
			continue
		}
		p.Reportf(ast.SpanOf(b.Field.Value), "\"env\" must be a mapping of NAME: \"value\"; this value is %s and is ignored, so no variable is set", ast.TypeName(v))
	}
}
