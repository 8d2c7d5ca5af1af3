package check

// argEnvRules check args and environment. Their helpers are in
// argenvhelpers.go.
var argEnvRules = []*Analyzer{
	UndeclaredArg,
	ArgWithoutDefaultUsed,
	ShellDefaultOnArg,
	ArgsAsStepRef,
	ShellVarStepOutput,
	StructuredArgInTemplate,
	ArgDefNotMapping,
	UnusedArg,
	ArgEnvCollision,
	EnvNotMapping,
	EnvNonStringValue,
	EnvValueShellVar,
	InvalidEnvName,
	NonexistentLobsterEnv,
	EnvOverridesLobsterVar,
	CwdRelative,
	CwdNotExpanded,
	AbsolutePath,
}
