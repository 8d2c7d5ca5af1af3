package check

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// Options configure a run.
type Options struct {
	// Path is where the file is on disk, for resolving relative workflow:
	// paths (the directory of the calling file); "" when unknown.
	Path string
	// ReadFile reads files the workflow refers to; nil means parser.ReadFile.
	ReadFile func(path string) ([]byte, error)
	// Shellcheck is the shellcheck program that the shellcheck rule runs
	// on the shell text of run and command; "" turns the rule off.
	Shellcheck string
	// Info is the file's Info when the caller has built it already (the
	// language server's features share it); nil builds one. Its Commands
	// are used, not the Commands below.
	Info *Info
	// Commands are the pipeline commands the rules know (the built-in
	// ones and a project's host commands, lang/config); nil means the
	// built-in ones.
	Commands *commands.Registry
	// Env are environment variables the host sets for every step (a
	// project's configuration declares them): reading one is not reported.
	Env []string
	// ShellcheckExclude are more shellcheck codes not to report ("SC2086"
	// or "2086"), besides those the rule never reports.
	ShellcheckExclude []string
	// ShellcheckShell is the shell dialect (sh, bash, dash, ksh) of shell
	// text whose env sets no LOBSTER_SHELL: the shell the host runs steps
	// with. "" is the runtime's /bin/sh.
	ShellcheckShell string
	// ShellcheckCache keeps shellcheck's findings from one check to the
	// next (the language server's); nil runs shellcheck on every text.
	ShellcheckCache *ShellcheckCache
}

// envDeclared reports whether the host sets the variable name for every
// step (Options.Env).
func (o Options) envDeclared(name string) bool {
	for _, e := range o.Env {
		if e == name {
			return true
		}
	}
	return false
}

func (o Options) readFile(path string) ([]byte, error) {
	if o.ReadFile != nil {
		return o.ReadFile(path)
	}
	return parser.ReadFile(path)
}

// Run runs the analyzers over a parsed file and returns their findings
// together with the parser's, with suppression comments applied and sorted.
// An analyzer that panics is reported as an internal-error diagnostic; the
// others still run.
func Run(f *ast.File, parseDiags []source.Diagnostic, analyzers []*Analyzer) []source.Diagnostic {
	return RunWith(f, parseDiags, analyzers, Options{Path: f.Src.Name})
}

// RunWith is Run with options.
func RunWith(f *ast.File, parseDiags []source.Diagnostic, analyzers []*Analyzer, opts Options) []source.Diagnostic {
	diags, _ := RunContext(context.Background(), f, parseDiags, analyzers, opts)
	return diags
}

// RunContext is [RunWith] that stops when ctx is done: before each
// analyzer it checks ctx, and once ctx is done it runs no further analyzer
// and returns ctx's error with no findings. An analyzer already running is
// not interrupted. With a context that is never done it returns what
// RunWith returns, and a nil error.
//
// The language server uses it to stop checking a version of a document as
// soon as a newer one arrives.
func RunContext(ctx context.Context, f *ast.File, parseDiags []source.Diagnostic, analyzers []*Analyzer, opts Options) ([]source.Diagnostic, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	info := opts.Info
	if info == nil {
		info = NewInfo(f)
		info.Commands = opts.Commands
	}
	// The analyzers are independent and Info is safe for concurrent use:
	// run them on all CPUs, each into its own slot, then merge in order.
	rejected := len(parser.LoadErrors(parseDiags)) > 0
	found := make([][]source.Diagnostic, len(analyzers))
	subs := &subFiles{files: map[string]*subEntry{}}
	workers := min(runtime.GOMAXPROCS(0), max(1, len(analyzers)/8))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(analyzers); i += workers {
				if ctx.Err() != nil {
					return
				}
				if analyzers[i].Run != nil {
					found[i] = runOne(analyzers[i], f, info, opts, rejected, subs)
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	diags := append([]source.Diagnostic(nil), parseDiags...)
	for _, d := range found {
		diags = append(diags, d...)
	}
	diags = dropSuperseded(diags, analyzers)
	diags = applySuppressions(f, diags)
	diags = dropCascades(f, info, diags)
	source.Sort(diags)
	return diags, nil
}

// dropSuperseded removes findings refined by a more specific rule at the
// same place (see Analyzer.Supersedes).
func dropSuperseded(diags []source.Diagnostic, analyzers []*Analyzer) []source.Diagnostic {
	type key struct {
		code   string
		offset int
	}
	var refined map[key]bool
	for _, a := range analyzers {
		if len(a.Supersedes) == 0 {
			continue
		}
		for _, d := range diags {
			if d.Code != a.Name {
				continue
			}
			if refined == nil {
				refined = map[key]bool{}
			}
			for _, general := range a.Supersedes {
				refined[key{general, d.Range.Start.Offset}] = true
			}
		}
	}
	if refined == nil {
		return diags
	}
	kept := diags[:0]
	for _, d := range diags {
		if !refined[key{d.Code, d.Range.Start.Offset}] {
			kept = append(kept, d)
		}
	}
	return kept
}

func runOne(a *Analyzer, f *ast.File, info *Info, opts Options, rejected bool, subs *subFiles) (diags []source.Diagnostic) {
	defer func() {
		if r := recover(); r != nil {
			diags = append(diags, source.Diagnostic{
				File: f.Src.Name, Range: f.Src.Range(0, 0), Severity: source.Error, Code: "internal-error",
				Message: fmt.Sprintf("internal error in rule %s: %v\n%s", a.Name, r, firstFrames(debug.Stack())),
			})
		}
	}()
	pass := &Pass{Analyzer: a, File: f, Info: info, Options: opts, Rejected: rejected, subs: subs, report: func(d source.Diagnostic) { diags = append(diags, d) }}
	a.Run(pass)
	return diags
}

// firstFrames keeps the start of a stack for a bug report.
func firstFrames(stack []byte) string {
	const max = 800
	if len(stack) > max {
		return string(stack[:max]) + "…"
	}
	return string(stack)
}
