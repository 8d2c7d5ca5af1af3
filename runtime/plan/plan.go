// Package plan builds the execution plan of a workflow file: what a run
// would do, as data, without running anything.
//
// [Build] reads the checked syntax tree of lang/parser (never the YAML
// again) and returns a [Plan]: the steps in order with their kind, their
// command text with `${arg}` substituted, stdin source, env, cwd,
// condition, gates, retry, timeout and on_error, loops with their
// sub-steps, parallel branches, and composed child workflows (planned
// recursively, relative to the parent file's directory).
//
// One plan has several renderings:
//
//   - [Plan.Text]: a stable text form for people and for diffs ([Diff]);
//   - JSON, through the struct tags (the field names are stable);
//   - [Plan.DryRun]: the reference's `lobster run --dry-run` text, byte for byte;
//   - [Plan.Graph]: the reference's `lobster graph` text (mermaid, dot, ascii).
//
// # Plan-time values
//
// Nothing runs, so step results are placeholders, as in the reference's
// dry-run: every approval counts as granted
// (`$id.approved` is true), an input step's response is
// `{"pending": true}`, a loop item is `{"_placeholder": true}` and its index
// 0, and any other step has no output. Conditions are evaluated against
// these placeholders, as the reference's dry-run does (it skips a step
// whose condition reads real output); the plan marks such a condition as
// decided at run time ([Condition.Runtime]) and skips a step
// ([Step.Skipped]) only when its condition is false whatever the output.
// Text that depends on step output (`$id.stdout`, `$id.json`) is kept as
// written.
//
// # Problems
//
// Where the reference's dry-run fails, the plan records an [*Error] with
// the reference's message and a position ([Plan.Errors]) and plans the
// rest all the same: a condition that cannot be evaluated (it then counts
// as true), a whole-value stdin or for_each reference to no earlier step,
// a pipeline that does not parse or names an unknown command.
// [Plan.DryRun] fails with the first. A composed workflow that cannot be
// read, parsed or planned, or that would run in a cycle, is not planned:
// its [Child.Error] says why.
package plan

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/render"
)

// Plan is the execution plan of one workflow file.
type Plan struct {
	File  string          `json:"file"`          // the file's path, as given in Options.Path
	Args  json.RawMessage `json:"args"`          // the resolved args: defaults, then the provided ones
	Env   []Var           `json:"env,omitempty"` // the workflow's env, args substituted
	Cwd   string          `json:"cwd,omitempty"` // the workflow's cwd, args substituted
	Steps []*Step         `json:"steps"`         // the top-level steps, in file order
	// Errors are what makes the reference's dry-run of this file fail, in
	// step order; the first is the one it reports. The steps are planned
	// all the same.
	Errors []*Error `json:"errors,omitempty"`
}

// Kind is what a step executes. It is the reference's classification:
// parallel, then workflow, pipeline and shell (each when non-blank), for a
// step that is neither a loop nor an input step.
type Kind string

// Step kinds.
const (
	Shell    Kind = "shell"    // run or command
	Pipeline Kind = "pipeline" // pipeline
	Workflow Kind = "workflow" // workflow: a composed child workflow
	Parallel Kind = "parallel" // parallel branches
	ForEach  Kind = "for_each" // a loop over sub-steps
	Input    Kind = "input"    // an input gate
	None     Kind = "none"     // nothing to execute: an approval-only step, or a blank command
)

