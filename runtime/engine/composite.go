package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/proc"
	"github.com/lobsterdev/lobster/runtime/render"
)

// command is one shell command of a step, a loop sub-step or a parallel
// branch: its text, stdin and env layers, resolved against scope.
type command struct {
	id    string
	step  *ast.Step // run/command and stdin come from here
	scope render.Results
	env   []*ast.Field // env layers after the workflow's
	cwd   []*ast.Field // cwd fields, most specific first, before the workflow's

	topLevel bool // a step of the workflow, not a loop sub-step or branch
	// dispatched is the enclosing attempt's: the command tells it when it
	// sent a request that must not be sent twice.
	dispatched func()
	// hold, for a parallel branch racing the others, keeps its LLM
	// charges until it wins.
	hold *llmHold
}

// runCommand runs one command under a retry policy and timeout.
func (r *runner) runCommand(ctx Ctx, c command, policy retryPolicy, timeout time.Duration) (*jsvalue.Object, error) {
	llm := r.llmScope(c.id)
	llm.hold = c.hold
	call := &Call{ID: c.id, Retry: policy, Timeout: timeout, OnDispatch: c.dispatched, LLM: llm, Prepare: func() (*Command, error) {
		return r.prepare(c)
	}}
	if policy.max > 1 {
		call.BeforeRetry = r.beforeRetry
	}
	if c.topLevel {
		call.OnRetry = r.retried
	}
	return r.x.Command(ctx, call)
}

// prepare resolves a command for an attempt: a pipeline, or else a shell
// command (nothing to run when its text is blank).
func (r *runner) prepare(c command) (*Command, error) {
	if c.step.Pipeline != nil {
		if s := ast.ScalarOf(c.step.Pipeline.Value); s != nil && !isBlankText(s.Text) {
			return r.preparePipeline(c)
		}
	}
	text := shellText(c.step)
	stdin, err := Stdin(c.step.Stdin, r.args, c.scope)
	if err != nil {
		return nil, err
	}
	if isBlankText(text) {
		return &Command{ID: c.id, Stdin: stdin}, nil
	}
	return &Command{
		ID:       c.id,
		Kind:     ShellCommand,
		Text:     render.Template(text, r.args, c.scope),
		Stdin:    stdin,
		Env:      Env(r.base, r.args, c.scope, append([]*ast.Field{r.w.Env}, c.env...)...),
		Dir:      r.cwd(append(c.cwd, r.w.Cwd)...),
		TopLevel: c.topLevel,
	}, nil
}

// cwd is the working directory from the first cwd field set, else the
// default (a sub-workflow's: its parent step's), else the process's.
func (r *runner) cwd(fields ...*ast.Field) string {
	if dir := Cwd(r.args, fields...); dir != "" {
		return dir
	}
	return r.opts.Dir
}

// shellText is a step's run text, else its command text.
func shellText(step *ast.Step) string {
	for _, f := range []*ast.Field{step.Run, step.Command} {
		if f == nil {
			continue
		}
		if s := ast.ScalarOf(f.Value); s != nil && s.Kind == ast.String && !isBlankText(s.Text) {
			return s.Text
		}
	}
	return ""
}

