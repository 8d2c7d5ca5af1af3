package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/source"
)

// MissingRequiredFlag reports stages without an argument their command
// requires.
var MissingRequiredFlag = &Analyzer{
	Name:     "missing-required-flag",
	Severity: source.Error,
	Summary:  "a pipeline stage lacks a flag or positional argument its command requires",
	Doc: `Commands check their arguments when the stage runs and fail with their own message:
pick, where, state.get and state.set need their positional argument, groupBy needs
--key, diff.last a key, template some text, workflows.run a name, openclaw.invoke --tool and
--action, openclaw.agent a prompt and an agent or session, llm.invoke a prompt, exec a command.
An empty value ('' or --key=) counts as missing, and so does a bare flag that the command reads
only with a value (template --text with nothing after it). A stage with a ${arg} or $id.path
reference is not checked: the substituted text may hold the argument.`,
	Bad:  "- id: groups\n  pipeline: exec --json cat issues.json | groupBy",
	Good: "- id: groups\n  pipeline: exec --json cat issues.json | groupBy --key label",
	Run:  runMissingRequiredFlag,
}

func runMissingRequiredFlag(p *Pass) {
	plEachStage(p.Info, func(st *plStage) {
		if st.Cmd == nil || st.HasRef {
			return
		}
		for _, r := range st.Cmd.Requires {
			if plSatisfied(st, r) || plSwallowedPositional(st, r) {
				continue
			}
			p.Reportf(ast.SpanOf(st.Stage.Name), "%q needs %s; the run fails with %q",
				st.Name, plRequirementText(st.Cmd, r), plMessage(r.Error, st.Name, ""))
		}
	})
}

// plSwallowedPositional reports whether a requirement for a positional is
// missing only because a switch took the word as its value
// (flag-swallows-argument reports that).
func plSwallowedPositional(st *plStage, r commands.Requirement) bool {
	positional := false
	for _, a := range r.Any {
		positional = positional || a == commands.PositionalArgs
	}
	if !positional {
		return false
	}
	for i := range st.Flags {
		f := &st.Flags[i]
		if d := f.Def; d != nil && d.Type == commands.Bool && !f.Flag.Eq && f.Value != nil && f.Value.Text != "" {
			if _, isBool := plBoolWord(f.Value.Text); !isBool {
				return true
			}
		}
	}
	return false
}