// Step is one step of a plan: a top-level step, a loop's sub-step or a
// parallel branch. Fields that do not apply are omitted from the JSON.
type Step struct {
	ID   string `json:"id"`
	Kind Kind   `json:"kind"`
	Line int    `json:"line"` // the 1-based line of the step in its file

	// When is the condition that decides (when, else condition), if any;
	// Skipped says it is false at plan time whatever the steps before it
	// output, so the step will not run. A condition that reads step output
	// is decided at run time ([Condition.Runtime]): its step is not
	// skipped.
	When    *Condition `json:"when,omitempty"`
	Skipped bool       `json:"skipped,omitempty"`
	// falseAtPlan says the condition is false against the placeholders,
	// output or not: the reference's dry-run skips the step, and so does
	// the scope of later steps. A step false at plan time is described
	// in full, but not checked.
	falseAtPlan bool

	// Command is the shell text (shell) or the pipeline text (pipeline),
	// with ${arg} substituted; step references are kept as written.
	Command string `json:"command,omitempty"`
	// Deferred says that the name of a pipeline stage depends on step
	// output, so the command is looked up at run time only.
	Deferred bool   `json:"deferred,omitempty"`
	Stdin    *Stdin `json:"stdin,omitempty"`
	Env      []Var  `json:"env,omitempty"` // the step's own env, args substituted
	Cwd      string `json:"cwd,omitempty"` // the step's own cwd, args substituted

	Approval *Approval  `json:"approval,omitempty"` // an approval gate, asked after the step's execution
	Input    *InputGate `json:"input,omitempty"`

	Retry     *Retry  `json:"retry,omitempty"`
	TimeoutMs float64 `json:"timeout_ms,omitempty"`
	OnError   string  `json:"on_error,omitempty"`

	Loop     *Loop         `json:"for_each,omitempty"`
	Parallel *ParallelPlan `json:"parallel,omitempty"`
	Workflow *Child        `json:"workflow,omitempty"`

	// shellField records a string run/command, which the graph draws as a
	// run step even when it is blank.
	shellField bool
}

// Var is one environment entry.
type Var struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Condition is a step's condition.
type Condition struct {
	Field string `json:"field"`          // "when" or "condition": the one that decides
	Expr  string `json:"expr,omitempty"` // a string condition, as written
	Value bool   `json:"value"`          // its value at plan time, against the placeholders
	// Runtime says the condition reads step output that only the run
	// knows (anything but $id.approved, which a plan counts as granted):
	// Value is then no prediction.
	Runtime bool `json:"runtime,omitempty"`
}

// Stdin is a step's stdin.
type Stdin struct {
	// Text is a string stdin as written. When Ref is set it is one whole
	// step reference ($id.path) and the step reads that value as it is;
	// otherwise it is a template.
	Text string `json:"text,omitempty"`
	Ref  bool   `json:"ref,omitempty"`
	// Value is a stdin that is not a string (JSON-encoded for a shell).
	Value json.RawMessage `json:"value,omitempty"`
}

// Approval is an approval gate.
type Approval struct {
	Prompt                   string `json:"prompt"` // the configured prompt, or "Approve <id>?"
	InitiatedBy              string `json:"initiated_by,omitempty"`
	RequiredApprover         string `json:"required_approver,omitempty"`
	RequireDifferentApprover bool   `json:"require_different_approver,omitempty"`
}

// InputGate is an input step's request.
type InputGate struct {
	Prompt         string          `json:"prompt"`
	ResponseSchema json.RawMessage `json:"response_schema,omitempty"`
	Defaults       json.RawMessage `json:"defaults,omitempty"`
}

// Retry is a step's retry policy, defaults filled in.
type Retry struct {
	Max        float64 `json:"max"` // attempts in all
	Backoff    string  `json:"backoff"`
	DelayMs    float64 `json:"delay_ms"`
	MaxDelayMs float64 `json:"max_delay_ms"`
	Jitter     bool    `json:"jitter"`
}

// Loop is a for_each loop.
type Loop struct {
	Expr      string  `json:"expr"` // the source of the items, as written
	ItemVar   string  `json:"item_var"`
	IndexVar  string  `json:"index_var"`
	BatchSize float64 `json:"batch_size,omitempty"`
	PauseMs   float64 `json:"pause_ms,omitempty"`
	Steps     []*Step `json:"steps"` // the sub-steps of one iteration
}