// forEach runs a loop step: its sub-steps in order
// for each item of the array its expression names, sequentially.
func (r *runner) forEach(ctx Ctx, step *ast.Step, dispatched func()) (*jsvalue.Object, error) {
	id := step.IDText()
	items, err := Stdin(step.ForEach, r.args, r.results)
	if err != nil {
		return nil, err
	}
	list, ok := items.([]any)
	if !ok {
		return nil, fmt.Errorf("Workflow step %s for_each: expected array, got %s", id, typeOf(items))
	}
	itemVar, indexVar := stringValue(step.ItemVar, "item"), stringValue(step.IndexVar, "index")
	batch := 1
	if n, ok := fieldValue(step.BatchSize).(float64); ok && n >= 1 {
		batch = int(n)
	}
	pause, _ := fieldValue(step.PauseMs).(float64)
	var subs []*ast.Step
	if step.Steps != nil {
		if l, ok := step.Steps.Value.(*ast.StepList); ok {
			subs = l.Steps()
		}
	}
	out := make([]any, 0, len(list))
	for i, item := range list {
		if pause > 0 && i > 0 && i%batch == 0 {
			if err := r.x.Sleep(ctx, time.Duration(pause*float64(time.Millisecond))); err != nil {
				return nil, err
			}
		}
		scope := make(render.Results, len(r.results)+len(subs)+2)
		for k, v := range r.results {
			scope[k] = v
		}
		scope[itemVar] = jsvalue.Obj("json", item, "stdout", textOf(item))
		scope[indexVar] = jsvalue.Obj("json", float64(i), "stdout", strconv.Itoa(i))
		iteration := jsvalue.Obj(itemVar, item, indexVar, float64(i))
		for _, sub := range subs {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			subID := sub.IDText()
			cond := conditionOf(sub)
			ok, err := Condition(cond, scope)
			if err != nil {
				return nil, err
			}
			if !ok {
				scope[subID] = jsvalue.Obj("skipped", true)
				continue
			}
			rec, err := r.runCommand(ctx, command{id: subID, step: sub, scope: scope,
				env: []*ast.Field{step.Env, sub.Env}, cwd: []*ast.Field{sub.Cwd, step.Cwd}, dispatched: dispatched}, once, 0)
			if err != nil {
				return nil, err
			}
			scope[subID] = rec
			r.billStep(id+"."+subID, rec, nil)
			r.settleUnbilled()
			if err := r.costs.check(r.limit); err != nil {
				return nil, err
			}
			v := get(rec, "json")
			if v == jsvalue.Undefined {
				v = get(rec, "stdout")
			}
			iteration.Set(subID, v)
		}
		out = append(out, iteration)
	}
	return jsvalue.Obj("id", id, "stdout", jsvalue.Stringify(out, ""), "json", out), nil
}

// settleWait is how long a parallel block waits for its cancelled losers.
const settleWait = 500 * time.Millisecond

// branchResult is one settled parallel branch.
type branchResult struct {
	index  int
	record *jsvalue.Object
	err    error
}

// parallel runs a parallel step's branches at once
// and stores each successful branch's result under its id.
func (r *runner) parallel(ctx Ctx, step *ast.Step, dispatched func()) (*jsvalue.Object, error) {
	id := step.IDText()
	p, _ := step.Parallel.Value.(*ast.Parallel)
	var branches []*ast.Step
	if p != nil && p.Branches != nil {
		if l, ok := p.Branches.Value.(*ast.StepList); ok {
			branches = l.Steps()
		}
	}
	waitAny := p != nil && stringValue(p.Wait, "all") == "any"
	bctx, cancel := r.x.WithCancel(ctx)
	defer cancel(context.Canceled)
	if p != nil {
		if d := timeoutOf(p.TimeoutMs); d > 0 {
			cause := proc.KillNow(fmt.Errorf("Parallel step %s timed out after %dms", id, d.Milliseconds()))
			var stop func()
			bctx, stop = r.x.WithTimeout(bctx, d, cause)
			defer stop()
		}
	}
	// Every branch sees the results from before the block. The resume
	// boundary is crossed once, before any branch starts.
	scope := r.results
	if err := r.x.Claim(ctx); err != nil {
		return nil, err
	}
	settled := r.x.NewQueue(ctx, len(branches))
	// Racing branches (wait: any) hold their LLM charges: only the
	// winner's spend counts, as in the reference.
	holds := make([]*llmHold, len(branches))
	for i, b := range branches {
		if waitAny {
			holds[i] = &llmHold{ledger: r.ledger}
		}
		r.x.Go(bctx, func(bctx Ctx) {
			rec, err := r.runCommand(bctx, command{id: b.IDText(), step: b, scope: scope,
				env: []*ast.Field{step.Env, b.Env}, cwd: []*ast.Field{b.Cwd, step.Cwd}, dispatched: dispatched, hold: holds[i]}, once, 0)
			settled.Put(bctx, branchResult{i, rec, err})
		})
	}
	results := make([]branchResult, len(branches))
	if waitAny && len(branches) > 0 {
		v, _ := settled.Get(ctx, 0)
		first := v.(branchResult)
		cancel(errors.New("another parallel branch settled first"))
		for range len(branches) - 1 {
			if _, ok := settled.Get(ctx, settleWait); !ok {
				return nil, errors.New("Parallel branches did not settle after cancellation")
			}
		}
		if first.err != nil {
			return nil, first.err
		}
		b := branches[first.index]
		holds[first.index].release()
		r.store(b.IDText(), first.record)
		r.branches = []branchBill{{b.IDText(), first.record}}
		return jsvalue.Obj("id", id, "stdout", get(first.record, "stdout"),
			"json", jsvalue.Obj(b.IDText(), get(first.record, "json"))), nil
	}
	for range branches {
		v, _ := settled.Get(ctx, 0)
		res := v.(branchResult)
		results[res.index] = res
	}
	if cause := bctx.Err(); cause != nil && ctx.Err() == nil {
		if errors.Is(cause, context.DeadlineExceeded) || strings.HasPrefix(cause.Error(), "Parallel step ") {
			return nil, cause
		}
	}
	for _, res := range results {
		if res.err != nil {
			if ctx.Err() != nil {
				return nil, res.err
			}
			return nil, fmt.Errorf("Parallel branch failed: %s", res.err)
		}
	}
	merged := jsvalue.NewObject()
	for i, res := range results {
		bid := branches[i].IDText()
		r.store(bid, res.record)
		r.branches = append(r.branches, branchBill{bid, res.record})
		merged.Set(bid, get(res.record, "json"))
	}
	return jsvalue.Obj("id", id, "stdout", jsvalue.Stringify(merged, ""), "json", merged), nil
}

