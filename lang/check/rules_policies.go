package check

// policyRules check retry, timeout, on_error and cost.
var policyRules = []*Analyzer{
	RetryMaxOne,
	RetrySideEffect,
	MaxDelayBelowDelay,
	LLMStepWithoutTimeout,
	CostLimitMaxUSDType,
	CostLimitDefaultAction,
	CostLimitWithoutLLM,
	CostLimitUnpricedModel,
}