// ParallelPlan is a parallel block.
type ParallelPlan struct {
	Wait      string  `json:"wait"` // "all" or "any"
	TimeoutMs float64 `json:"timeout_ms,omitempty"`
	Branches  []*Step `json:"branches"`
}

// Child is a composed workflow (a workflow: step).
type Child struct {
	// Path is the workflow text with ${arg} substituted; File is the file
	// it names, relative to the parent's directory ("" when the path
	// depends on step output).
	Path string          `json:"path"`
	File string          `json:"file,omitempty"`
	Args json.RawMessage `json:"args,omitempty"` // workflow_args, string values with ${arg} substituted
	// Plan is the child's plan, planned with Args; Error says why there
	// is none.
	Plan  *Plan  `json:"plan,omitempty"`
	Error string `json:"error,omitempty"`
}

// Options are the inputs of [Build] besides the file.
type Options struct {
	// Args are the provided args (a parsed --args-json), or nil.
	Args any
	// Path is the file's path: the plan's File, and the directory that
	// composed workflows are found relative to.
	Path string
	// ReadFile reads a composed workflow; nil means parser.ReadFile.
	ReadFile func(path string) ([]byte, error)
}

// Error is a problem of a plan: the reference's message and the position
// of the field concerned.
type Error struct {
	File string     `json:"file"`
	Pos  source.Pos `json:"pos"` // the zero Pos when unknown
	Msg  string     `json:"message"`
}

// Error returns the message alone, as the reference prints it.
func (e *Error) Error() string { return e.Msg }

// maxDepth bounds the nesting of composed workflows.
const maxDepth = 32

// Build plans the workflow of f. Where the reference's dry-run would
// fail, the plan's Errors say so and the rest is planned all the same;
// Build itself fails (with an *Error) only when f is not a workflow with a
// list of steps. It never panics on a bad tree.
func Build(f *ast.File, opts Options) (*Plan, error) {
	if opts.ReadFile == nil {
		opts.ReadFile = parser.ReadFile
	}
	b := &builder{opts: opts, stack: []string{canonical(opts.Path)}}
	return b.build(parser.Decoded(f), opts.Path, opts.Args) // the text that would run
}

// builder holds what the plans of one file and its children share.
type builder struct {
	opts  Options
	stack []string // canonical paths of the files being planned, outermost first
}

// fileBuilder plans one file.
type fileBuilder struct {
	*builder
	file   *ast.File
	path   string
	args   *jsvalue.Object
	errors []*Error
	muted  int // >0 while planning a skipped step, whose problems do not count
}

func (b *builder) build(f *ast.File, path string, provided any) (*Plan, error) {
	if f == nil || f.Workflow == nil {
		return nil, &Error{File: path, Msg: "the file is not a workflow (a mapping with steps)"}
	}
	w := f.Workflow
	fb := &fileBuilder{builder: b, file: f, path: path, args: engine.ResolveArgs(w, provided)}
	list, _ := fieldValue(w.Steps).(*ast.StepList)
	if list == nil {
		return nil, fb.errorf(w.Steps, w, "Workflow file requires a non-empty steps array")
	}
	p := &Plan{
		File:  path,
		Args:  raw(fb.args),
		Env:   fb.env(w.Env),
		Cwd:   fb.cwd(w.Cwd),
		Steps: []*Step{},
	}
	sc := newScope()
	for _, s := range list.Steps() {
		st := fb.step(s, sc)
		p.Steps = append(p.Steps, st)
		sc.add(st)
	}
	p.Errors = fb.errors
	return p, nil
}

// fail records a problem.
func (fb *fileBuilder) fail(e *Error) {
	if fb.muted == 0 {
		fb.errors = append(fb.errors, e)
	}
}

