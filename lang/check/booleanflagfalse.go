package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/source"
)

// BooleanFlagFalse reports switches whose written value means the opposite
// of what the command does with it.
var BooleanFlagFalse = &Analyzer{
	Name:     "boolean-flag-false",
	Severity: source.Error,
	Summary:  "a switch is given a value such as false that turns it on (or true that leaves it off)",
	Doc: `Most switches are read with JavaScript Boolean(): every non-empty value turns them
on, "false" and "0" included, so "sort --desc false" sorts in descending order. llm.invoke and
llm_task.invoke read false, 0 and no as off, but not "off". openclaw.agent --local is on only when
written bare: "--local true" and "--local=true" leave it off. exec --json takes no value since
lobster 2026.9.13: in "exec --json false" the word false is the program to run. To turn a switch
off, leave it out.`,
	Bad:  "- id: recent\n  pipeline: exec --json cat items.json | sort --key date --desc false",
	Good: "- id: recent\n  pipeline: exec --json cat items.json | sort --key date",
	Fix:  "remove the switch and its value (write the switch bare for openclaw.agent --local)",
	Run:  runBooleanFlagFalse,
}

func runBooleanFlagFalse(p *Pass) {
	plEachSwitch(p.Info, func(st *plStage, f *plFlag) {
		d, fl := f.Def, f.Flag
		if f.Freed != nil {
			if on, ok := plBoolWord(f.Freed.Text); ok && !on && len(st.Pos) > 0 && st.Pos[0] == f.Freed {
				p.Reportf(ast.SpanOf(fl), "\"--%s %s\": exec --%s takes no value since lobster 2026.9.13, so %q is the program exec runs; leave --%s out to turn it off",
					fl.Name, f.Freed.Text, fl.Name, f.Freed.Text, fl.Name)
			}
			return
		}
		if f.Value == nil || f.Value.Text == "" {
			return
		}
		on, ok := plBoolWord(f.Value.Text)
		if !ok {
			return
		}
		written := "--" + fl.Name + " " + f.Value.Text
		if fl.Eq {
			written = "--" + fl.Name + "=" + f.Value.Text
		}
		switch d.Truth {
		case commands.Truthy:
			if on {
				return
			}
			diag := p.Finding(ast.SpanOf(fl), "%q turns the flag on: %s reads any non-empty value as true; remove the flag to turn it off", written, st.Name)
			diag.Fixes = []source.Fix{{Message: fmt.Sprintf("Remove --%s", fl.Name), Edits: []source.Edit{p.Edit(plArgWithSpace(p, ast.SpanOf(fl)), "")}}}
			p.Report(diag)
		case commands.Parsed:
			if l := strings.ToLower(strings.TrimSpace(f.Value.Text)); on || l == "false" || l == "0" || l == "no" {
				return
			}
			diag := p.Finding(ast.SpanOf(f.Value), "%q turns the flag on: %s reads only false, 0 and no as off; write --%s=false or remove the flag", written, st.Name, fl.Name)
			diag.Fixes = []source.Fix{{Message: "Write false", Edits: []source.Edit{p.Edit(ast.SpanOf(f.Value), "false")}}}
			p.Report(diag)
		case commands.BareOnly:
			if !on {
				return
			}
			diag := p.Finding(ast.SpanOf(fl), "%q leaves the flag off: %s turns --%s on only when it is written bare", written, st.Name, fl.Name)
			diag.Fixes = []source.Fix{{Message: fmt.Sprintf("Write --%s bare", fl.Name), Edits: []source.Edit{p.Edit(ast.SpanOf(fl), "--"+fl.Name)}}}
			p.Report(diag)
		}
	})
}

// plArgWithSpace extends the span of an argument over the blanks before it
// on its line (or, at the start of a line, the blanks after it), so that
// deleting it leaves one separator.
func plArgWithSpace(p *Pass, sp source.Span) source.Span {
	src := p.File.Src.Content
	start := sp.Start
	for start > 0 && (src[start-1] == ' ' || src[start-1] == '\t') {
		start--
	}
	if start < sp.Start && start > 0 && src[start-1] != '\n' {
		return source.Span{Start: start, End: sp.End}
	}
	end := sp.End
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return source.Span{Start: sp.Start, End: end}
}
