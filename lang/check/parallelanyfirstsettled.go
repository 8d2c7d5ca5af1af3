package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ParallelAnyFirstSettled explains parallel.wait: any.
var ParallelAnyFirstSettled = &Analyzer{
	Name:     "parallel-any-first-settled",
	Severity: source.Info,
	Summary:  "parallel wait: any takes the first branch to finish, even a failed one",
	Doc: `With ` + "`wait: any`" + ` the block takes the first branch to settle, whether it succeeded or failed:
if the fastest branch fails, the step fails with that branch's error, even when a slower
branch would have succeeded. The other branches are aborted, and only the winner's result is
stored.`,
	Bad:  "- id: race\n  parallel:\n    wait: any\n    branches:\n      - {id: primary, run: ./fetch-primary.sh}\n      - {id: mirror, run: ./fetch-mirror.sh}",
	Good: "- id: race\n  parallel:\n    wait: all\n    branches:\n      - {id: primary, run: ./fetch-primary.sh}\n      - {id: mirror, run: ./fetch-mirror.sh}",
	Run:  runParallelAnyFirstSettled,
}

func runParallelAnyFirstSettled(p *Pass) {
	for _, si := range p.Info.Top {
		if !polWaitsAny(si.Step) || len(si.Children) < 2 {
			continue
		}
		pl := polParallel(si.Step)
		p.Reportf(ast.SpanOf(pl.Wait.Value), "wait: any takes the first branch to finish, whether it succeeded or failed; a fast failure fails the step %q even if another branch would succeed", si.ID)
	}
}
