package check

// referenceRules check $id.path and ${…} references.
var referenceRules = []*Analyzer{
	UnknownStepRef,
	ForwardStepRef,
	OutOfScopeRef,
	NonexistentResultField,
	FieldNotProduced,
	ApprovedOnNonGate,
	HyphenInRefPath,
	RefAbsorbsSuffix,
	BracedRef,
	CwdStepRef,
	RefToConditionalStep,
	UnguardedFailedStepOutput,
	JSONOfNonJSON,
	IDNotReferenceable,
	IDShadowsShellVar,
	IDsDifferInCase,
}
