package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/lobsterdev/lobster/runtime/jsvalue"
	"github.com/lobsterdev/lobster/runtime/plan"
)

const planHelp = `usage: lobster plan [--format text|json] [--args-json JSON] PATH
       lobster plan --diff [--args-json JSON] OLD NEW

Plan prints the execution plan of the workflow file without running
anything: the steps in order with their kind, command text (${arg}
substituted), stdin, env, cwd, condition (evaluated at plan time, where
every approval counts as granted; one that reads step output is decided at
run time), gates, retry, timeout, on_error, loops,
parallel branches and composed workflows (planned recursively, relative to
the file).

A plan is a preview: the file need not be clean. What "lobster check"
finds (errors and warnings) is printed on standard error and does not stop
it; only a file that the reference cannot load (YAML or JSON that does not
parse, no steps, a step without an id...) gets no plan.

  --format text|json  the plan as text (the default) or as JSON
  --args-json JSON    the workflow's args, as a JSON object
  --diff              print a unified diff of the plans of OLD and NEW
                      (nothing when they are the same)

Exit codes: 0 success (also with checker errors); 1 a file cannot be read;
2 a usage error, bad --args-json, or a file the reference cannot load.
`

func runPlan(args []string, stdout, stderr io.Writer) int {
	format, diff := "text", false
	var argsJSON *string
	var paths []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := strings.Cut(a, "=")
		switch {
		case a == "-h" || a == "--help":
			fmt.Fprint(stdout, planHelp)
			return exitOK
		case a == "--diff":
			diff = true
		case name == "--format" || name == "--args-json":
			if !hasValue {
				if i+1 >= len(args) {
					fmt.Fprintf(stderr, "lobster plan: %s needs a value\n", name)
					return exitUsage
				}
				i++
				value = args[i]
			}
			if name == "--format" {
				format = value
			} else {
				argsJSON = &value
			}
		case a == "--":
			paths = append(paths, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "-") && a != "-":
			fmt.Fprintf(stderr, "lobster plan: unknown flag %s\n%s", a, planUsage)
			return exitUsage
		default:
			paths = append(paths, a)
		}
	}
	switch {
	case format != "text" && format != "json":
		fmt.Fprintf(stderr, "lobster plan: --format must be text or json, not %q\n", format)
		return exitUsage
	case diff && format != "text":
		fmt.Fprintln(stderr, "lobster plan: --diff prints text only; it takes no --format")
		return exitUsage
	case diff && len(paths) != 2, !diff && len(paths) != 1:
		fmt.Fprint(stderr, planUsage)
		return exitUsage
	}
	provided, err := argsObject("plan", argsJSON)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return exitUsage
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
	case diff:
		text = plan.Diff(plans[0], plans[1])
	case format == "json":
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(plans[0]); err != nil {
			fmt.Fprintf(stderr, "lobster: internal error: %v\n", err)
			return exitInternal
		}
		text = b.String()
	default:
		text = plans[0].Text()
	}
	if _, err := io.WriteString(stdout, text); err != nil {
		fmt.Fprintf(stderr, "lobster: writing output: %v\n", err)
		return exitInternal
	}
	return exitOK
}

const planUsage = "usage: lobster plan [--format text|json] [--args-json JSON] PATH\n       lobster plan --diff [--args-json JSON] OLD NEW\n"

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