// subWorkflow runs a `workflow:` step's child file
// and returns its output as the step's result.
func (r *runner) subWorkflow(ctx Ctx, step *ast.Step, dispatched func()) (*jsvalue.Object, error) {
	id := step.IDText()
	path, written := "", ""
	if s := ast.ScalarOf(step.Workflow.Value); s != nil {
		written = s.Text
		path = render.Template(s.Text, r.args, r.results)
	}
	computed := path != written // built from args or step output
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(r.opts.FilePath), path)
	}
	if err := ChildContained(id, written, path, filepath.Dir(r.opts.FilePath), computed); err != nil {
		return nil, err
	}
	loaded, err := r.x.LoadWorkflow(ctx, path)
	if errors.Is(err, ErrWorkflowNotFound) {
		return nil, fmt.Errorf("Workflow step %s workflow file not found: %s", id, path)
	}
	if err != nil {
		return nil, err
	}
	real := loaded.Path
	// Through symbolic links too, before anything of the file is shown.
	if err := ChildContained(id, written, real, filepath.Dir(r.currentFile()), computed); err != nil {
		return nil, err
	}
	if slices.Contains(r.opts.Active, real) {
		return nil, fmt.Errorf("Workflow step %s creates a cycle: %s is already being executed", id, real)
	}
	if loaded.ReadError != "" {
		return nil, fmt.Errorf("Workflow step %s: %s", id, loaded.ReadError)
	}
	if errs := loaded.Errors; len(errs) > 0 {
		return nil, fmt.Errorf("Workflow step %s: the sub-workflow has %d error(s):\n%s", id, len(errs), strings.Join(errs, "\n"))
	}
	child, _ := parser.Parse(real, loaded.Source)
	childArgs := jsvalue.NewObject()
	if step.WorkflowArgs != nil {
		if o := ast.ObjectOf(step.WorkflowArgs.Value); o != nil {
			for _, f := range o.Fields {
				v := Value(f.Value)
				if s, ok := v.(string); ok {
					v = render.Template(s, r.args, r.results)
				}
				childArgs.Set(f.Key.Text, v)
			}
		}
	}
	if err := r.x.Claim(ctx); err != nil {
		return nil, err
	}
	composed := &llmParent{ledger: r.ledger, marks: r.marks, step: id}
	opts := Options{
		Args:     childArgs,
		Env:      Env(r.base, r.args, r.results, r.w.Env, step.Env),
		Stderr:   r.opts.Stderr,
		FilePath: real,
		Active:   append(slices.Clip(r.opts.Active), real),
		Dir:      r.cwd(step.Cwd),
		Composed: true,
		// A dispatch in the child makes this step's attempt final.
		OnDispatch: dispatched,
		composedBy: composed,
	}
	res, err := r.x.RunWorkflow(ctx, child, opts)
	var halt *haltInComposition
	if errors.As(err, &halt) {
		return nil, fmt.Errorf("Workflow step %s %s", id, halt)
	}
	if err != nil {
		return nil, err
	}
	var value any
	switch len(res.Output) {
	case 0:
		value = []any{}
	case 1:
		value = res.Output[0]
	default:
		value = res.Output
	}
	stdout := ""
	if s, ok := value.(string); ok {
		stdout = s
	} else if len(res.Output) > 0 {
		stdout = jsvalue.Stringify(value, "")
	}
	record := jsvalue.Obj("id", id, "stdout", stdout, "json", value)
	if composed.sources != nil {
		r.marks.mu.Lock()
		r.marks.sources[record] = composed.sources
		r.marks.mu.Unlock()
	}
	return record, nil
}

