package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/plan"
)

// The text of lobster help plan.
var planUsage = []string{
	"lobster plan [--format text|json] [--args-json JSON] FILE",
	"lobster plan --diff [--args-json JSON] OLD NEW",
}

const planDoc = `Plan prints the execution plan of the workflow file without running
anything: the steps in order with their kind, command text (${arg}
substituted), stdin, env, cwd, condition (evaluated at plan time, where
every approval counts as granted; one that reads step output is decided at
run time), gates, retry, timeout, on_error, loops, parallel branches and
composed workflows (planned recursively, relative to the file).

A plan is a preview: the file need not be clean. What "lobster check"
finds (errors and warnings) is printed on standard error and does not stop
it; only a file that the reference cannot load (YAML or JSON that does not
parse, no steps, a step without an id...) gets no plan.

Flags may also follow the paths; "--" ends the flags.`

const planMore = `Exit codes: 0 success (also with checker errors); 1 a file cannot be read;
2 a usage error, bad --args-json, or a file the reference cannot load.`

// planFlags are the options of lobster plan.
type planFlags struct {
	format   string
	argsJSON *string
	diff     bool
}

// planFlagSet is the flags of lobster plan, set in f.
func planFlagSet(f *planFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	fs.StringVar(&f.format, "format", "text", "`text|json` print the plan as text or as JSON")
	fs.Func("args-json", "the workflow's args, as a `JSON` object", func(s string) error {
		f.argsJSON = &s
		return nil
	})
	fs.BoolVar(&f.diff, "diff", false, "print a unified diff of the plans of OLD and NEW (nothing when they are the same)")
	return fs
}

func runPlan(args []string, stdout, stderr io.Writer) int {
	cmd := cmdNamed("plan")
	var f planFlags
	paths, code, done := parseFlags(cmd, planFlagSet(&f), args, true, stdout, stderr)
	if done {
		return code
	}
	switch {
	case f.format != "text" && f.format != "json":
		return usageError(stderr, cmd, "plan --format must be text or json, not %q", f.format)
	case f.diff && f.format != "text":
		return usageError(stderr, cmd, "plan --diff prints text only; it takes no --format")
	case f.diff && len(paths) != 2:
		return usageError(stderr, cmd, "plan --diff compares two files, not %d", len(paths))
	case !f.diff && len(paths) == 0:
		return usageError(stderr, cmd, "plan needs a workflow file")
	case !f.diff && len(paths) > 1:
		return usageError(stderr, cmd, "plan takes one workflow file, not %d (--diff compares two)", len(paths))
	}
	provided, err := argsObject("plan", f.argsJSON)
	if err != nil {
		return usageError(stderr, cmd, "%s", err)
	}
	var plans []*plan.Plan
	for _, path := range paths {
		p, code := buildPlan(path, provided, stderr)
		if p == nil {
			return code
		}
		plans = append(plans, p)
	}
	var text string
	switch {
	case f.diff:
		text = source.Printable(plan.Diff(plans[0], plans[1]))
	case f.format == "json":
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(plans[0]); err != nil {
			textf(stderr, "lobster: internal error: %v\n", err)
			return exitInternal
		}
		text = b.String()
	default:
		text = source.Printable(plans[0].Text())
	}
	if _, err := io.WriteString(stdout, text); err != nil {
		textf(stderr, "lobster: writing output: %v\n", err)
		return exitInternal
	}
	return exitOK
}

// argsObject reads the --args-json of command: nil when not given, else a
// JSON object (the reference's graph messages otherwise).
func argsObject(command string, text *string) (any, error) {
	if text == nil {
		return nil, nil
	}
	v, err := jsvalue.Parse([]byte(*text))
	if err != nil {
		return nil, fmt.Errorf("%s --args-json must be valid JSON", command)
	}
	if _, ok := v.(*jsvalue.Object); !ok {
		return nil, fmt.Errorf("%s --args-json must be a JSON object", command)
	}
	return v, nil
}
