// Package preview is the one way the front ends (the lobster command's
// plan, graph and run --dry-run, the language server's plan lenses, the
// MCP server's plan and graph tools) turn the text of a workflow file into
// a preview of what a run would do.
//
// A preview is for a file that is still being written, so it does not
// need a clean file: [Load] parses and checks the text, and plans it
// whenever the reference itself would load it, whatever the checker finds.
// Only load errors stop it: what the reference rejects the file for (YAML
// or JSON that does not parse, a file that is not a mapping with steps,
// its load-time validation; see [parser.IsLoadError]). The checker's
// findings come back next to the plan, for the front end to show (standard
// error, editor diagnostics, a tool result); a run, unlike a preview,
// stays validation-first and refuses a file with checker errors.
//
// A front end calls it like this:
//
//	res := preview.Load(name, src, preview.Options{Path: path, Args: args})
//	if res.Plan == nil {
//		// res.LoadErrors say why the reference rejects the file
//		// (res.Diags holds them too, with every other finding).
//	}
//	text := res.Plan.Text()            // or res.Plan.Graph("mermaid"), res.Plan.DryRun(), JSON
//	show(res.Diags)                    // the checker's findings, errors included
package preview

import (
	"context"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/config"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/plan"
)

// Options are the inputs of [Load] besides the text.
type Options struct {
	// Path is where the file is on disk: composed workflows are found
	// relative to its directory. "" for text that is not a file (an
	// editor buffer never saved, a tool call's text); the name given to
	// Load is used instead.
	Path string
	// Args are the provided args (a parsed --args-json: a
	// *jsvalue.Object), or nil for the defaults.
	Args any
	// ReadFile reads the composed workflows (for the checker's and the
	// planner's look at them); nil means parser.ReadFile.
	ReadFile func(path string) ([]byte, error)
	// Shellcheck is the shellcheck program the checker runs on shell
	// text; "" runs none. ShellcheckCache, if any, keeps its findings
	// from one call to the next.
	Shellcheck      string
	ShellcheckCache *check.ShellcheckCache
	// Config is the project configuration that applies to the file
	// (lang/config: rule severities, ignores, the host's commands and
	// environment, shellcheck settings); nil for none. Front ends find
	// it with config.Finder.For(path) (or config.Load(config.Find(dir))).
	// Its own diagnostics are not in the result: show them apart.
	Config *config.Config
	// NoCheck skips the checker's rules: Diags then holds the parser's
	// findings only. For front ends that show the checker's findings
	// some other way (the language server publishes them as
	// diagnostics); whether the file previews does not depend on it.
	NoCheck bool
}

// Result is a preview.
type Result struct {
	// File is the parsed file; never nil.
	File *ast.File
	// Diags are the findings on the file, sorted: the parser's and (unless
	// NoCheck) the checker's, suppression comments and the configuration
	// applied. They include the load errors.
	Diags []source.Diagnostic
	// LoadErrors are the findings for which the reference rejects the
	// file; when there are any, Plan is nil.
	LoadErrors []source.Diagnostic
	// Plan is the plan of the file, or nil when it has load errors. Its
	// own Errors are where the reference's dry-run would fail.
	Plan *plan.Plan
}

// Errors are the findings of error severity: with a Plan, those a run
// (validation first) would refuse the file for but a preview shows.
func (r *Result) Errors() []source.Diagnostic {
	var out []source.Diagnostic
	for _, d := range r.Diags {
		if d.Severity == source.Error {
			out = append(out, d)
		}
	}
	return out
}

// Load parses the text of a workflow file named name (a name ending in
// .json is read as strict JSON, anything else as YAML), checks it and,
// unless the reference would refuse to load it, plans it. It never fails
// otherwise and never panics on bad input: a file without load errors
// always gets a plan.
func Load(name string, src []byte, opts Options) *Result {
	path := opts.Path
	if path == "" {
		path = name
	}
	f, parseDiags := parser.Parse(name, src)
	res := &Result{File: f, LoadErrors: parser.LoadErrors(parseDiags)}
	if opts.NoCheck {
		res.Diags = opts.Config.Apply(path, parseDiags)
	} else {
		res.Diags, _ = opts.Config.Check(context.Background(), f, parseDiags, check.Options{Path: path, ReadFile: opts.ReadFile, Shellcheck: opts.Shellcheck, ShellcheckCache: opts.ShellcheckCache})
	}
	if len(res.LoadErrors) > 0 {
		return res
	}
	p, err := plan.Build(f, plan.Options{Args: opts.Args, Path: path, ReadFile: opts.ReadFile})
	if err != nil {
		// Without load errors the file is a workflow with a list of steps,
		// which Build always plans; should that ever fail, say so as a
		// load error rather than return nothing.
		d := source.Diagnostic{File: name, Range: f.Src.Range(0, 0), Severity: source.Error, Code: "not-a-workflow", Message: err.Error()}
		res.LoadErrors = []source.Diagnostic{d}
		res.Diags = append(res.Diags, d)
		source.Sort(res.Diags)
		return res
	}
	res.Plan = p
	return res
}
