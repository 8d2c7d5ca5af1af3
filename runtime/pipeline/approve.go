package pipeline

//lint:file-ignore ST1005 error messages are the reference's, word for word (capitals included)

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/source"
)

// approveCommand is approve: on a terminal in human mode it asks
// and passes the items on a yes; otherwise (tool mode, --emit, no
// terminal) it outputs an approval request and halts.
func approveCommand(ctx context.Context, c *Call) (Output, error) {
	// The reference's args.prompt ?? "Approve?": a bare --prompt is the
	// boolean true, which the request carries as it is.
	var prompt any = "Approve?"
	if v, ok := c.Args.Get("prompt"); ok && v.Bare {
		prompt = true
	} else if ok {
		prompt = v.Text
	}
	items, err := c.Input.Drain(ctx)
	if err != nil {
		return Output{}, err
	}
	items = nonNil(items)
	if c.Args.Truthy("emit") || c.Env.Mode == Tool || !c.Env.Interactive {
		req := jsvalue.Obj("type", "approval_request", "prompt", prompt, "items", items)
		if c.Args.Truthy("preview-from-stdin", "previewFromStdin") {
			limit, given := c.Args.Number("limit", "previewLimit", "preview-limit")
			if !given || math.IsNaN(limit) || math.IsInf(limit, 0) {
				limit = 5
			}
			n := min(len(items), int(max(0, math.Trunc(limit))))
			if p := preview(items[:n]); p != "" {
				req.Set("preview", p)
			}
		}
		return Output{Items: []any{req}, Halt: true}, nil
	}
	if _, err := fmt.Fprintf(c.Env.Stdout, "%s [y/N] ", source.Printable(jsString(prompt))); err != nil {
		return Output{}, err
	}
	answer, err := readLine(ctx, c.Env.Stdin, approvalTimeout(c.Env))
	if err != nil {
		return Output{}, err
	}
	switch strings.ToLower(js.Trim(answer)) {
	case "y", "yes":
		return Output{Items: items}, nil
	}
	return Output{}, errors.New("Not approved")
}

// preview is the approval preview of items: strings joined by newlines,
// else pretty JSON.
func preview(items []any) string {
	parts := make([]string, len(items))
	for i, it := range items {
		s, ok := it.(string)
		if !ok {
			return pretty(items)
		}
		parts[i] = s
	}
	return strings.Join(parts, "\n")
}

// approvalTimeout is LOBSTER_APPROVAL_INPUT_TIMEOUT_MS when it is a
// positive number (floored), else 0: no timeout.
func approvalTimeout(e *Env) time.Duration {
	f, ok := js.Number(e.Getenv("LOBSTER_APPROVAL_INPUT_TIMEOUT_MS"))
	if !ok || !(f > 0) || math.IsInf(f, 0) {
		return 0
	}
	return time.Duration(math.Floor(f)) * time.Millisecond
}

// readLine reads one line from r (without its newline) with an optional
// timeout; the end of input gives what was read.
func readLine(ctx context.Context, r io.Reader, timeout time.Duration) (string, error) {
	if r == nil {
		return "", nil
	}
	type result struct {
		line string
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		line, err := bufio.NewReader(r).ReadString('\n')
		if err == io.EOF {
			err = nil
		}
		ch <- result{strings.TrimSuffix(line, "\n"), err}
	}()
	var expire <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		expire = t.C
	}
	select {
	case res := <-ch:
		return res.line, res.err
	case <-expire:
		return "", fmt.Errorf("Timed out waiting for input (%dms)", timeout.Milliseconds())
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
}

// commandsListCommand is commands.list: one entry per registered
// name, from the registry.
func commandsListCommand(ctx context.Context, c *Call) (Output, error) {
	if _, err := c.Input.Drain(ctx); err != nil {
		return Output{}, err
	}
	var out []any
	for _, name := range commands.Names() {
		spec, _ := commands.Lookup(name)
		tags := make([]any, len(spec.EffectTags))
		for i, t := range spec.EffectTags {
			tags[i] = t
		}
		out = append(out, jsvalue.Obj(
			"name", name,
			"description", spec.Summary,
			"argsSchema", ArgsSchema(spec),
			"examples", []any{},
			"sideEffects", tags,
		))
	}
	return Output{Items: out}, nil
}

// ArgsSchema is a JSON Schema of a command's arguments, built from the
// registry: one property per flag spelling, "_" for the positionals.
func ArgsSchema(spec *commands.Command) *jsvalue.Object {
	props := jsvalue.NewObject()
	required := []any{}
	for _, f := range spec.Flags {
		p := jsvalue.Obj("type", schemaType(f.Type), "description", f.Description)
		if f.Type == commands.Enum {
			values := make([]any, len(f.Values))
			for i, v := range f.Values {
				values[i] = v
			}
			p.Set("enum", values)
		}
		if f.HasDefault {
			p.Set("default", schemaDefault(f))
		}
		for _, name := range f.Names() {
			props.Set(name, p)
		}
		if f.Required {
			required = append(required, f.Name)
		}
	}
	pos := jsvalue.Obj("type", "array", "items", jsvalue.Obj("type", "string"))
	var descs []string
	for _, p := range spec.Positionals {
		descs = append(descs, p.Name+": "+p.Description)
		if p.Required {
			required = append(required, "_")
		}
	}
	if len(descs) > 0 {
		pos.Set("description", strings.Join(descs, "; "))
	}
	props.Set("_", pos)
	return jsvalue.Obj("type", "object", "properties", props, "required", required)
}

func schemaType(t commands.Type) string {
	switch t {
	case commands.Bool:
		return "boolean"
	case commands.Int:
		return "integer"
	case commands.Number:
		return "number"
	}
	return "string"
}

func schemaDefault(f *commands.Flag) any {
	switch f.Type {
	case commands.Int, commands.Number:
		if n, err := strconv.ParseFloat(f.Default, 64); err == nil {
			return n
		}
	case commands.Bool:
		return f.Default == "true"
	}
	return f.Default
}
