package main

import (
	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/envelope"
)

// runDryRun is `lobster run --dry-run`: a preview (previewFile), so the
// checker's errors are shown but do not stop it; then the reference's
// dry-run text on standard error and, in tool mode, an ok envelope with no
// output on standard output; nothing runs. Where the reference's dry-run
// fails (plan.Plan.Errors), it fails the same way.
func runDryRun(out runOutput, path string, provided any) int {
	src, err := engine.ReadWorkflow(path)
	if err != nil {
		return out.fail(envelope.ParseError, err.Error(), exitUsage)
	}
	p, code := previewFile(path, src, provided, out)
	if p == nil {
		return code
	}
	text, err := p.DryRun()
	if err != nil {
		return out.fail(envelope.RuntimeError, err.Error(), exitFindings)
	}
	textf(out.stderr, "%s", text)
	if out.tool {
		envelope.Write(out.stdout, envelope.Tool(envelope.Result{Status: envelope.StatusOK, Output: []any{}}))
	}
	return exitOK
}
