package engine

import (
	"context"
	"fmt"
	"runtime"
	"strconv"

	"github.com/lobsterdev/lobster/lang/js"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/proc"
	"github.com/lobsterdev/lobster/runtime/render"
)

// errShellNotFound is the reference's message for a shell that cannot be
// started.
const errShellNotFound = "workflow shell not found; check LOBSTER_SHELL or ComSpec"

// Stdin resolves a `stdin` field: Undefined for none
// (absent, null, or a reference to a missing path); a whole reference
// "$id.path" is strict (an error when id has no result) and gives the raw
// value; another string is templated; any other literal is itself.
func Stdin(f *ast.Field, args *jsvalue.Object, results render.Results) (any, error) {
	if f == nil {
		return jsvalue.Undefined, nil
	}
	s := ast.ScalarOf(f.Value)
	if s == nil || s.Kind != ast.String {
		v := Value(f.Value)
		if v == nil {
			return jsvalue.Undefined, nil
		}
		return v, nil
	}
	if id, path, ok := render.WholeRef(s.Text); ok {
		record, known := results[id]
		if !known {
			return nil, fmt.Errorf("Unknown step reference: %s.%s", id, path)
		}
		v := render.Walk(record, path)
		if v == nil {
			return jsvalue.Undefined, nil
		}
		return v, nil
	}
	return render.Template(s.Text, args, results), nil
}

// ShellStdin is what a shell reads for a stdin value: nothing (closed at
// once) for none, a string as it is, anything else as JSON.
func ShellStdin(v any) []byte {
	switch v := v.(type) {
	case string:
		return []byte(v)
	case nil:
		return nil
	}
	if v == jsvalue.Undefined {
		return nil
	}
	return []byte(jsvalue.Stringify(v, ""))
}

// Cwd is a step's working directory: the step's cwd, else the workflow's,
// else "" (the process's), with args substituted and step references left
// as written.
func Cwd(args *jsvalue.Object, fields ...*ast.Field) string {
	for _, f := range fields {
		if f == nil {
			continue
		}
		if s := ast.ScalarOf(f.Value); s != nil && s.Kind == ast.String {
			return render.Args(s.Text, args)
		}
	}
	return ""
}

// A Shell is one shell step to run, its text already substituted.
type Shell struct {
	ID        string
	Text      string
	Env       []string // the step's complete environment
	Dir       string
	Stdin     []byte // nil: closed at once
	MaxOutput int64  // per stream; 0 for the default
	Force     <-chan struct{}
}

// RunShell runs a shell step and returns its result record {id, stdout,
// json}: stdout as written (the trailing newline kept), json the parse of
// the trimmed stdout or undefined. A non-zero exit is the reference's
// "workflow command failed (code): …" with stderr, else stdout, else the
// command text.
func RunShell(ctx context.Context, s Shell) (*jsvalue.Object, error) {
	name, argv := proc.Shell(s.Text, func(k string) string { return Getenv(s.Env, k) }, runtime.GOOS)
	res, err := proc.Run(ctx, proc.Command{
		Name: name, Args: argv, Env: s.Env, Dir: s.Dir, Stdin: s.Stdin,
		MaxOutput: s.MaxOutput, NotFound: errShellNotFound, Force: s.Force,
	})
	if err != nil {
		return nil, err
	}
	stdout := string(res.Stdout)
	if res.Code != 0 {
		code := "null"
		if res.Code > 0 {
			code = strconv.Itoa(res.Code)
		}
		detail := js.Trim(string(res.Stderr))
		if detail == "" {
			detail = js.Trim(stdout)
		}
		if detail == "" {
			detail = s.Text
		}
		return nil, &CommandError{Code: res.Code, Stderr: string(res.Stderr), msg: fmt.Sprintf("workflow command failed (%s): %s", code, detail)}
	}
	return jsvalue.Obj("id", s.ID, "stdout", stdout, "json", ParseOutput(stdout)), nil
}

// A CommandError is a shell step's command that exited with a non-zero
// status (or was killed by a signal). Its message is the reference's
// "workflow command failed (code): detail".
type CommandError struct {
	Code   int    // the exit status; negative when a signal ended it
	Stderr string // what the command wrote on its standard error
	msg    string
}

func (e *CommandError) Error() string { return e.msg }

// ParseOutput is the json of a result: the trimmed text parsed as JSON, or
// Undefined when it is empty or not JSON.
func ParseOutput(stdout string) any {
	trimmed := js.Trim(stdout)
	if trimmed == "" {
		return jsvalue.Undefined
	}
	v, err := jsvalue.Parse([]byte(trimmed))
	if err != nil {
		return jsvalue.Undefined
	}
	return v
}
