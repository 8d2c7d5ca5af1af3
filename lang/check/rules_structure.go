package check

// structureRules check the structure of the file: keys, dialects, ignored fields (lint-rules.md §1).
var structureRules = []*Analyzer{}
