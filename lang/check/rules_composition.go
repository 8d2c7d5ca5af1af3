package check

// compositionRules check workflow: composition across files.
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
