package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// BatchSizeWithoutPause reports batch_size on a loop that never pauses.
var BatchSizeWithoutPause = &Analyzer{
	Name:     "batch-size-without-pause",
	Severity: source.Warning,
	Summary:  "batch_size on a for_each loop without pause_ms has no effect",
	Doc: `Loop items always run one at a time: ` + "`batch_size`" + ` adds no concurrency. Before item i the
runner sleeps ` + "`pause_ms`" + ` when pause_ms > 0, i > 0 and i % batch_size == 0, so without a
positive ` + "`pause_ms`" + ` the batch size changes nothing. A batch_size of 1 (the default) is not reported.`,
	Bad:  "- id: each\n  for_each: $list.json\n  batch_size: 5\n  steps:\n    - {id: send, run: ./send.sh}",
	Good: "- id: each\n  for_each: $list.json\n  batch_size: 5\n  pause_ms: 1000\n  steps:\n    - {id: send, run: ./send.sh}",
	Run:  runBatchSizeWithoutPause,
}

func runBatchSizeWithoutPause(p *Pass) {
	for _, si := range p.Info.Steps {
		s := si.Step
		if s.BatchSize == nil || s.ForEach == nil || s.Context != ast.TopStep {
			continue // not a loop: orphan-loop-fields
		}
		n, ok := polNum(s.BatchSize)
		if !ok || n <= 1 || n != float64(int64(n)) {
			continue // the default, or invalid-value
		}
		if s.PauseMs != nil {
			pause, ok := polNum(s.PauseMs)
			if !ok || pause != 0 {
				continue // pauses, or invalid-value
			}
			p.Reportf(ast.SpanOf(s.BatchSize.Value), "batch_size has no effect with pause_ms: 0: items always run one at a time, and batch_size only inserts a pause every N items; set pause_ms or remove batch_size")
			continue
		}
		p.Reportf(ast.SpanOf(s.BatchSize.Value), "batch_size has no effect without pause_ms: items always run one at a time, and batch_size only inserts a pause every N items; set pause_ms or remove batch_size")
	}
}
