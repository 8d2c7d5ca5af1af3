package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// RefInPrompt reports ${arg} and $id.path in approval and input prompts,
// which are shown as written: nothing substitutes them there.
var RefInPrompt = &Analyzer{
	Name:     "ref-in-prompt",
	Severity: source.Warning,
	Summary:  "a prompt holds ${arg} or $id.path, but prompts are not templated",
	Doc: `Approval and input prompts, and an approval's preview, are shown to the person exactly as
written: unlike run, pipeline or env, they get neither ${arg} nor $id.path substitution, so
"Deploy $build.json.version to ${env}?" reaches the approver with those words in it [verified:
the approval request carried the prompt unchanged]. Only text that names a declared arg or a
step (or a result field: $x.stdout, $x.json…) is reported.

To show values in an approval's question, let the data say it: a step before the gate prints a
JSON object with a "prompt" (and "items" or "preview" if you like), and the gate takes it as
stdin; a "prompt" in the gate's data replaces the configured one. For an input gate, print the
values in a step before and pass its output as stdin: the request carries it as the subject.`,
	Bad: "args:\n  env: {default: staging}\nsteps:\n  - id: build\n    run: echo '{\"version\":\"1.4\"}'\n" +
		"  - id: confirm\n    approval: \"Deploy $build.json.version to ${env}?\"",
	Good: "args:\n  env: {default: staging}\nsteps:\n  - id: build\n" +
		"    run: echo '{\"version\":\"1.4\"}' | jq --arg env \"$LOBSTER_ARG_ENV\" '{prompt: \"Deploy \\(.version) to \\($env)?\", items: [.]}'\n" +
		"  - id: confirm\n    approval: true\n    stdin: $build.json",
	Run: runRefInPrompt,
}

func runRefInPrompt(p *Pass) {
	for si, sc := range promptTexts(p.Info) {
		text := sc.Text
		for r := range parser.ScanText(text) {
			span := sc.Map.Span(r.Start, r.End)
			switch r.Kind {
			case parser.ArgText:
				if p.Info.ArgBy[r.Name] == nil {
					continue
				}
				p.Reportf(span, "%q is shown to the person as written: prompts are not templated, so the arg's value is not put in; to show it, have a step before print the question (as JSON {\"prompt\": …} for an approval) and pass it as this gate's stdin", text[r.Start:r.End])
			case parser.StepText, parser.BracedText:
				seg, _, _ := strings.Cut(r.Path, ".")
				if p.Info.Resolve(si, r.Name).Visibility == Unknown && !IsResultField(seg) {
					continue
				}
				p.Reportf(span, "%q is shown to the person as written: prompts are not templated, so the step's output is not put in; to show it, pass it as this gate's stdin (for an approval, JSON with a \"prompt\" replaces this one)", text[r.Start:r.End])
			}
		}
	}
}
