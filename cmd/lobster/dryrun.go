package main

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/plan"
)

// runDryRun is `lobster run --dry-run` on a checked file: the reference's
// dry-run text on standard error and, in tool mode, an ok envelope with no
// output on standard output; nothing runs.
func runDryRun(out runOutput, file *ast.File, path string, provided any) int {
	p, err := plan.Build(file, plan.Options{Args: provided, Path: path})
	if err != nil {
		return out.fail(envelope.RuntimeError, err.Error(), exitFindings)
	}
	text, err := p.DryRun()
	if err != nil {
		return out.fail(envelope.RuntimeError, err.Error(), exitFindings)
	}
	fmt.Fprint(out.stderr, text)
	if out.tool {
		envelope.Write(out.stdout, envelope.Tool(envelope.Result{Status: envelope.StatusOK, Output: []any{}}))
	}
	return exitOK
}
