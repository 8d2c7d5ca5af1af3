package check

// All lists every code: the parser's and the checker's own first, then the
// rules, grouped as in lint-rules.md. Adding a rule means adding it here;
// docs/diagnostics.md is generated from this list.
var All = append(append([]*Analyzer(nil), parserCodes...), Rules...)

// Rules are the analyzers that run over the tree.
var Rules = []*Analyzer{
	// References and templates.
	UnknownStepRef,
	ForwardStepRef,
	OutOfScopeRef,
}
