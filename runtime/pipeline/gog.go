package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/proc"
)

// gogNotFound is the error when the gog CLI cannot be found.
const gogNotFound = "gog not found on PATH (install: https://github.com/steipete/gogcli)"

// gogCommand is the program and leading arguments that run gog: GOG_BIN
// (even set to "") or "gog"; a script (.mjs, .cjs, .js, .ts, in any case)
// runs under node.
func gogCommand(e *Env) (string, []string) {
	bin, ok := e.LookupEnv("GOG_BIN")
	if !ok {
		bin = "gog"
	}
	lower := []byte(bin)
	for i, c := range lower {
		if 'A' <= c && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
	}
	for _, ext := range []string{".mjs", ".cjs", ".js", ".ts"} {
		if strings.HasSuffix(string(lower), ext) {
			return "node", []string{bin}
		}
	}
	return bin, nil
}

// runGog runs gog with args.
func runGog(ctx context.Context, e *Env, args ...string) (proc.Result, error) {
	name, lead := gogCommand(e)
	if name == "" {
		// GOG_BIN="": node's words for a program without a name.
		return proc.Result{}, errors.New("The argument 'file' cannot be empty. Received ''")
	}
	limit, err := OutputLimit(e.Getenv)
	if err != nil {
		return proc.Result{}, err
	}
	return proc.Run(ctx, proc.Command{
		Name: name, Args: append(lead, args...), Env: e.Environ, Dir: e.BaseDir,
		Stdin: []byte{}, NotFound: gogNotFound, Force: e.Force, MaxOutput: limit,
	})
}

// exitCode is a process's exit code as the reference prints it in gog's
// errors: "?" when a signal ended it.
func exitCode(code int) string {
	if code < 0 {
		return "?"
	}
	return strconv.Itoa(code)
}

// gogSearchCommand is gog.gmail.search: the threads gog finds.
func gogSearchCommand(ctx context.Context, c *Call) (Output, error) {
	query, ok := c.Args.JSString("query")
	if !ok {
		query = "newer_than:1d"
	}
	max := "20"
	if f, given := c.Args.Number("max", "limit"); given {
		max = jsString(f)
	}
	if _, err := c.Input.Drain(ctx); err != nil {
		return Output{}, err
	}
	res, err := runGog(ctx, c.Env, "gmail", "search", query, "--json", "--max", max)
	if err != nil {
		return Output{}, err
	}
	if res.Code != 0 {
		return Output{}, fmt.Errorf("gog.gmail.search failed (%s): %s", exitCode(res.Code), utf16Slice(string(res.Stderr), 400))
	}
	v, err := jsvalue.Parse(res.Stdout)
	if err != nil {
		return Output{}, errors.New("gog.gmail.search expected JSON output")
	}
	var items []any
	switch v := v.(type) {
	case []any:
		for _, e := range v {
			if threads, ok := threadsOf(e); ok {
				items = append(items, threads...)
			} else {
				items = append(items, e)
			}
		}
	default:
		if threads, ok := threadsOf(v); ok {
			items = threads
		} else {
			items = []any{v}
		}
	}
	return Output{Items: nonNil(items)}, nil
}

// threadsOf is v.threads when v is an object with a threads array.
func threadsOf(v any) ([]any, bool) {
	o, ok := v.(*jsvalue.Object)
	if !ok {
		return nil, false
	}
	t, ok := o.Get("threads")
	arr, isArr := t.([]any)
	return arr, ok && isArr
}

// gogSendCommand is gog.gmail.send: one message per draft, or the
// drafts themselves with --dry-run.
func gogSendCommand(ctx context.Context, c *Call) (Output, error) {
	dryRun := c.Args.Truthy("dryRun", "dry-run")
	in := c.Input
	return Output{Lazy: func(ctx context.Context, yield func(any) error) error {
		sent := 0
		for {
			item, ok, err := in.Next(ctx)
			if err != nil {
				if sent > 0 && context.Cause(ctx) != nil {
					return nil // cancelled between drafts: keep what was sent
				}
				return err
			}
			if !ok {
				return nil
			}
			draft, isObj := item.(*jsvalue.Object)
			if !isObj {
				return errors.New("gog.gmail.send expects draft objects")
			}
			to, subject, body := draftField(draft, "to"), draftField(draft, "subject"), draftField(draft, "body")
			if to == "" {
				return errors.New("gog.gmail.send draft missing to")
			}
			if dryRun {
				if err := yield(jsvalue.Obj("ok", true, "dryRun", true, "to", to, "subject", subject, "body", body)); err != nil {
					return err
				}
				continue
			}
			args := []string{"gmail", "send"}
			args = append(args, optionArgs("--to", to)...)
			if subject != "" {
				args = append(args, optionArgs("--subject", subject)...)
			}
			if body != "" {
				args = append(args, optionArgs("--body", body)...)
			}
			args = append(args, "--json")
			if err := context.Cause(ctx); err != nil {
				if sent > 0 {
					return nil
				}
				return err
			}
			c.Env.dispatch()
			res, err := runGog(ctx, c.Env, args...)
			if err != nil {
				return err
			}
			sent++
			if res.Code != 0 {
				return fmt.Errorf("gog.gmail.send failed (%s): %s", exitCode(res.Code), utf16Slice(string(res.Stderr), 400))
			}
			out := string(res.Stdout)
			var result any = jsvalue.Obj("ok", true)
			if out != "" { // blank output is not JSON: it is raw
				if v, err := jsvalue.Parse([]byte(out)); err == nil {
					result = v
				} else {
					result = jsvalue.Obj("ok", true, "raw", out)
				}
			}
			if err := yield(result); err != nil {
				return err
			}
		}
	}}, nil
}

// draftField is String(draft[key] ?? "").trim().
func draftField(draft *jsvalue.Object, key string) string {
	v, _ := draft.Get(key)
	return js.Trim(stringOf(v))
}

// optionArgs passes value to a program's option flag. A value that starts
// with "-" is joined to the flag (--to=-x), so that the program cannot take
// it for an option of its own; the reference passes it as the next
// argument, which exposes it.
func optionArgs(flag, value string) []string {
	if strings.HasPrefix(value, "-") {
		return []string{flag + "=" + value}
	}
	return []string{flag, value}
}
