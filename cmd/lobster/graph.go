package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/plan"
)

const graphHelp = `usage: lobster graph [--file] PATH [--format mermaid|dot|ascii] [--args-json JSON]

Graph prints the steps of the workflow file as a graph, as the reference
does: one node per top-level step (a diamond for a step with an approval
gate), and edges "next" (file order), "stdin", "for_each" and "when: ..."
from the steps a field references. Labels have ${arg} substituted.

A graph is a preview: the file need not be clean. What "lobster check"
finds (errors and warnings) is printed on standard error and does not stop
it; only a file that the reference cannot load gets no graph.

  --file PATH        the workflow file (.lobster, .yaml, .yml or .json)
  --format FORMAT    mermaid (the default), dot or ascii
  --args-json JSON   the workflow's args, as a JSON object, for the labels

Exit codes: 0 success (also with checker errors); 1 the file cannot be
read; 2 a usage error, a bad --format or --args-json, or a file the
reference cannot load.
`

// graphFlags are the parsed arguments of lobster graph.
type graphFlags struct {
	file, format string
	argsJSON     *string
	help         bool
}

// parseGraphArgs scans args as the reference does: --file, --format and
// --args-json take the next argument (or "=value"), -h and --help ask for
// help, and the first other argument is the path.
func parseGraphArgs(args []string) graphFlags {
	var f graphFlags
	var positional string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-h" || a == "--help" {
			f.help = true
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		switch name {
		case "--file", "--format", "--args-json":
			if !hasValue {
				if i+1 >= len(args) {
					continue // a flag without a value is ignored
				}
				i++
				value = args[i]
			}
			switch name {
			case "--file":
				f.file = value
			case "--format":
				f.format = value
			default:
				f.argsJSON = &value
			}
		default:
			if positional == "" {
				positional = a
			}
		}
	}
	if f.file == "" {
		f.file = positional
	}
	return f
}

func runGraph(args []string, stdout, stderr io.Writer) int {
	f := parseGraphArgs(args)
	if f.help {
		fmt.Fprint(stdout, graphHelp)
		return exitOK
	}
	if f.file == "" {
		fmt.Fprintln(stderr, "graph requires a workflow file path (use --file <path>)")
		return exitUsage
	}
	format := f.format
	if format == "" {
		format = plan.GraphFormats[0]
	}
	if !slices.Contains(plan.GraphFormats, format) {
		fmt.Fprintf(stderr, "graph --format must be one of: %s\n", strings.Join(plan.GraphFormats, ", "))
		return exitUsage
	}
	provided, err := argsObject("graph", f.argsJSON)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
	}
	p, code := buildPlan(f.file, provided, stderr)
	if p == nil {
		return code
	}
	text, err := p.Graph(format)
	if err != nil {
		fmt.Fprintf(stderr, "Error: %s\n", err)
		return exitFindings
	}
	if _, err := io.WriteString(stdout, text); err != nil {
		fmt.Fprintf(stderr, "lobster: writing output: %v\n", err)
		return exitInternal
	}
	return exitOK
}

// buildPlan reads and previews a workflow file for graph and plan. A
// file that cannot be read is "Error: ..." and exit 1, as in the
// reference; the checker's findings go to standard error and, but for the
// load errors that make the reference reject the file (exit 2), do not
// stop the preview.
func buildPlan(path string, provided any, stderr io.Writer) (*plan.Plan, int) {
	src, err := engine.ReadWorkflow(path)
	if d, ok := parser.LimitDiagnostic(path, err); ok {
		source.WriteText(stderr, nil, []source.Diagnostic{d}, false)
		return nil, exitUsage
	}
	if err != nil {
		fmt.Fprintf(stderr, "Error: %s\n", err)
		return nil, exitFindings
	}
	return previewFile(path, src, provided, runOutput{stdout: io.Discard, stderr: stderr})
}
