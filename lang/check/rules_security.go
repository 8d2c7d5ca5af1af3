package check

// securityRules check security footguns.
var securityRules = []*Analyzer{
	ArgSplicedIntoShell,
	StepOutputSplicedIntoShell,
	StepOutputUnquotedInShell,
	HardcodedSecret,
	OpenclawTokenRemoteURL,
	LobsterShellOverride,
}
