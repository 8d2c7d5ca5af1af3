package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// RefToAnyBranch reports references to a branch of a wait: any parallel step.
var RefToAnyBranch = &Analyzer{
	Name:     "ref-to-any-branch",
	Severity: source.Warning,
	Summary:  "a reference names a branch of a wait: any parallel step, which is stored only when it wins",
	Doc: `With ` + "`wait: any`" + ` only the winning branch's result is stored. A reference to a branch
that lost has no result: in templates the text stays as written (the shell then expands "$slow" to
nothing), in conditions and whole-value stdin the run fails with "Unknown step reference". The
parallel step's own json holds exactly the winner, so "$race.json.slow" is safe: it is empty when
"slow" lost.`,
	Bad:  "- id: race\n  parallel:\n    wait: any\n    branches:\n      - {id: fast, run: ./fast.sh}\n      - {id: slow, run: ./slow.sh}\n- id: use\n  run: echo \"$slow.json\"",
	Good: "- id: race\n  parallel:\n    wait: any\n    branches:\n      - {id: fast, run: ./fast.sh}\n      - {id: slow, run: ./slow.sh}\n- id: use\n  run: echo \"$race.stdout\"",
	Fix:  "read the branch through the parallel step's json (\"$race.json.slow\"), which is empty when the branch lost",
	Run:  runRefToAnyBranch,
}

func runRefToAnyBranch(p *Pass) {
	any := false
	for _, si := range p.Info.Top {
		if polWaitsAny(si.Step) && len(si.Children) > 1 {
			any = true
			break
		}
	}
	if !any {
		return
	}
	for i := range p.Info.Refs {
		rs := &p.Info.Refs[i]
		r, ok := rs.Ref.(*ast.StepRef)
		if !ok || rs.Context == InCwd {
			continue
		}
		res := p.Info.ResolveSite(rs, r.ID)
		if res.Visibility != Visible && res.Visibility != WorkflowLevel {
			continue
		}
		b := res.Target
		if b == nil || res.LoopVar || b.Parent == nil || b.Parent.Step.Parallel == nil ||
			!polWaitsAny(b.Parent.Step) || len(b.Parent.Children) < 2 {
			continue
		}
		race := b.Parent
		text := ast.RefText(r)
		then := "the text is left unchanged"
		if rs.Context.Strict() {
			then = "the run fails with \"Unknown step reference\""
		}
		d := p.Finding(r.IDSpan, "only the winning branch of %q (wait: any) is stored; %q has no value when %q lost (%s)", race.ID, text, b.ID, then)
		if r.Path[0].Name == "json" && race.ID != "" {
			safe := fmt.Sprintf("%s.json.%s", race.ID, b.ID)
			d.Message += fmt.Sprintf("; read \"$%s\", which is empty when %q lost", safe, b.ID)
			d.Fixes = []source.Fix{{
				Message: fmt.Sprintf("Read \"$%s\"", safe),
				Edits:   []source.Edit{p.Edit(source.Span{Start: r.IDSpan.Start, End: r.Path[0].End()}, safe)},
			}}
		}
		if b.Step.ID != nil {
			d.Related = []source.Related{p.Related(ast.SpanOf(b.Step.ID.Value), "the branch is defined here")}
		}
		p.Report(d)
	}
}
