package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/source"
)

// ShimFlags checks the flags of openclaw.invoke and clawd.invoke called
// from shell text against the pipeline command they run.
var ShimFlags = &Analyzer{
	Name:     "shim-flags",
	Severity: source.Error,
	Summary:  "an openclaw.invoke or clawd.invoke call in shell text lacks a required flag or passes an unknown one",
	Doc: `The openclaw.invoke and clawd.invoke executables run the pipeline command of the same name
with the words that follow, so they take its flags. Without --tool or --action the
call fails [verified: "openclaw.invoke requires --tool and --action"], which is an error here. A
flag the command does not read is ignored together with the word after it, taken as its value
[verified: --bogus 1 was ignored], which is a warning. Words that are not plain text (quoted,
or with a $ expansion or a reference) may hold anything: a call with such a word is not checked
for missing flags, and such a word is never taken for an unknown flag.`,
	Bad:  "- id: notify\n  run: openclaw.invoke --tool message --args-json '{\"text\":\"done\"}'",
	Good: "- id: notify\n  run: openclaw.invoke --tool message --action send --args-json '{\"text\":\"done\"}'",
	Run:  runShimFlags,
}

func runShimFlags(p *Pass) {
	plShellFields(p.Info, func(si *StepInfo, f *ast.Field, sh *ast.Shell) {
		text := sh.Scalar.Text
		if !strings.Contains(text, ".invoke") || !plMentionsCommand(text) {
			return
		}
		calls, _, ok := plShellCommands(text)
		if !ok {
			return // shell-syntax
		}
		for _, c := range calls {
			if !c.Cmd.Shim || c.Call == nil {
				continue
			}
			given := map[string]bool{}
			positional := false
			opaque := false
			args := c.Call.Args[1:]
			for i := 0; i < len(args); i++ {
				lit := args[i].Lit()
				if lit == "" {
					opaque = true
					continue
				}
				if !strings.HasPrefix(lit, "--") {
					positional = true
					continue
				}
				flagWord := args[i]
				name, value, hasValue := strings.Cut(lit[2:], "=")
				if !hasValue && i+1 < len(args) && !strings.HasPrefix(args[i+1].Lit(), "--") {
					i++
					value = args[i].Lit()
					hasValue = true
					if value == "" {
						value = "?" // not plain text: may hold anything
					}
				}
				fl := c.Cmd.Flag(name)
				if fl == nil {
					d := p.Finding(sh.Scalar.Map.Span(int(flagWord.Pos().Offset()), int(flagWord.End().Offset())),
						"%q is not a flag of %s: the command ignores it, together with the word after it", "--"+name, c.Name)
					if near := Suggest(name, c.Cmd.FlagNames()); near != "" {
						d.Message += fmt.Sprintf("; did you mean \"--%s\"?", near)
					}
					d.Severity = source.Warning
					p.Report(d)
					continue
				}
				if hasValue && value != "" {
					given[fl.Name] = true
				}
			}
			if opaque {
				continue
			}
			// One finding per call: the command reports its first missing
			// requirement, but the author needs to know them all.
			var missing []string
			var first string
			for _, r := range c.Cmd.Requires {
				if shimSatisfied(r, given, positional) {
					continue
				}
				if first == "" {
					first = plMessage(r.Error, c.Name, "")
				}
				missing = append(missing, plRequirementText(c.Cmd, r))
			}
			if len(missing) > 0 {
				p.Reportf(sh.Scalar.Map.Span(c.Start, c.End), "%q needs %s; the call fails with %q",
					c.Name, strings.Join(missing, " and "), first)
			}
		}
	})
}

// shimSatisfied reports whether the flags given meet one of a
// requirement's alternatives.
func shimSatisfied(r commands.Requirement, given map[string]bool, positional bool) bool {
	for _, a := range r.Any {
		if a == commands.PositionalArgs && positional || given[a] {
			return true
		}
	}
	return false
}
