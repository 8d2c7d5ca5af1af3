package engine

import (
	"context"
	"fmt"
	"io"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/jsvalue"
	"github.com/lobsterdev/lobster/runtime/render"
)

// Options are a run's inputs besides the file.
type Options struct {
	Args any      // the provided args (parsed --args-json), or nil
	Env  []string // the process environment

	// Stderr receives the run's log lines ([RETRY] …); nil discards them.
	Stderr io.Writer

	// Force, when closed while a cancelled step is stopping, kills its
	// processes at once (a second interrupt).
	Force <-chan struct{}
}

// Run executes the workflow's steps in file order (workflow spec §4.1) and
// returns the run's result: the output items of the last step that
// completed.
//
// This is the executor's first stage: shell steps with conditions, env,
// cwd, stdin, retry, timeout_ms and on_error. A step that needs more (a
// pipeline, an approval or input gate, a loop, parallel branches, a
// sub-workflow) stops the run with an error naming it before anything of
// that step runs, never a silent difference.
func Run(ctx context.Context, f *ast.File, opts Options) (envelope.Result, error) {
	w := f.Workflow
	if w == nil || w.Steps == nil {
		return envelope.Result{Status: envelope.StatusOK, Output: []any{}}, nil
	}
	list, _ := w.Steps.Value.(*ast.StepList)
	if list == nil {
		return envelope.Result{}, fmt.Errorf("workflow steps must be a list")
	}
	args := ResolveArgs(w, opts.Args)
	maxOutput, err := MaxStepOutput(func(k string) string { return Getenv(opts.Env, k) })
	if err != nil {
		return envelope.Result{}, err
	}
	stderr := opts.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	base := BaseEnv(opts.Env, args)
	results := render.Results{}
	var last *jsvalue.Object
	for _, step := range list.Steps() {
		if err := context.Cause(ctx); err != nil {
			return envelope.Result{}, err
		}
		id := step.IDText()
		cond := step.When
		if cond == nil {
			cond = step.Condition
		}
		ok, err := Condition(cond, results)
		if err != nil {
			return envelope.Result{}, err
		}
		if !ok {
			results[id] = jsvalue.Obj("id", id, "skipped", true)
			continue
		}
		if what := unsupported(step); what != "" {
			return envelope.Result{}, fmt.Errorf("Workflow step %s: %s is not supported by this runtime yet", id, what)
		}
		shell := step.Run
		if shell == nil {
			shell = step.Command
		}
		text := ""
		if s := ast.ScalarOf(shell.Value); s != nil {
			text = s.Text
		}
		// stdin is resolved inside each attempt: a failure there is
		// retried and subject to on_error, as in the reference.
		record, err := withRetry(ctx, id, retryOf(step.Retry), timeoutOf(step.TimeoutMs), stderr,
			func(actx context.Context) (*jsvalue.Object, error) {
				stdin, err := Stdin(step.Stdin, args, results)
				if err != nil {
					return nil, err
				}
				return RunShell(actx, Shell{
					ID:        id,
					Text:      render.Template(text, args, results),
					Env:       Env(base, args, results, w.Env, step.Env),
					Dir:       Cwd(args, step.Cwd, w.Cwd),
					Stdin:     ShellStdin(stdin),
					MaxOutput: maxOutput,
					Force:     opts.Force,
				})
			})
		if err != nil {
			policy := onErrorOf(step.OnError)
			if policy == "stop" || context.Cause(ctx) != nil {
				return envelope.Result{}, err
			}
			// The failure is recorded; the output stays the last
			// successful step's.
			results[id] = jsvalue.Obj("id", id, "error", true, "errorMessage", err.Error())
			if policy == "skip_rest" {
				break
			}
			continue
		}
		results[id] = record
		last = record
	}
	output := []any{}
	if last != nil {
		json, _ := last.Get("json")
		stdout, _ := last.Get("stdout")
		output = envelope.OutputItems(json, jsvalue.Undefined, stdout)
	}
	return envelope.Result{Status: envelope.StatusOK, Output: output}, nil
}

// onErrorOf is a step's on_error policy: "stop" (the default), "continue"
// or "skip_rest".
func onErrorOf(f *ast.Field) string {
	if f != nil {
		if s, ok := Value(f.Value).(string); ok && (s == "continue" || s == "skip_rest") {
			return s
		}
	}
	return "stop"
}

// unsupported names what of step this stage of the runtime cannot run, or
// "".
func unsupported(step *ast.Step) string {
	for _, f := range []struct {
		field *ast.Field
		what  string
	}{
		{step.Pipeline, "a pipeline step"}, {step.Workflow, "a workflow step"}, {step.Parallel, "a parallel step"},
		{step.ForEach, "a for_each loop"}, {step.Approval, "an approval gate"}, {step.Input, "an input step"},
	} {
		if f.field != nil {
			return f.what
		}
	}
	if step.Run == nil && step.Command == nil {
		return "a step with nothing to run"
	}
	return ""
}
