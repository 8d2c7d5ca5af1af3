package check

// loopRules check for_each, parallel and composition-free loop rules (lint-rules.md §6, first part).
var loopRules = []*Analyzer{
	ForEachNotRef,
	ForEachStringSource,
	BatchSizeWithoutPause,
	LoopShadowsStep,
	ParallelAnyFirstSettled,
	RefToAnyBranch,
	ParallelBranchNonJSON,
}