// step plans a top-level step in the scope of the steps before it.
func (fb *fileBuilder) step(s *ast.Step, sc *scope) *Step {
	st := fb.common(s, sc)
	if st.falseAtPlan {
		// A skipped step is described, not checked.
		fb.muted++
		defer func() { fb.muted-- }()
	}
	id := st.ID
	switch st.Kind {
	case Input:
		st.Input = fb.input(s.Input)
		return st
	case ForEach:
		fb.loop(st, s, sc)
		return st
	}
	if s.Stdin != nil {
		fb.strictStdin(s.Stdin, sc, "Workflow step "+id+" stdin: ")
	}
	switch st.Kind {
	case Pipeline:
		st.Deferred = fb.checkPipeline(s.Pipeline, "Workflow step "+id+" pipeline references unknown command: ")
	case Parallel:
		st.Parallel = fb.parallel(s)
	case Workflow:
		st.Workflow = fb.child(s, id)
	}
	return st
}

// common fills what every top-level step and sub-step has, and evaluates
// its condition.
func (fb *fileBuilder) common(s *ast.Step, sc *scope) *Step {
	st := &Step{ID: s.IDText(), Line: fb.line(s), Kind: fb.kind(s)}
	st.When = fb.condition(s, sc)
	st.falseAtPlan = st.When != nil && !st.When.Value
	st.Skipped = st.falseAtPlan && !st.When.Runtime
	st.Command, st.shellField = fb.command(s, st.Kind)
	st.Stdin = fb.stdin(s.Stdin)
	st.Env = fb.env(s.Env)
	st.Cwd = fb.cwd(s.Cwd)
	st.Approval = approval(s.Approval, st.ID)
	st.Retry = retry(s.Retry)
	st.TimeoutMs = number(s.TimeoutMs)
	st.OnError = strText(s.OnError)
	return st
}

// kind classifies a step as the reference does. Sub-steps and branches
// can only be shell or pipeline steps.
func (fb *fileBuilder) kind(s *ast.Step) Kind {
	top := s.Context == ast.TopStep
	switch {
	case top && s.Input != nil && !isNull(s.Input):
		return Input
	case top && s.ForEach != nil && !isNull(s.ForEach):
		return ForEach
	case top && s.Parallel != nil && ast.ObjectOf(fieldValue(s.Parallel)) != nil:
		return Parallel
	case top && nonBlank(s.Workflow):
		return Workflow
	case nonBlank(s.Pipeline):
		return Pipeline
	}
	if text, ok := shellText(s); ok && strings.TrimSpace(text) != "" {
		return Shell
	}
	return None
}

// shellText is the text the reference runs for a shell step: run when it
// is a string, else command.
func shellText(s *ast.Step) (string, bool) {
	if s.Run != nil {
		if sc := ast.ScalarOf(s.Run.Value); sc != nil && sc.Kind == ast.String {
			return sc.Text, true
		}
	}
	if s.Command != nil {
		if sc := ast.ScalarOf(s.Command.Value); sc != nil && sc.Kind == ast.String {
			return sc.Text, true
		}
	}
	return "", false
}

// command is the step's command text with args substituted, and whether
// the step has a string run/command.
func (fb *fileBuilder) command(s *ast.Step, k Kind) (string, bool) {
	text, isShell := shellText(s)
	switch k {
	case Pipeline:
		return render.Args(strText(s.Pipeline), fb.args), isShell
	case Shell, None:
		return render.Args(text, fb.args), isShell
	}
	return "", isShell
}

// condition evaluates the step's condition against the placeholders. A
// condition that cannot be evaluated is a problem, and counts as true.
func (fb *fileBuilder) condition(s *ast.Step, sc *scope) *Condition {
	f, name := condField(s)
	if f == nil {
		return nil
	}
	ok, err := engine.Condition(f, sc.results)
	if err != nil {
		fb.fail(fb.errorf(f, f, "%s", err.Error()))
		ok = true
	}
	c := &Condition{Field: name, Value: ok, Runtime: readsOutput(f)}
	if s := ast.ScalarOf(f.Value); s != nil && s.Kind == ast.String {
		c.Expr = s.Text
	}
	return c
}

