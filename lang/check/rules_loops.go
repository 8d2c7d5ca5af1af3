package check

// loopRules check for_each and parallel steps.
var loopRules = []*Analyzer{
	ForEachNotRef,
	ForEachStringSource,
	BatchSizeWithoutPause,
	LoopShadowsStep,
	ParallelAnyFirstSettled,
	RefToAnyBranch,
	ParallelBranchNonJSON,
}
