package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// SubworkflowInvalid reports children that do not load.
var SubworkflowInvalid = &Analyzer{
	Name:     "subworkflow-invalid",
	Severity: source.Error,
	Summary:  "the child workflow of a workflow: step has errors that make it fail",
	Doc: `The child of a workflow: step is loaded and validated afresh each time the step runs,
so a child that does not load (YAML errors, load-time validation, a file over the size
limit) fails the calling step, and a condition or pipeline of the child that does not parse fails it
when it runs. The finding stands on the workflow: value and lists the child's errors as related
locations in the child file.`,
	Bad:  "steps:\n  - id: sub\n    workflow: child.lobster\n-- child.lobster --\nsteps:\n  - name: hello\n    run: echo hello\n",
	Good: "steps:\n  - id: sub\n    workflow: child.lobster\n-- child.lobster --\nsteps:\n  - id: hello\n    run: echo hello\n",
	Run:  runSubworkflowInvalid,
}

// runTimeParserCodes are parser errors that fail a step when it runs, not the
// load of the file.
var runTimeParserCodes = map[string]bool{"condition-syntax": true, "pipeline-parse-error": true}

// maxRelated bounds the related locations of one finding.
const maxRelated = 10

func runSubworkflowInvalid(p *Pass) {
	calls := subCalls(p.Info, p.Options.Path)
	if len(calls) == 0 {
		return
	}
	for _, c := range calls {
		child := p.sub(c.File)
		if d, ok := parser.LimitDiagnostic(child.Name, child.Err); ok {
			f := p.Finding(ast.SpanOf(c.Value), "sub-workflow %q%s is not read: %s; the step fails when it loads the child",
				c.Value.Scalar.Text, defaultedNote(c), d.Message)
			if len(c.Defaulted) > 0 {
				f.Severity = source.Warning
			}
			p.Report(f)
			continue
		}
		if child.Err != nil {
			continue // subworkflow-missing
		}
		var errs []source.Diagnostic
		first := -1
		for _, d := range child.Diags {
			if d.Severity != source.Error || d.Code == "limit-exceeded" || d.Code == "internal-error" {
				continue
			}
			if first < 0 && !runTimeParserCodes[d.Code] {
				first = len(errs)
			}
			errs = append(errs, d)
		}
		if len(errs) == 0 {
			continue
		}
		how := "the step fails when it loads the child"
		if first < 0 {
			first = 0
			how = "the child fails when it runs that step"
		}
		e := errs[first]
		more := ""
		if n := len(errs) - 1; n == 1 {
			more = " (and 1 more error)"
		} else if n > 1 {
			more = fmt.Sprintf(" (and %d more errors)", n)
		}
		d := p.Finding(ast.SpanOf(c.Value), "sub-workflow %q%s is invalid: %s:%d:%d: %s%s; %s",
			c.Value.Scalar.Text, defaultedNote(c), child.Name, e.Range.Start.Line, e.Range.Start.Col, e.Message, more, how)
		if len(c.Defaulted) > 0 {
			d.Severity = source.Warning
		}
		for i, ce := range errs {
			if i == maxRelated {
				break
			}
			d.Related = append(d.Related, source.Related{File: ce.File, Range: ce.Range, Message: ce.Message + " [" + ce.Code + "]"})
		}
		p.Report(d)
	}
}