// within reports whether path lies inside the directory dir (both
// absolute, compared as written: the caller resolves symbolic links).
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// ChildContained is the rule for the path of step id's child workflow, as
// written and as it leads to path, against dir, the calling file's
// directory: a path built from args or step output (computed) must stay
// inside dir, or whoever passes the args would choose any file on the
// machine; a path written literally may go anywhere. path and dir are
// compared as given (absolute, or both relative to one directory): check
// the path as joined before anything is read, and again with symbolic
// links resolved in both. The runtime and the planner (plan, graph, the
// dry-run and every preview) share it, so that no preview reads or shows a
// file a run would refuse.
func ChildContained(id, written, path, dir string, computed bool) error {
	if !computed || within(dir, path) {
		return nil
	}
	return fmt.Errorf("Workflow step %s: the workflow path %q leads to %s, outside %s (the calling file's directory); "+
		"a path built from args or step output must stay inside it (a path written literally may go anywhere)", id, written, path, dir)
}

// currentFile is the running file's path with symbolic links resolved.
func (r *runner) currentFile() string {
	if n := len(r.opts.Active); n > 0 {
		return r.opts.Active[n-1]
	}
	return r.opts.FilePath
}

// A Loaded is a sub-workflow file, read and checked.
type Loaded struct {
	Path      string   // with symbolic links resolved
	Source    []byte   // its content
	ReadError string   // why it could not be read, if it could not
	Errors    []string // the checker's errors, each "path:line:col: message [code]"
}

// LoadWorkflow reads the workflow file at path and checks it (the
// checker may run processes and read other files, so executors that
// replay their control logic run it apart). A path that names no file is
// ErrWorkflowNotFound.
func LoadWorkflow(path string) (*Loaded, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return nil, ErrWorkflowNotFound
	}
	src, err := parser.ReadFile(real)
	if err != nil {
		return &Loaded{Path: real, ReadError: err.Error()}, nil
	}
	child, diags := parser.Parse(real, src)
	l := &Loaded{Path: real, Source: src}
	for _, d := range check.Run(child, diags, check.Rules) {
		if d.Severity == source.Error {
			l.Errors = append(l.Errors, fmt.Sprintf("%s:%d:%d: %s [%s]", real, d.Range.Start.Line, d.Range.Start.Col, d.Message, d.Code))
		}
	}
	return l, nil
}

// ErrWorkflowNotFound is a sub-workflow path that names no file.
var ErrWorkflowNotFound = errors.New("workflow file not found")

// haltInComposition is a gate inside a sub-workflow that would pause the
// run: the reference refuses it, naming the parent step.
type haltInComposition struct{ kind string }

func (h *haltInComposition) Error() string {
	return "sub-workflow halted for " + h.kind + ". Sub-workflow approval/input gates are not supported in composition."
}

// isBlankText says a command text is empty or JavaScript white space only.
func isBlankText(s string) bool { return js.Trim(s) == "" }

// typeOf is JavaScript's typeof for a runtime value.
func typeOf(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	}
	if v == jsvalue.Undefined {
		return "undefined"
	}
	return "object"
}

// textOf is a loop item as text: a string as it is, else its JSON.
func textOf(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return jsvalue.Stringify(v, "")
}

func fieldValue(f *ast.Field) any {
	if f == nil {
		return jsvalue.Undefined
	}
	return Value(f.Value)
}

func stringValue(f *ast.Field, def string) string {
	if s, ok := fieldValue(f).(string); ok && s != "" {
		return s
	}
	return def
}
