package check

// pipelineRules check pipeline text and shell text (lint-rules.md §7).
var pipelineRules = []*Analyzer{}
