package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/source"
)

// FlagSwallowsArgument reports switches that take the next word as their
// value where the command needs that word as a positional.
var FlagSwallowsArgument = &Analyzer{
	Name:     "flag-swallows-argument",
	Severity: source.Error,
	Summary:  "a switch takes the next word as its value, so the command loses a positional argument",
	Doc: `A flag written without "=" takes the next word as its value unless that word starts with
"--", even when the flag is a switch: "llm.invoke --refresh 'Summarise this'" sets
refresh to the prompt text and leaves no prompt, so the run fails. Since lobster 2026.9.13 exec's
--json is the one exception: "exec --json 'echo [1,2,3]'" works. openclaw.agent --local is on only
when written bare, so any word after it also turns it off. Write the switch as --flag=true or put
it last.`,
	Bad:  "- id: fresh\n  pipeline: llm.invoke --refresh 'Summarise the report'",
	Good: "- id: fresh\n  pipeline: llm.invoke --refresh=true 'Summarise the report'",
	Fix:  "rewrite --flag word as --flag=true word",
	Run:  runFlagSwallowsArgument,
}

func runFlagSwallowsArgument(p *Pass) {
	plEachSwitch(p.Info, func(st *plStage, f *plFlag) {
		d := f.Def
		if d.Standalone || f.Flag.Eq || f.Value == nil || f.Value.Text == "" {
			return
		}
		if _, isBool := plBoolWord(f.Value.Text); isBool {
			return // boolean-flag-false
		}
		word := f.Value.Text
		name := f.Flag.Name
		if d.Truth == commands.BareOnly {
			p.Reportf(ast.SpanOf(f.Flag), "\"--%s\" takes the next word %q as its value, and %s turns --%s on only when it is written bare: the flag is off and %q is lost; put --%s last",
				name, word, st.Name, name, word, name)
			return
		}
		if !st.Cmd.ReadsPositionals() || st.UsedPositionals() == 0 {
			return
		}
		var what string
		if r, ok := plLostRequirement(st, f.Value); ok {
			what = fmt.Sprintf("so %q is not the %s (the run fails with %q)", word, plPositionalName(st.Cmd), plMessage(r.Error, st.Name, ""))
		} else {
			what = fmt.Sprintf("so %s does not get %q as a positional argument", st.Name, word)
		}
		d2 := p.Finding(ast.SpanOf(f.Flag), "\"--%s\" takes the next word as its value, %s; write \"--%s=true\" or put --%s last", name, what, name, name)
		d2.Fixes = []source.Fix{{Message: fmt.Sprintf("Write --%s=true", name), Edits: []source.Edit{p.Edit(source.Span{Start: f.Flag.NameSpan.End, End: f.Flag.NameSpan.End}, "=true")}}}
		p.Report(d2)
	})
}

// plLostRequirement reports the requirement that only the swallowed word
// would satisfy as a positional.
func plLostRequirement(st *plStage, swallowed *ast.Word) (commands.Requirement, bool) {
	for _, r := range st.Cmd.Requires {
		positional := false
		for _, a := range r.Any {
			positional = positional || a == commands.PositionalArgs
		}
		if positional && !plSatisfied(st, r) {
			return r, true
		}
	}
	return commands.Requirement{}, false
}

// plPositionalName names a command's first positional for a message.
func plPositionalName(c *commands.Command) string {
	if len(c.Positionals) == 0 {
		return "argument"
	}
	return c.Positionals[0].Name
}
