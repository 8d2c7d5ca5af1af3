package check

import (
	"github.com/lobsterdev/lobster/lang/source"
)

// EnvVarInPrompt reports $LOBSTER_ARG_X and ${LOBSTER_ARG_X} in approval and
// input prompts, which no shell expands.
var EnvVarInPrompt = &Analyzer{
	Name:     "env-var-in-prompt",
	Severity: source.Warning,
	Summary:  "a prompt names an environment variable, but prompts are not expanded",
	Doc: `Approval and input prompts (and an approval's items and preview) are shown exactly as written:
neither ${name} nor $id.path is substituted there, and no shell expands
"$LOBSTER_ARG_X" or "${LOBSTER_ARG_X}", so the approver sees the variable's name instead of its
value [verified: the prompt "deploy $LOBSTER_ARG_NAME?" reached the approval request as written].
To show a value, give the step data to approve: a step before it prints the value, and the gate
takes it as stdin (stdin: $show.stdout), which the approval request carries as its items.`,
	Bad:  "args:\n  env: {default: staging}\nsteps:\n  - id: confirm\n    approval: \"Deploy to $LOBSTER_ARG_ENV?\"",
	Good: "args:\n  env: {default: staging}\nsteps:\n  - id: target\n    run: printf 'deploying to %s' \"$LOBSTER_ARG_ENV\"\n  - id: confirm\n    approval: Deploy?\n    stdin: $target.stdout",
	Run:  runEnvVarInPrompt,
}

func runEnvVarInPrompt(p *Pass) {
	for _, sc := range promptTexts(p.Info) {
		for _, m := range evPromptVar().FindAllStringIndex(sc.Text, -1) {
			p.Reportf(sc.Map.Span(m[0], m[1]), "%q is shown to the person as written: prompts are not expanded by a shell (nor templated), so they see the variable's name, not its value; to show the value, print it in a step before and pass that step's output as stdin", sc.Text[m[0]:m[1]])
		}
	}
}

// evPromptVar matches $LOBSTER_ARG_X, ${LOBSTER_ARG_X} and $LOBSTER_ARGS_JSON.
var evPromptVar = lazyRE(`\$\{(LOBSTER_ARGS?_[A-Za-z0-9_]*)\}|\$(LOBSTER_ARGS?_[A-Za-z0-9_]*)`)