// readsOutput says whether a condition reads a step's result other than
// $id.approved: its value is then known only when the run gets there.
func readsOutput(f *ast.Field) bool {
	c, _ := f.Value.(*ast.Condition)
	if c == nil || c.Expr == nil {
		return false
	}
	reads := false
	ast.Inspect(c.Expr, func(n ast.Node) bool {
		if ref, ok := n.(*ast.StepRef); ok && (len(ref.Path) != 1 || ref.Path[0].Name != "approved") {
			reads = true
		}
		return !reads
	})
	return reads
}

// condField is `when ?? condition`: the when field unless it is absent or
// null.
func condField(s *ast.Step) (*ast.Field, string) {
	if s.When != nil && !isNull(s.When) {
		return s.When, "when"
	}
	if s.Condition != nil && !isNull(s.Condition) {
		return s.Condition, "condition"
	}
	return nil, ""
}

// stdin describes a stdin field.
func (fb *fileBuilder) stdin(f *ast.Field) *Stdin {
	if f == nil || isNull(f) {
		return nil
	}
	if s := ast.ScalarOf(fieldValue(f)); s != nil && s.Kind == ast.String {
		_, _, whole := render.WholeRef(s.Text)
		return &Stdin{Text: s.Text, Ref: whole}
	}
	return &Stdin{Value: raw(engine.Value(f.Value))}
}

// strictStdin records a problem, as the dry-run fails, when stdin is one
// whole reference to a step that has no placeholder.
func (fb *fileBuilder) strictStdin(f *ast.Field, sc *scope, prefix string) {
	s := ast.ScalarOf(fieldValue(f))
	if s == nil || s.Kind != ast.String {
		return
	}
	if id, path, ok := render.WholeRef(s.Text); ok {
		if _, known := sc.results[id]; !known {
			fb.fail(fb.errorf(f, f, "%sUnknown step reference: %s.%s", prefix, id, path))
		}
	}
}

// checkPipeline records a problem when the pipeline does not parse, or
// when a stage names an unknown command. It reports whether a stage name
// depends on step output (such names are looked up at run time only).
func (fb *fileBuilder) checkPipeline(f *ast.Field, prefix string) (deferred bool) {
	p, _ := fieldValue(f).(*ast.Pipeline)
	if p == nil {
		return false
	}
	if p.Err != nil {
		fb.fail(&Error{File: fb.path, Pos: fb.pos(p.Err.Span.Start), Msg: p.Err.Msg})
		return false
	}
	for _, stage := range p.Stages {
		if stage.Name == nil {
			continue
		}
		name := render.Args(stage.Name.Text, fb.args)
		if hasOutputRef(name) {
			deferred = true
			continue
		}
		if !knownCommand(name) {
			fb.fail(&Error{File: fb.path, Pos: fb.pos(stage.Name.Pos()), Msg: prefix + name})
			return deferred
		}
	}
	return deferred
}

// input describes an input gate.
func (fb *fileBuilder) input(f *ast.Field) *InputGate {
	g := &InputGate{}
	if in, ok := fieldValue(f).(*ast.Input); ok {
		g.Prompt = strText(in.Prompt)
		if in.ResponseSchema != nil {
			g.ResponseSchema = raw(engine.Value(in.ResponseSchema.Value))
		}
		if in.Defaults != nil {
			g.Defaults = raw(engine.Value(in.Defaults.Value))
		}
	}
	return g
}

