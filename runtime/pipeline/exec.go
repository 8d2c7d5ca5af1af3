package pipeline

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"runtime"
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/proc"
)

// execCommand is exec: run a program directly, or a command
// line through the shell, and output its stdout as lines or as JSON.
func execCommand(ctx context.Context, c *Call) (Output, error) {
	a := c.Args
	shellLine, shellGiven := a.String("shell")
	useShell := a.Truthy("shell") || (len(a.Positional) == 1 && strings.IndexFunc(a.Positional[0], js.IsSpace) >= 0)
	if !shellGiven && len(a.Positional) > 0 {
		shellLine = a.Positional[0]
	}
	if len(a.Positional) == 0 && !shellGiven {
		return Output{}, errors.New("exec requires a command")
	}

	var stdin []byte
	// --stdin takes a text; a bare or empty one means no input, and an
	// unknown mode is named lowercased, as the reference does.
	mode, _ := a.String("stdin")
	mode = js.ToLower(mode)
	if mode != "" {
		items, err := c.Input.Drain(ctx)
		if err != nil {
			return Output{}, err
		}
		switch mode {
		case "json":
			stdin = []byte(compact(nonNil(items)))
		case "jsonl":
			var b strings.Builder
			for i, it := range items {
				if i > 0 {
					b.WriteByte('\n')
				}
				b.WriteString(stringifyOrUndefined(it))
			}
			if len(items) > 0 {
				b.WriteByte('\n')
			}
			stdin = []byte(b.String())
		case "raw":
			parts := make([]string, len(items))
			for i, it := range items {
				if s, ok := it.(string); ok {
					parts[i] = s
				} else {
					parts[i] = stringifyOrUndefined(it)
				}
			}
			stdin = []byte(strings.Join(parts, "\n"))
		default:
			return Output{}, fmt.Errorf("exec --stdin must be raw, json, or jsonl (got %s)", mode)
		}
	} else if _, err := c.Input.Drain(ctx); err != nil {
		return Output{}, err
	}

	cmd := proc.Command{Env: c.Env.Environ, Dir: c.Env.Dir, Stdin: stdin, Force: c.Env.Force}
	what := shellLine
	if useShell {
		goos := c.Env.GOOS
		if goos == "" {
			goos = runtime.GOOS
		}
		cmd.Name, cmd.Args = proc.Shell(shellLine, c.Env.Getenv, goos)
		cmd.NotFound = "exec shell not found; check LOBSTER_SHELL or ComSpec"
	} else {
		cmd.Name, cmd.Args = a.Positional[0], a.Positional[1:]
		cmd.NotFound = "exec command not found: " + a.Positional[0]
		what = a.Positional[0]
	}
	if cmd.Stdin == nil {
		cmd.Stdin = []byte{}
	}
	var err error
	if cmd.MaxOutput, err = OutputLimit(c.Env.Getenv); err != nil {
		return Output{}, err
	}
	res, err := proc.Run(ctx, cmd)
	if err != nil {
		return Output{}, err
	}
	if res.Code != 0 {
		code := "null"
		if res.Code >= 0 {
			code = strconv.Itoa(res.Code)
		}
		detail := js.Trim(string(res.Stderr))
		if detail == "" {
			detail = js.Trim(string(res.Stdout))
		}
		if detail == "" {
			detail = what
		}
		return Output{}, fmt.Errorf("exec failed (%s): %s", code, detail)
	}
	stdout := string(res.Stdout) // JSON strings are substrings of it
	if a.Truthy("json") {
		text := js.Trim(stdout)
		var v any
		if text != "" {
			v, err = jsvalue.ParseText(text)
			if err != nil {
				return Output{}, fmt.Errorf("exec --json could not parse stdout as JSON: %s", jsonErrorMessage(text, err))
			}
		}
		if arr, ok := v.([]any); ok {
			return Output{Items: arr}, nil
		}
		return Output{Items: []any{v}}, nil
	}
	items := []any{}
	for _, line := range lineBreak.Split(stdout, -1) {
		if line != "" {
			items = append(items, line)
		}
	}
	return Output{Items: items}, nil
}

var lineBreak = regexp.MustCompile(`\r?\n`)

// nonNil is items, or an empty array for none.
func nonNil(items []any) []any {
	if items == nil {
		return []any{}
	}
	return items
}

// stringifyOrUndefined is JSON.stringify(v) as text, "undefined" when it
// has none (as joining it would print).
func stringifyOrUndefined(v any) string {
	if v == jsvalue.Undefined {
		return ""
	}
	return compact(v)
}
