package check

import (
	"github.com/lobsterdev/lobster/lang/source"
)

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