// loop plans a for_each step and its sub-steps, in a scope of their own.
func (fb *fileBuilder) loop(st *Step, s *ast.Step, sc *scope) {
	id := st.ID
	expr := strText(s.ForEach)
	if rid, path, ok := render.WholeRef(expr); ok {
		if _, known := sc.results[rid]; !known {
			fb.fail(fb.errorf(s.ForEach, s.ForEach, "Workflow step %s for_each: Unknown step reference: %s.%s", id, rid, path))
		}
	}
	l := &Loop{Expr: expr, ItemVar: orDefault(strText(s.ItemVar), "item"), IndexVar: orDefault(strText(s.IndexVar), "index"),
		BatchSize: number(s.BatchSize), PauseMs: number(s.PauseMs), Steps: []*Step{}}
	inner := sc.loop(l)
	if list, _ := fieldValue(s.Steps).(*ast.StepList); list != nil {
		for _, sub := range list.Steps() {
			sst := fb.subStep(sub, id, inner)
			l.Steps = append(l.Steps, sst)
			inner.addSub(sst)
		}
	}
	st.Loop = l
}

// subStep plans a for_each sub-step.
func (fb *fileBuilder) subStep(s *ast.Step, loopID string, sc *scope) *Step {
	st := fb.common(s, sc)
	if st.falseAtPlan {
		fb.muted++
		defer func() { fb.muted-- }()
	}
	if s.Stdin != nil {
		fb.strictStdin(s.Stdin, sc, "Workflow step "+loopID+" for_each sub-step "+st.ID+" stdin: ")
	}
	if st.Kind == Pipeline {
		st.Deferred = fb.checkPipeline(s.Pipeline, "Workflow step "+loopID+" for_each sub-step "+st.ID+" pipeline: unknown command: ")
	}
	// The reference ignores these on sub-steps.
	st.Retry, st.TimeoutMs, st.OnError, st.Approval = nil, 0, "", nil
	return st
}

// parallel plans a parallel block. Branches see the results from before
// the block and have no condition of their own (the reference ignores
// it).
func (fb *fileBuilder) parallel(s *ast.Step) *ParallelPlan {
	par := &ParallelPlan{Wait: "all", Branches: []*Step{}}
	p, _ := fieldValue(s.Parallel).(*ast.Parallel)
	if p == nil {
		return par
	}
	if w := strText(p.Wait); w != "" {
		par.Wait = w
	}
	par.TimeoutMs = number(p.TimeoutMs)
	list, _ := fieldValue(p.Branches).(*ast.StepList)
	if list == nil {
		return par
	}
	for _, b := range list.Steps() {
		bst := &Step{ID: b.IDText(), Line: fb.line(b), Kind: fb.kind(b)}
		bst.Command, bst.shellField = fb.command(b, bst.Kind)
		bst.Stdin = fb.stdin(b.Stdin)
		bst.Env = fb.env(b.Env)
		bst.Cwd = fb.cwd(b.Cwd)
		if bst.Kind == Pipeline {
			bst.Deferred = fb.checkPipeline(b.Pipeline, "Parallel branch "+bst.ID+" pipeline references unknown command: ")
		}
		par.Branches = append(par.Branches, bst)
	}
	return par
}

