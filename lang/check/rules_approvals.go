package check

// approvalRules check approval gates and input steps.
var approvalRules = []*Analyzer{
	ApprovalAfterAction,
	ApprovalNotAGate,
	ApprovalYAMLWord,
	ApprovalFieldType,
	ApprovalEmptyPrompt,
	EnvVarInPrompt,
	RefInPrompt,
	NegatedApprovalBranch,
	ApprovalBypassable,
	ApprovalDataOverride,
	ApprovalIdentityConflict,
	DifferentApproverNoInitiator,
	ApprovalWithoutContext,
	ApproveStageInPipeline,
	RequestInputInLoopOrBranch,
	GateTimeoutIneffective,
	InputDefaultsMismatch,
}
