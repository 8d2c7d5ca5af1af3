package main

import (
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/plan"
	"github.com/lobsterdev/lobster/runtime/preview"
)

// previewFile previews the text of a workflow file for plan, graph and
// run --dry-run (runtime/preview): the checker's errors and warnings go to
// standard error and do not stop it; only load errors (what the reference
// rejects the file for) do, reported as a run reports checker errors
// (human mode: the lobster check text; tool mode: a validation_error
// envelope), with exit 2. The plan is nil then.
func previewFile(path string, src []byte, provided any, out runOutput) (*plan.Plan, int) {
	cfg := projectConfig(path, out.stderr)
	res := preview.Load(path, src, preview.Options{Path: path, Args: provided, Config: cfg})
	files := map[string]*source.File{path: res.File.Src}
	var shown, errs []source.Diagnostic
	for _, d := range res.Diags {
		if d.Severity == source.Error || d.Severity == source.Warning {
			shown = append(shown, d)
		}
		if d.Severity == source.Error {
			errs = append(errs, d)
		}
	}
	if res.Plan == nil {
		if out.tool {
			envelope.Write(out.stdout, envelope.Validation(errs))
			return nil, exitUsage
		}
		source.WriteText(out.stderr, files, shown, false)
		return nil, exitUsage
	}
	if len(shown) > 0 {
		source.WriteText(out.stderr, files, shown, false)
	}
	if n := len(errs); n > 0 {
		textf(out.stderr, "lobster: %s has %d error(s) found by the checker, shown above: a run refuses it until they are fixed; this preview shows what it would do\n", path, n)
	}
	return res.Plan, exitOK
}
