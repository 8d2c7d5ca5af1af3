package check

// conditionRules check when/condition expressions (lint-rules.md §4).
var conditionRules = []*Analyzer{}
