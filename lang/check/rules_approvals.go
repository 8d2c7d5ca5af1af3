package check

// approvalRules check approval gates and input steps (lint-rules.md §5).
var approvalRules = []*Analyzer{}