// child plans a composed workflow, relative to this file's directory. What
// prevents it is recorded in the plan, never an error of the parent.
func (fb *fileBuilder) child(s *ast.Step, id string) *Child {
	c := &Child{Path: render.Args(strText(s.Workflow), fb.args)}
	var args any = jsvalue.NewObject()
	if s.WorkflowArgs != nil {
		if o := ast.ObjectOf(fieldValue(s.WorkflowArgs)); o != nil {
			wa := jsvalue.NewObject()
			for _, f := range o.Fields {
				if sc := ast.ScalarOf(f.Value); sc != nil && sc.Kind == ast.String {
					wa.Set(f.Key.Text, render.Args(sc.Text, fb.args))
				} else {
					wa.Set(f.Key.Text, engine.Value(f.Value))
				}
			}
			args = wa
			c.Args = raw(wa)
		}
	}
	if hasOutputRef(c.Path) {
		c.Error = "the path depends on step output"
		return c
	}
	path := strings.TrimSpace(c.Path)
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(fb.path), path)
	}
	c.File = path
	// As a run does, before the file is read: a path built from args stays
	// in the calling file's directory, symbolic links resolved too.
	written := strText(s.Workflow)
	computed := c.Path != written
	if err := engine.ChildContained(id, written, path, filepath.Dir(fb.path), computed); err != nil {
		c.Error = err.Error()
		return c
	}
	abs := canonical(path)
	if real, err := filepath.EvalSymlinks(abs); err == nil { // a missing file is not found, as in a run
		if err := engine.ChildContained(id, written, real, filepath.Dir(fb.stack[len(fb.stack)-1]), computed); err != nil {
			c.Error = err.Error()
			return c
		}
	}
	if len(fb.stack) >= maxDepth {
		c.Error = fmt.Sprintf("workflows nested more than %d deep", maxDepth)
		return c
	}
	for _, p := range fb.stack {
		if p == abs {
			c.Error = fmt.Sprintf("Workflow step %s creates a cycle: %s is already being executed", id, abs)
			return c
		}
	}
	src, err := fb.opts.ReadFile(path)
	var pe *fs.PathError
	switch {
	case err == nil:
	case errors.Is(err, bounded.ErrTooLarge) && errors.As(err, &pe):
		c.Error = fmt.Sprintf("%s:1:1: %s", path, pe.Err)
		return c
	case errors.Is(err, bounded.ErrNotRegular) && !errors.Is(err, syscall.EISDIR) && errors.As(err, &pe):
		c.Error = fmt.Sprintf("Workflow step %s workflow file %s: %s", id, path, pe.Err)
		return c
	default:
		c.Error = fmt.Sprintf("Workflow step %s workflow file not found: %s", id, path)
		return c
	}
	f, diags := parser.Parse(path, src)
	for _, d := range diags {
		if d.Severity == source.Error {
			c.Error = fmt.Sprintf("%s:%d:%d: %s", path, d.Range.Start.Line, d.Range.Start.Col, d.Message)
			return c
		}
	}
	fb.stack = append(fb.stack, abs)
	defer func() { fb.stack = fb.stack[:len(fb.stack)-1] }()
	child, err := fb.build(parser.Decoded(f), path, args)
	if err != nil {
		c.Error = err.Error()
		if e, ok := err.(*Error); ok && e.Pos.IsValid() {
			c.Error = fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
		}
		return c
	}
	c.Plan = child
	return c
}

