package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/plan"
)

// The text of lobster help graph.
const graphDoc = `Graph prints the steps of the workflow file as a graph, as the reference
does: one node per top-level step (a diamond for a step with an approval
gate), and edges "next" (file order), "stdin", "for_each" and "when: ..."
from the steps a field references. Labels have ${arg} substituted.

A graph is a preview: the file need not be clean. What "lobster check"
finds (errors and warnings) is printed on standard error and does not stop
it; only a file that the reference cannot load gets no graph.`

const graphMore = `Exit codes: 0 success (also with checker errors); 1 the file cannot be
read; 2 a usage error, a bad --format or --args-json, or a file the
reference cannot load.`

// graphFlags are the parsed arguments of lobster graph.
type graphFlags struct {
	file, format string
	argsJSON     *string
	help         bool
	unknown      string // the first word that looks like a flag and is none
}

// graphFlagSet is the flags of lobster graph, set in f when there is one.
func graphFlagSet() *flag.FlagSet { return graphFlagsOf(new(graphFlags)) }

func graphFlagsOf(f *graphFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("graph", flag.ContinueOnError)
	fs.StringVar(&f.file, "file", "", "the workflow `FILE` (.lobster, .yaml, .yml or .json)")
	fs.StringVar(&f.format, "format", plan.GraphFormats[0], "`"+strings.Join(plan.GraphFormats, "|")+"` the kind of graph")
	fs.Func("args-json", "the workflow's args, as a `JSON` object, for the labels", func(s string) error {
		f.argsJSON = &s
		return nil
	})
	return fs
}

// parseGraphArgs scans args as the reference does: --file, --format and
// --args-json take the next argument (or "=value"), -h and --help ask for
// help, and the first other argument is the path.
func parseGraphArgs(args []string) graphFlags {
	var f graphFlags
	fs := graphFlagsOf(&f)
	var positional string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-h" || a == "--help" {
			f.help = true
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		var fl *flag.Flag
		if bare, ok := strings.CutPrefix(name, "--"); ok {
			fl = fs.Lookup(bare)
		}
		switch {
		case fl != nil:
			if !hasValue {
				if i+1 >= len(args) {
					continue // a flag without a value is ignored
				}
				i++
				value = args[i]
			}
			fs.Set(fl.Name, value)
		case isFlagWord(a) && f.unknown == "":
			f.unknown = a
		case positional == "":
			positional = a
		}
	}
	if f.file == "" {
		f.file = positional
	}
	return f
}

func runGraph(args []string, stdout, stderr io.Writer) int {
	cmd := cmdNamed("graph")
	f := parseGraphArgs(args)
	if f.format == "" {
		f.format = plan.GraphFormats[0]
	}
	switch {
	case f.help:
		fmt.Fprint(stdout, helpPage(cmd))
		return exitOK
	case f.unknown != "":
		return usageError(stderr, cmd, "%s", unknownFlag(cmd, f.unknown))
	case f.file == "":
		return usageError(stderr, cmd, "graph requires a workflow file path (use --file <path>)")
	case !slices.Contains(plan.GraphFormats, f.format):
		return usageError(stderr, cmd, "graph --format must be one of: %s", strings.Join(plan.GraphFormats, ", "))
	}
	provided, err := argsObject("graph", f.argsJSON)
	if err != nil {
		return usageError(stderr, cmd, "%s", err)
	}
	p, code := buildPlan(f.file, provided, stderr)
	if p == nil {
		return code
	}
	text, err := p.Graph(f.format)
	if err != nil {
		textf(stderr, "lobster: %s\n", err)
		return exitFindings
	}
	if _, err := io.WriteString(stdout, source.Printable(text)); err != nil {
		textf(stderr, "lobster: writing output: %v\n", err)
		return exitInternal
	}
	return exitOK
}

// buildPlan reads and previews a workflow file for graph and plan. A
// file that cannot be read is an error and exit 1, as in the reference; the checker's findings go to standard error and, but for the
// load errors that make the reference reject the file (exit 2), do not
// stop the preview.
func buildPlan(path string, provided any, stderr io.Writer) (*plan.Plan, int) {
	src, err := engine.ReadWorkflow(path)
	if d, ok := parser.LimitDiagnostic(path, err); ok {
		source.WriteText(stderr, nil, []source.Diagnostic{d}, false)
		return nil, exitUsage
	}
	if err != nil {
		textf(stderr, "lobster: %s\n", err)
		return nil, exitFindings
	}
	return previewFile(path, src, provided, runOutput{stdout: io.Discard, stderr: stderr})
}
