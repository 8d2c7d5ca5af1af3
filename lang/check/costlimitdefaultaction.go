package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// CostLimitDefaultAction reports a cost_limit without action.
var CostLimitDefaultAction = &Analyzer{
	Name:     "cost-limit-default-action",
	Severity: source.Info,
	Summary:  "cost_limit has no action, so it only warns",
	Doc: "Without `action`, `cost_limit` uses `warn`: the run goes on after the limit is " +
		"exceeded, and \"[WARN] Cost … exceeds limit …\" is printed to stderr at every later check (at least " +
		"twice). `action: stop` ends the run with \"Cost limit exceeded\" after the step that crossed the " +
		"limit. Write `action: warn` to keep warnings only and silence this finding.",
	Bad:  "cost_limit:\n  max_usd: 2",
	Good: "cost_limit:\n  max_usd: 2\n  action: stop",
	Fix:  "add action: stop (or action: warn, which keeps the current behaviour)",
	Run:  runCostLimitDefaultAction,
}

func runCostLimitDefaultAction(p *Pass) {
	c := polCostLimit(p.File)
	if c == nil || c.Action != nil || c.MaxUSD == nil {
		return
	}
	d := p.Finding(p.File.Workflow.CostLimit.Key.Span, "without \"action\", cost_limit only warns (\"warn\") and repeats the warning at every later check; use action: stop to halt the run, or write action: warn")
	if fix := polAddActionFixes(p, c); fix != nil {
		d.Fixes = fix
	}
	p.Report(d)
}

// polAddActionFixes inserts an action after the last field of cost_limit.
func polAddActionFixes(p *Pass, c *ast.CostLimit) []source.Fix {
	if len(c.Fields) == 0 {
		return nil
	}
	last := c.Fields[len(c.Fields)-1]
	src := p.File.Src
	var at int
	var prefix, quote string
	if p.File.JSON {
		quote = "\""
	}
	if c.Flow {
		at = last.Value.End()
		prefix = ", "
	} else {
		if s, ok := last.Value.(*ast.Scalar); !ok || s.Style == ast.LiteralBlock || s.Style == ast.FoldedBlock {
			return nil
		}
		first := src.Pos(c.Fields[0].Key.Span.Start)
		indent := src.LineText(first.Line)[:first.Col-1]
		for _, b := range indent {
			if b != ' ' && b != '\t' {
				return nil // the first key shares its line with other text
			}
		}
		end := src.Pos(last.Value.End())
		at = src.LineStart(end.Line) + len(src.LineText(end.Line))
		prefix = "\n" + string(indent)
	}
	fix := func(action string) source.Fix {
		text := prefix + quote + "action" + quote + ": " + quote + action + quote
		return source.Fix{Message: "Add action: " + action, Edits: []source.Edit{p.Edit(source.Span{Start: at, End: at}, text)}}
	}
	return []source.Fix{fix("stop"), fix("warn")}
}
