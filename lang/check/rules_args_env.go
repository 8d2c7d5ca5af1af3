package check

// argEnvRules check args and environment (lint-rules.md §3).
var argEnvRules = []*Analyzer{}
