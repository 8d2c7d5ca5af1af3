package check

// compositionRules check workflow: composition across files (lint-rules.md §6, second part).
var compositionRules = []*Analyzer{
	SubworkflowMissing,
	SubworkflowInvalid,
	SubworkflowCycle,
	GatesInSubworkflow,
	WorkflowArgsUndeclared,
	WorkflowArgsMissing,
	WorkflowArgsStringified,
	SubworkflowEnvLeak,
	WorkflowPathFromArg,
}
