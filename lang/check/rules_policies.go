package check

// policyRules check retry, timeout, on_error and cost (lint-rules.md §8).
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
