package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// IDsDifferInCase reports two step ids that differ only in letter case.
var IDsDifferInCase = &Analyzer{
	Name:     "ids-differ-in-case",
	Severity: source.Hint,
	Summary:  "two step ids differ only in letter case",
	Doc: "Ids are case-sensitive: `$Fetch.stdout` and `$fetch.stdout` name different " +
		"steps. Two ids that differ only in case are easy to confuse; give them distinct names.",
	Bad:  "- id: Fetch\n  run: ./fetch.sh --all\n- id: fetch\n  run: ./fetch.sh --new",
	Good: "- id: fetch_all\n  run: ./fetch.sh --all\n- id: fetch_new\n  run: ./fetch.sh --new",
	Run:  runIDsDifferInCase,
}

func runIDsDifferInCase(p *Pass) {
	var first map[string]*StepInfo
	for _, si := range p.Info.Steps {
		if si.ID == "" || si.Step.ID == nil {
			continue
		}
		if first == nil {
			first = make(map[string]*StepInfo, len(p.Info.Steps))
		}
		key := strings.ToLower(si.ID)
		prev, ok := first[key]
		if !ok {
			first[key] = si
			continue
		}
		if prev.ID == si.ID {
			continue
		}
		d := p.Finding(ast.SpanOf(si.Step.ID.Value), "ids %q and %q differ only in case; ids are case-sensitive", prev.ID, si.ID)
		d.Related = []source.Related{p.Related(ast.SpanOf(prev.Step.ID.Value), "the other id is defined here")}
		p.Report(d)
	}
}