// canonical is the absolute path of a file, with symbolic links resolved
// when it exists on disk, for cycle detection.
func canonical(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// env is an env mapping with args substituted; values that are not
// strings are dropped, as the runtime drops them.
func (fb *fileBuilder) env(f *ast.Field) []Var {
	o := ast.ObjectOf(fieldValue(f))
	if o == nil {
		return nil
	}
	var vars []Var
	for _, e := range o.Fields {
		if s := ast.ScalarOf(e.Value); s != nil && s.Kind == ast.String {
			vars = append(vars, Var{Name: e.Key.Text, Value: render.Args(s.Text, fb.args)})
		}
	}
	return vars
}

// cwd is a cwd field with args substituted (step references stay, as at
// run time).
func (fb *fileBuilder) cwd(f *ast.Field) string {
	if f == nil {
		return ""
	}
	return engine.Cwd(fb.args, f)
}

func (fb *fileBuilder) line(n ast.Node) int { return fb.pos(n.Pos()).Line }

// pos is the position of a byte offset of the file.
func (fb *fileBuilder) pos(offset int) source.Pos {
	if fb.file.Src == nil {
		return source.Pos{}
	}
	return fb.file.Src.Pos(offset)
}

// errorf is an *Error at the value of f (or at n when f is nil).
func (fb *fileBuilder) errorf(f *ast.Field, n ast.Node, format string, args ...any) *Error {
	e := &Error{File: fb.path, Msg: fmt.Sprintf(format, args...)}
	if fb.file.Src != nil {
		switch {
		case f != nil && f.Value != nil:
			e.Pos = fb.file.Src.Pos(f.Value.Pos())
		case n != nil:
			e.Pos = fb.file.Src.Pos(n.Pos())
		}
	}
	return e
}

// approval describes an approval gate, or returns nil when the field is
// not one (false, "", blank, null, arrays and numbers are no gate).
func approval(f *ast.Field, id string) *Approval {
	if f == nil {
		return nil
	}
	prompt := "Approve " + id + "?"
	switch v := engine.Value(f.Value).(type) {
	case bool:
		if !v {
			return nil
		}
		return &Approval{Prompt: prompt}
	case string:
		if strings.TrimSpace(v) == "" {
			return nil
		}
		if v != "required" {
			prompt = v
		}
		return &Approval{Prompt: prompt}
	case *jsvalue.Object:
		a := &Approval{Prompt: prompt}
		if p, ok := v.Get("prompt"); ok {
			if s, ok := p.(string); ok {
				a.Prompt = s
			}
		}
		a.InitiatedBy = pick(v, "initiated_by", "initiatedBy")
		a.RequiredApprover = pick(v, "required_approver", "requiredApprover")
		for _, k := range []string{"require_different_approver", "requireDifferentApprover"} {
			if b, ok := v.Get(k); ok {
				if b, ok := b.(bool); ok {
					a.RequireDifferentApprover = b
				}
			}
		}
		return a
	}
	return nil
}

// pick is the string under the camelCase key, else the snake_case one.
func pick(o *jsvalue.Object, snake, camel string) string {
	for _, k := range []string{camel, snake} {
		if v, ok := o.Get(k); ok {
			if s, ok := v.(string); ok {
				return s
			}
		}
	}
	return ""
}

// retry is a retry mapping with the reference's defaults, or nil.
func retry(f *ast.Field) *Retry {
	o, _ := engine.Value(fieldValue(f)).(*jsvalue.Object)
	if f == nil || o == nil {
		return nil
	}
	r := &Retry{Max: 1, Backoff: "fixed", DelayMs: 1000, MaxDelayMs: 30000}
	num := func(key string, into *float64) {
		if v, ok := o.Get(key); ok {
			if n, ok := v.(float64); ok {
				*into = finite(n)
			}
		}
	}
	num("max", &r.Max)
	num("delay_ms", &r.DelayMs)
	num("max_delay_ms", &r.MaxDelayMs)
	if v, ok := o.Get("backoff"); ok {
		if s, ok := v.(string); ok {
			r.Backoff = s
		}
	}
	if v, ok := o.Get("jitter"); ok {
		r.Jitter = v == true
	}
	return r
}

// fieldValue is a field's value, aliases resolved, or nil.
func fieldValue(f *ast.Field) ast.Value {
	if f == nil {
		return nil
	}
	return ast.Resolve(f.Value)
}

func isNull(f *ast.Field) bool {
	s, ok := fieldValue(f).(*ast.Scalar)
	return ok && s.Kind == ast.Null
}

// strText is a string field's value, or "" when it is absent or not a
// string.
func strText(f *ast.Field) string {
	if s := ast.ScalarOf(fieldValue(f)); s != nil && s.Kind == ast.String {
		return s.Text
	}
	return ""
}

func nonBlank(f *ast.Field) bool { return strings.TrimSpace(strText(f)) != "" }

// number is a number field's value, or 0 (also for infinities and NaN,
// which the loader rejects and JSON cannot hold).
func number(f *ast.Field) float64 {
	if f == nil {
		return 0
	}
	n, _ := engine.Value(f.Value).(float64)
	return finite(n)
}

func finite(n float64) float64 {
	if math.IsInf(n, 0) || math.IsNaN(n) {
		return 0
	}
	return n
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// raw is a runtime value as JSON, in the reference's key order.
func raw(v any) json.RawMessage {
	if v == nil {
		return json.RawMessage("null")
	}
	if v == jsvalue.Undefined {
		return nil
	}
	return json.RawMessage(jsvalue.Stringify(v, ""))
}
