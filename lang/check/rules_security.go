package check

// securityRules check security footguns (lint-rules.md §9).
var securityRules = []*Analyzer{
	ArgSplicedIntoShell,
	StepOutputSplicedIntoShell,
	StepOutputUnquotedInShell,
	HardcodedSecret,
	OpenclawTokenRemoteURL,
	LobsterShellOverride,
}
