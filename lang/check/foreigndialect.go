package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/source"
)

// ForeignDialect reports a file that is written in a known dialect other than
// the reference's, once per file.
var ForeignDialect = &Analyzer{
	Name:     "foreign-dialect",
	Severity: source.Warning,
	Summary:  "the file is written in another workflow dialect that Lobster does not understand",
	Doc: `Almost half of the real-world files named ` + "`.lobster`" + ` are written for other tools, and
the reference reads them with its own rules: unknown keys are silently ignored, ` + "`{{ }}`" + ` and
` + "`${{ }}`" + ` reach the commands as literal text. The formats recognised, by the syntax they use:

- a top-level ` + "`workflow:`" + ` mapping (a graph of agents and gates) and no ` + "`steps`" + `. The reference
  rejects the file ("Workflow file requires a non-empty steps array"), so this finding is an error
  and replaces ` + "`not-a-workflow`" + `.
- the syntax of GitHub Actions workflows: a list of ` + "`inputs`" + `, ` + "`output_mappings`" + `, steps named
  with ` + "`name`" + ` that declare ` + "`depends_on`" + `, or ` + "`${{ … }}`" + ` expressions (GitHub Actions expression
  syntax; three or more, or one with any of the other signs; one or two in an ordinary file are
  ` + "`mustache-syntax`" + `).
- top-level ` + "`inputs`" + ` or ` + "`output`" + ` together with ` + "`version`" + `, or with both step-level ` + "`args`" + ` and
  ` + "`output`" + `. The file loads, but args are not declared, step args are not passed and outputs are
  not produced.

The finding is reported once, and the per-key findings that the format explains
(` + "`unknown-key`, `metadata-key`, `prefer-canonical-key`, `mustache-syntax`" + `) are not reported
for the file; the message gives their number. A lone ` + "`{{ name }}`" + ` in an otherwise ordinary file is
` + "`mustache-syntax`" + `.`,
	Bad:  "workflow:\n  name: feature\n  steps:\n    - name: plan\n      agent: planner\n      depends_on: []",
	Good: "name: feature\nsteps:\n  - id: plan\n    run: ./plan.sh",
	Run:  runForeignDialect,
	// A file with a top-level workflow: graph has no steps; the parser's not-a-workflow finding is
	// reported at the same key.
	Supersedes: []string{"not-a-workflow"},
}

func runForeignDialect(p *Pass) {
	d := detectDialect(p.Info)
	if d.name == "" {
		return
	}
	var msg string
	ev := strings.Join(d.evidence, ", ")
	switch d.name {
	case "workflow-graph":
		msg = fmt.Sprintf("this file is written for another workflow format (%s), which Lobster does not run: a workflow needs a top-level \"steps\" list (the reference says \"Workflow file requires a non-empty steps array\")", ev)
	case "github-actions":
		msg = fmt.Sprintf("this file uses the syntax of GitHub Actions workflows (%s), which Lobster does not evaluate: steps need an \"id\" and run in file order, args are declared under \"args\" and used as ${name}, and step results are read as $id.stdout or $id.json", ev)
	default:
		msg = fmt.Sprintf("this file uses keys of another workflow format (%s), which the reference ignores: args are not declared, step args are not passed and outputs are not produced; declare args under \"args\", put values in the command text and read results as $id.stdout or $id.json", ev)
	}
	n := 0
	at := p.File.Src.RangeOf(d.at).Start.Offset
	count := func(x source.Diagnostic) {
		if x.Range.Start.Offset != at { // the key that shows the dialect is not "further"
			n++
		}
	}
	collectUnknownKeys(p, count)
	collectMetadataKeys(p, count)
	collectCanonicalKeys(p, count)
	collectMustache(p, count)
	switch n {
	case 0:
	case 1:
		msg += "; 1 further finding suppressed"
	default:
		msg += fmt.Sprintf("; %d further findings suppressed", n)
	}
	diag := p.Finding(d.at, "%s", msg)
	if d.name == "workflow-graph" {
		diag.Severity = source.Error // the reference rejects the file
	}
	p.Report(diag)
}
