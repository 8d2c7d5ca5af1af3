package check

// pipelineRules check pipeline text and shell text (lint-rules.md §7).
var pipelineRules = []*Analyzer{
	LobsterCommandInRun,
	ShimInRun,
	UnknownPipelineCommand,
	UnknownCommandFlag,
	MissingRequiredFlag,
	InvalidFlagValue,
	FlagSwallowsArgument,
	DashdashPositional,
	BooleanFlagFalse,
	EmptyQuotedArg,
	UnquotedEscape,
	IgnoredPositional,
	WhereExpressionInvalid,
	WhereOddOperator,
	ExecShellIgnoredArgs,
	ExecImplicitShell,
	TemplateFilterPipeUnquoted,
	StepRefInPipelineText,
	StderrMergedIntoOutput,
	FoldedScalarShell,
	PlainScalarShell,
	BashismInSh,
	ShellSyntax,
	Shellcheck,
}
