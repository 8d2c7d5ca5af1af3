package check

// conditionRules check when/condition expressions.
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
