package check

// All lists every code: the parser's and the checker's own first, then the
// rules, in their groups (rules_<group>.go). docs/diagnostics.md is
// generated from this list.
var All = append(append(append([]*Analyzer(nil), parserCodes...), configCodes...), Rules...)

// Rules are the analyzers that run over the tree, by group. Each group's
// list is in its own file (rules_<group>.go), so that a rule is added in one
// place.
var Rules = concat(
	referenceRules,
	argEnvRules,
	structureRules,
	conditionRules,
	approvalRules,
	loopRules,
	policyRules,
	pipelineRules,
	compositionRules,
	securityRules,
)

func concat(groups ...[]*Analyzer) []*Analyzer {
	var all []*Analyzer
	for _, g := range groups {
		all = append(all, g...)
	}
	return all
}
