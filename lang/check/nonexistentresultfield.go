package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// NonexistentResultField reports $id.F where F is not a field of a step
// result (or, for a loop variable, not json or stdout).
var NonexistentResultField = &Analyzer{
	Name:     "nonexistent-result-field",
	Severity: source.Error,
	Summary:  "a reference reads a field that step results do not have",
	Doc: `A step result has only the fields ` + "`id`, `stdout`, `json`, `approved`, `approvedBy`, `initiatedBy`, " +
		"`subject`, `response`, `skipped`, `error` and `errorMessage`" + `. There is no
` + "`exitCode`, `stderr`, `status`, `success`, `output` or `result`" + `: a path that starts with any other
name is undefined, so it renders as an empty string in text, gives no input to stdin and tests
false in conditions. The keys of a step's JSON output are under ` + "`json`" + `: write
` + "`$fetch.json.title`" + `, not ` + "`$fetch.title`" + `. To react to a failure, set ` + "`on_error: continue`" + ` on
the step and test ` + "`$x.error`" + `; stderr of a successful shell step is discarded.

A loop variable (` + "`$item`, `$index` or the names set by `item_var`/`index_var`" + `) has only
` + "`json`" + ` (the item) and ` + "`stdout`" + ` (its text): ` + "`$item.name`" + ` is always empty, ` + "`$item.json.name`" + ` is the
item's field.`,
	Bad:  "- id: deploy\n  run: ./deploy.sh\n- id: notify\n  when: $deploy.success\n  run: ./notify.sh",
	Good: "- id: deploy\n  run: ./deploy.sh\n  on_error: continue\n- id: notify\n  when: '!$deploy.error'\n  run: ./notify.sh",
	Fix:  "change a misspelt field to the result field it resembles, or insert `json.` before a name that reads like a key of the step's JSON output",
	Run:  runNonexistentResultField,
}

// refExitStatusNames read as the outcome of a command.
var refExitStatusNames = map[string]bool{
	"exitCode": true, "exit_code": true, "exitcode": true, "code": true, "returncode": true, "returnCode": true,
	"rc": true, "status": true, "success": true, "succeeded": true, "ok": true, "failed": true, "failure": true,
	"exitStatus": true, "exit_status": true, "passed": true,
}

// refOutputNames read as the output of a command.
var refOutputNames = map[string]bool{
	"output": true, "result": true, "out": true, "text": true, "value": true, "data": true, "content": true,
	"body": true, "results": true, "outputs": true,
}

func runNonexistentResultField(p *Pass) {
	forEachResolvedStepRef(p.Info, func(_ *RefSite, r *ast.StepRef) bool { return !refIsLoopVarField(r.Path[0].Name) }, func(rs *RefSite, r *ast.StepRef, res Resolution) {
		seg := r.Path[0]
		name := seg.Name
		if res.LoopVar {
			if refIsLoopVarField(name) {
				return
			}
			refReportLoopVarField(p, rs, r, res)
			return
		}
		if IsResultField(name) {
			return
		}
		text := ast.RefText(r)
		var b strings.Builder
		fmt.Fprintf(&b, "step results have no %q field (they have stdout, json, approved, skipped, error, errorMessage, …), so %q %s",
			name, text, refUndefinedEffect(rs, res))
		var fix *source.Fix
		jsonFix := func() *source.Fix {
			return &source.Fix{
				Message: fmt.Sprintf("Read %q from the JSON output", name),
				Edits:   []source.Edit{p.Edit(source.Span{Start: seg.Pos(), End: seg.Pos()}, "json.")},
			}
		}
		near := refSuggestResultField(name)
		switch {
		case name == "stderr":
			b.WriteString("; stderr of a successful shell step is discarded (it appears only in the error message of a failed step): redirect it with 2>&1 to read it from stdout")
		case refExitStatusNames[name]:
			fmt.Fprintf(&b, "; to test whether the step failed, set on_error: continue on %q and test \"$%s.error\" (or, if %q is a key of its JSON output, write \"$%s.json.%s\")",
				r.ID, r.ID, name, r.ID, strings.TrimPrefix(text, "$"+r.ID+"."))
		case refOutputNames[name]:
			fmt.Fprintf(&b, "; use \"$%s.stdout\" for the text or \"$%s.json\" for the parsed JSON output", r.ID, r.ID)
		case near != "":
			fmt.Fprintf(&b, "; did you mean %q?", "$"+r.ID+"."+near)
			fix = &source.Fix{Message: fmt.Sprintf("Change %q to %q", name, near), Edits: []source.Edit{p.Edit(ast.SpanOf(seg), near)}}
		case refIsSubStepOf(res.Target, name):
			fmt.Fprintf(&b, "; the results of sub-step %q are in \"$%s.json.<N>.%s\"", name, r.ID, name)
		case refIsBranchOf(res.Target, name):
			fmt.Fprintf(&b, "; the result of branch %q is \"$%s.json\" (or \"$%s.json.%s\")", name, name, r.ID, name)
			fix = jsonFix()
		default:
			fmt.Fprintf(&b, "; if %q is a key of the step's JSON output, write \"$%s.json.%s\"", name, r.ID, strings.TrimPrefix(text, "$"+r.ID+"."))
			fix = jsonFix()
		}
		d := p.Finding(ast.SpanOf(seg), "%s", b.String())
		if fix != nil {
			d.Fixes = []source.Fix{*fix}
		}
		p.Report(d)
	})
}

// refReportLoopVarField reports $item.name: a loop variable has only json and
// stdout.
func refReportLoopVarField(p *Pass, rs *RefSite, r *ast.StepRef, res Resolution) {
	seg := r.Path[0]
	text := ast.RefText(r)
	rest := strings.TrimPrefix(text, "$"+r.ID+".")
	d := p.Finding(ast.SpanOf(seg), "loop variable %q has only \"json\" (the item) and \"stdout\", so %q %s; write \"$%s.json.%s\"",
		"$"+r.ID, text, refUndefinedEffect(rs, res), r.ID, rest)
	d.Fixes = []source.Fix{{
		Message: fmt.Sprintf("Read %q from the item", seg.Name),
		Edits:   []source.Edit{p.Edit(source.Span{Start: seg.Pos(), End: seg.Pos()}, "json.")},
	}}
	p.Report(d)
}

// refSuggestResultField proposes the result field a name misspells: a case
// variant or a name within edit distance 2.
func refSuggestResultField(name string) string {
	for _, f := range ResultFields {
		if strings.EqualFold(f, name) {
			return f
		}
	}
	return Suggest(name, ResultFields)
}

func refIsSubStepOf(t *StepInfo, id string) bool {
	if t == nil || !t.IsLoop() {
		return false
	}
	for _, c := range t.Children {
		if c.ID == id {
			return true
		}
	}
	return false
}

func refIsBranchOf(t *StepInfo, id string) bool {
	if t == nil || t.Step.Parallel == nil {
		return false
	}
	for _, c := range t.Children {
		if c.ID == id {
			return true
		}
	}
	return false
}
