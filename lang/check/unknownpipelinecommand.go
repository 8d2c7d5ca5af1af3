package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/source"
)

// UnknownPipelineCommand reports stage names that are not in the registry.
var UnknownPipelineCommand = &Analyzer{
	Name:     "unknown-pipeline-command",
	Severity: source.Error,
	Summary:  "a pipeline stage names no built-in command",
	Doc: `Stage names are looked up in the command registry only when the stage is reached: the
run fails with "Unknown command: <name>" after the earlier stages have run and done their side
effects (a dry run checks every name first). Names are case-sensitive: the
grouping command is groupBy, not group_by. A program is run with exec ("exec jq ."). A name that
comes from a ${arg} or $id.path reference is only known at run time and is not checked.`,
	Bad:  "- id: groups\n  pipeline: exec --json cat issues.json | group_by --key label",
	Good: "- id: groups\n  pipeline: exec --json cat issues.json | groupBy --key label",
	Fix:  "replace the name with the suggested command when there is exactly one candidate; insert exec before a program name",
	Run:  runUnknownPipelineCommand,
}

func runUnknownPipelineCommand(p *Pass) {
	plEachStage(p.Info, func(st *plStage) {
		if st.NameRef || st.Cmd != nil || plAfterTemplateSplit(p, st) {
			return
		}
		name := st.Name
		sp := ast.SpanOf(st.Stage.Name)
		if name == "" {
			p.Reportf(sp, "empty command name: the run fails with \"Unknown command: \" when the stage is reached")
			return
		}
		d := p.Finding(sp, "unknown pipeline command %q; the run fails with \"Unknown command: %s\" when the stage is reached, after the earlier stages have run", name, name)
		near := plSuggestCommand(p.Info.Commands, name)
		switch {
		case near != "":
			d.Message += fmt.Sprintf("; did you mean %q?", near)
			if plPlainWord(p, st.Stage.Name) {
				d.Fixes = []source.Fix{{Message: fmt.Sprintf("Change %q to %q", name, near), Edits: []source.Edit{p.Edit(sp, near)}}}
			}
		case !strings.Contains(name, ".") && len(st.Flags) == 0:
			d.Message += fmt.Sprintf("; to run the program %q, write \"exec %s …\"", name, name)
			d.Fixes = []source.Fix{{Message: fmt.Sprintf("Run %q with exec", name), Edits: []source.Edit{p.Edit(source.Span{Start: sp.Start, End: sp.Start}, "exec ")}}}
		case !strings.Contains(name, "."):
			d.Message += fmt.Sprintf("; to run the program %q, write \"exec --shell '%s …'\" (exec would take its --flags itself)", name, name)
		}
		p.Report(d)
	})
}

// plSuggestCommand proposes a registered command for an unknown name: one
// that differs only in case or separators, else the closest by edit
// distance.
func plSuggestCommand(reg *commands.Registry, name string) string {
	key := plLooseKey(name)
	for _, n := range reg.Names() {
		if plLooseKey(n) == key {
			return n
		}
	}
	return Suggest(name, reg.Names())
}

// plAfterTemplateSplit reports whether the stage starts after a "|" that
// split a {{ … }} placeholder (template-filter-pipe-unquoted reports it) or
// that a backslash did not escape (unquoted-escape reports it).
func plAfterTemplateSplit(p *Pass, st *plStage) bool {
	if st.Index == 0 {
		return false
	}
	prev := p.Text(ast.SpanOf(st.Pipe.Stages[st.Index-1]))
	if strings.HasSuffix(prev, "\\") {
		return true
	}
	open := strings.LastIndex(prev, "{{")
	return open >= 0 && strings.LastIndex(prev, "}}") < open
}
