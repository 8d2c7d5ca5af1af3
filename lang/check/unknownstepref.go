package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// looksLikeShellVar reports whether an unknown id in shell text reads more
// like a shell variable than a step: an upper-case name, a well-known
// variable, or a name set in an env block of the file.
func looksLikeShellVar(in *Info, id string) bool {
	if wellKnownEnv[id] || id == strings.ToUpper(id) && strings.ToUpper(id) != strings.ToLower(id) {
		return true
	}
	return in.EnvNames()[id]
}

// UnknownStepRef reports $id.path references whose id names no step.
var UnknownStepRef = &Analyzer{
	Name:     "unknown-step-ref",
	Severity: source.Error,
	Summary:  "a $id.path reference names no step",
	Doc: `In templates (run, command, pipeline, env, workflow, workflow_args, stdin) the reference
leaves an unknown reference in the text, so the shell expands "$fecth" to nothing. In conditions
and whole-value stdin/for_each the run fails with "Unknown step reference". In shell text a name
that reads like a shell variable ("$HOME.json", "$TMPDIR.bak", or a name set in env) is reported as
a warning that explains both readings. A lower-case name followed by a path that is no result
field, far from every step id ("$human.response_type" in a jq program), is left alone: the text
reaches the program as written.`,
	Bad:  "- id: fetch\n  run: ./fetch.sh\n- id: notify\n  run: ./notify.sh \"$fecth.stdout\"",
	Good: "- id: fetch\n  run: ./fetch.sh\n- id: notify\n  run: ./notify.sh \"$fetch.stdout\"",
	Fix:  "replace the id with the suggested one when there is exactly one candidate",
	Run:  runUnknownStepRef,
}

func runUnknownStepRef(p *Pass) {
	for rs, r := range p.Info.StepRefs() {
		if p.Info.ResolveSite(rs, r.ID).Visibility != Unknown {
			continue
		}
		text := ast.RefText(r)
		near := p.Info.SuggestID(rs.Step, r.ID)
		var d source.Diagnostic
		switch {
		case rs.Context.Strict():
			d = p.Finding(r.IDSpan, "unknown step %q; the run fails with \"Unknown step reference: %s\"", r.ID, strings.TrimPrefix(text, "$"))
		case near == "" && looksLikeShellVar(p.Info, r.ID):
			d = p.Finding(r.IDSpan, "%q names no step: if it is a shell variable, the shell reads $%s followed by the text %q; if it is a step reference, there is no step %q",
				text, r.ID, text[1+len(r.ID):], r.ID)
			d.Severity = source.Warning
		case near == "" && !IsResultField(r.Path[0].Name):
			// "$human.response_type" in a jq or awk program: no step is
			// meant, and the text reaches the program as written.
			continue
		default:
			d = p.Finding(r.IDSpan, "unknown step %q in %q; the text is passed on unchanged and the shell expands \"$%s\" to nothing", r.ID, text, r.ID)
		}
		if near != "" {
			d.Message += fmt.Sprintf("; did you mean %q?", near)
			d.Fixes = []source.Fix{{Message: fmt.Sprintf("Change %q to %q", r.ID, near), Edits: []source.Edit{p.Edit(r.IDSpan, near)}}}
		}
		p.Report(d)
	}
}
