package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// wellKnownEnv are environment variables a shell script commonly reads;
// "$HOME.json" in shell text is far more likely one of them than a step.
var wellKnownEnv = map[string]bool{
	"HOME": true, "PATH": true, "USER": true, "PWD": true, "OLDPWD": true, "SHELL": true, "TMPDIR": true,
	"TMP": true, "TEMP": true, "LANG": true, "LC_ALL": true, "TERM": true, "HOSTNAME": true, "LOGNAME": true,
	"EDITOR": true, "CI": true, "GITHUB_WORKSPACE": true, "XDG_CONFIG_HOME": true, "XDG_CACHE_HOME": true,
}

// looksLikeShellVar reports whether an unknown id in shell text reads more
// like a shell variable than a step: an upper-case name, a well-known
// variable, or a name set in an env block of the file.
func looksLikeShellVar(in *Info, id string) bool {
	if wellKnownEnv[id] || id == strings.ToUpper(id) && strings.ToUpper(id) != strings.ToLower(id) {
		return true
	}
	return in.EnvNames()[id]
}

// EnvNames are the names set in any env block of the file.
func (in *Info) EnvNames() map[string]bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.envNames != nil {
		return in.envNames
	}
	in.envNames = map[string]bool{}
	add := func(f *ast.Field) {
		if f == nil {
			return
		}
		if m, ok := f.Value.(*ast.TemplateMap); ok {
			for _, e := range m.Fields {
				in.envNames[e.Name()] = true
			}
		}
	}
	if w := in.File.Workflow; w != nil {
		add(w.Env)
	}
	for _, s := range in.Steps {
		add(s.Step.Env)
	}
	return in.envNames
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

// ForwardStepRef reports references to the step itself, a later step, or a
// sibling parallel branch.
var ForwardStepRef = &Analyzer{
	Name:     "forward-step-ref",
	Severity: source.Error,
	Summary:  "a reference names the step itself, a later step or a sibling branch, which has no result yet",
	Doc: `Steps run strictly in file order, and parallel branches see only the results from before
their block. In templates the reference stays in the text unchanged; in conditions and whole-value
stdin the run fails with "Unknown step reference".`,
	Bad:  "- id: report\n  run: echo \"$summary.stdout\"\n- id: summary\n  run: ./summarise.sh",
	Good: "- id: summary\n  run: ./summarise.sh\n- id: report\n  run: echo \"$summary.stdout\"",
	Run:  runForwardStepRef,
}

func runForwardStepRef(p *Pass) {
	for rs, r := range p.Info.StepRefs() {
		res := p.Info.ResolveSite(rs, r.ID)
		var why string
		switch res.Visibility {
		case Self:
			why = fmt.Sprintf("%q refers to its own step, which has no result while it runs", ast.RefText(r))
		case Later:
			why = fmt.Sprintf("%q runs later, so %q has no value yet", r.ID, ast.RefText(r))
		case SiblingBranch:
			why = fmt.Sprintf("%q is another branch of the same parallel step; branches see only results from before the block", r.ID)
		default:
			continue
		}
		if rs.Context.Strict() {
			why += "; the run fails with \"Unknown step reference\""
		} else {
			why += " (the text is passed on unchanged)"
		}
		d := p.Finding(r.IDSpan, "%s", why)
		if res.Target != nil && res.Target.Step.ID != nil {
			d.Related = []source.Related{p.Related(ast.SpanOf(res.Target.Step.ID.Value), "the step is defined here")}
		}
		p.Report(d)
	}
}

// OutOfScopeRef reports loop variables and sub-steps used outside their loop.
var OutOfScopeRef = &Analyzer{
	Name:     "out-of-scope-ref",
	Severity: source.Error,
	Summary:  "a loop variable or a for_each sub-step is referenced outside its loop",
	Doc:      "Sub-step results and loop variables exist only inside an iteration; outside, the loop's own result holds them: `$loop.json.N.<subId>`.",
	Bad:      "- id: each\n  for_each: $list.json\n  steps:\n    - {id: shout, run: 'echo \"$item.stdout\"'}\n- id: last\n  run: echo \"$shout.stdout\"",
	Good:     "- id: last\n  run: echo \"$each.json.0.shout\"",
	Run:      runOutOfScopeRef,
}

func runOutOfScopeRef(p *Pass) {
	for rs, r := range p.Info.StepRefs() {
		res := p.Info.ResolveSite(rs, r.ID)
		if res.Visibility != OutOfScope {
			continue
		}
		if res.LoopVar {
			p.Reportf(r.IDSpan, "%q exists only inside the for_each steps of %q", "$"+r.ID, res.Target.ID)
			continue
		}
		p.Reportf(r.IDSpan, "%q is a sub-step of loop %q and is not visible outside it; use \"$%s.json.<N>.%s\"", r.ID, res.Target.Parent.ID, res.Target.Parent.ID, r.ID)
	}
}
