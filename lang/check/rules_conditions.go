package check

// conditionRules check when/condition expressions (lint-rules.md §4).
var conditionRules = []*Analyzer{
	ConditionArgRef,
	ConditionYAMLWord,
	ConditionType,
	TypeMismatchComparison,
	CompareToFalse,
	OrderingNonNumeric,
	NullVsMissing,
	StdoutEquality,
	NegationPrecedence,
	ConstantCondition,
}
