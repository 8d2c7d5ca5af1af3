package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file holds the rules about what a workflow: step passes to its child
// in workflow_args (workflow-args-undeclared, workflow-args-missing,
// workflow-args-stringified) and what the child reads of its args.

// argUse is what a child workflow reads of its args.
type argUse struct {
	Refs    map[string]source.Span // ${name} → the first use (name span)
	Env     map[string]source.Span // mangled N of LOBSTER_ARG_N → the first read, outside comments
	EnvList []string               // the keys of Env in source order
	JSON    bool                   // reads LOBSTER_ARGS_JSON
}

// lobsterArgVar matches the variables that carry args to a step.
var lobsterArgVar = lazyRE(`LOBSTER_ARG(S_JSON|_[A-Z0-9_]+)`)

// argUseOf finds the args a child reads: ${name} references in the texts
// that are templated, and LOBSTER_ARG_N / LOBSTER_ARGS_JSON anywhere in its
// text but comments (shell text, programs in strings, pipelines).
func argUseOf(c *subFile) *argUse {
	u := &argUse{Refs: map[string]source.Span{}, Env: map[string]source.Span{}}
	for _, rs := range c.Info().Refs {
		if r, ok := rs.Ref.(*ast.ArgRef); ok && rs.Context != InCondition {
			if _, seen := u.Refs[r.Name]; !seen {
				u.Refs[r.Name] = r.NameSpan
			}
		}
	}
	src := c.File.Src.Content
	comments := c.File.Comments
	ci := 0
	for _, m := range lobsterArgVar().FindAllSubmatchIndex(src, -1) {
		for ci < len(comments) && comments[ci].End() <= m[0] {
			ci++
		}
		if ci < len(comments) && comments[ci].Pos() <= m[0] {
			continue // in a comment
		}
		if m[0] > 0 && parser.IsWordByte(src[m[0]-1]) || m[1] < len(src) && parser.IsWordByte(src[m[1]]) {
			continue // part of a longer name
		}
		if string(src[m[2]:m[3]]) == "S_JSON" {
			u.JSON = true
			continue
		}
		name := string(src[m[2]+1 : m[3]])
		if strings.HasSuffix(name, "_") || strings.HasPrefix(name, "_") {
			continue // no mangled name starts or ends with "_"
		}
		if _, seen := u.Env[name]; !seen {
			u.Env[name] = source.Span{Start: m[0], End: m[1]}
			u.EnvList = append(u.EnvList, name)
		}
	}
	return u
}

// workflowArgsOf is a step's workflow_args mapping; ok is false when the
// field holds something else (the parser reports it).
func workflowArgsOf(s *ast.Step) (m *ast.TemplateMap, ok bool) {
	if s.WorkflowArgs == nil {
		return nil, true
	}
	m, ok = s.WorkflowArgs.Value.(*ast.TemplateMap)
	return m, ok
}

// argDefaultValue is the default of a declared arg, or nil when it has none
// (only a mapping with a default key gives one).
func argDefaultValue(fd *ast.Field) ast.Value {
	if def, ok := fd.Value.(*ast.ArgDef); ok && def.Default != nil {
		return ast.Resolve(def.Default.Value)
	}
	return nil
}

// WorkflowArgsUndeclared reports workflow_args keys the child neither
// declares nor reads.
var WorkflowArgsUndeclared = &Analyzer{
	Name:     "workflow-args-undeclared",
	Severity: source.Warning,
	Summary:  "a workflow_args key names no arg of the child workflow",
	Doc: `The child receives every workflow_args key as an arg, declared or not, without any
check. A key the child neither declares under args nor reads (as ${name},
LOBSTER_ARG_NAME or through LOBSTER_ARGS_JSON) is passed for nothing: usually a typo of an arg
the child does declare, which then keeps its default.`,
	Bad:  "steps:\n  - id: sub\n    workflow: child.lobster\n    workflow_args:\n      nmae: lobster\n" + greetChild,
	Good: "steps:\n  - id: sub\n    workflow: child.lobster\n    workflow_args:\n      name: lobster\n" + greetChild,
	Fix:  "rename the key to the child's arg with a close name",
	Run:  runWorkflowArgsUndeclared,
}

func runWorkflowArgsUndeclared(p *Pass) {
	eachSub(p, func(c subCall, child *subFile) {
		m, _ := workflowArgsOf(c.Step.Step)
		if m == nil {
			return
		}
		cin := child.Info()
		var use *argUse
		var candidates []string
		for _, e := range m.Fields {
			k := e.Name()
			if cin.ArgBy[k] != nil {
				continue
			}
			if use == nil {
				use = argUseOf(child)
				passed := map[string]bool{}
				for _, e := range m.Fields {
					passed[e.Name()] = true
				}
				for _, fd := range cin.Args {
					if !passed[fd.Name()] {
						candidates = append(candidates, fd.Name())
					}
				}
			}
			if use.JSON {
				return
			}
			if _, ok := use.Refs[k]; ok {
				continue
			}
			if n := ArgEnvName(k); n != "" {
				if _, ok := use.Env[n]; ok {
					continue
				}
			}
			d := p.Finding(ast.SpanOf(e.Key), "sub-workflow %q declares no arg %q and never reads it, so the value is passed for nothing", c.Value.Scalar.Text, k)
			if near := Suggest(k, candidates); near != "" {
				d.Message += fmt.Sprintf("; did you mean %q?", near)
				d.Fixes = []source.Fix{{Message: fmt.Sprintf("Rename %q to %q", k, near),
					Edits: []source.Edit{p.Edit(e.Key.Map.Span(0, len(e.Key.Text)), near)}}}
				if fd := cin.ArgBy[near]; fd != nil {
					d.Related = []source.Related{childRelated(child, ast.SpanOf(fd.Key), fmt.Sprintf("arg %q is declared here", near))}
				}
			} else if len(cin.Args) == 0 {
				d.Message += "; the child declares no args"
			} else {
				d.Message += fmt.Sprintf("; it declares %s", quotedList(cin.Args))
			}
			p.Report(d)
		}
	})
}

// quotedList lists arg names, quoted, at most five.
func quotedList(args []*ast.Field) string {
	var b strings.Builder
	for i, fd := range args {
		if i == 5 {
			fmt.Fprintf(&b, " and %d more", len(args)-5)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q", fd.Name())
	}
	return b.String()
}

// WorkflowArgsMissing reports child args without a default that the call
// does not pass.
var WorkflowArgsMissing = &Analyzer{
	Name:     "workflow-args-missing",
	Severity: source.Warning,
	Summary:  "a workflow: step does not pass an arg the child uses and gives no default",
	Doc: `A child's args are its own defaults overlaid with the call's workflow_args;
nothing else reaches ${name} in the child. An arg the child declares without a default and
the call does not pass leaves every "${name}" of the child as literal text (the shell then expands
an unset variable to nothing). The child does inherit the parent's LOBSTER_ARG_* variables, but
not its ${…} substitutions.`,
	Bad:  "steps:\n  - id: sub\n    workflow: child.lobster\n" + deployChild,
	Good: "steps:\n  - id: sub\n    workflow: child.lobster\n    workflow_args:\n      target: prod\n" + deployChild,
	Run:  runWorkflowArgsMissing,
}

func runWorkflowArgsMissing(p *Pass) {
	eachSub(p, func(c subCall, child *subFile) {
		m, ok := workflowArgsOf(c.Step.Step)
		if !ok {
			return
		}
		passed := map[string]bool{}
		if m != nil {
			for _, e := range m.Fields {
				passed[e.Name()] = true
			}
		}
		var use *argUse
		for _, fd := range child.Info().Args {
			name := fd.Name()
			if passed[name] || argDefaultValue(fd) != nil {
				continue
			}
			if use == nil {
				use = argUseOf(child)
			}
			at, used := use.Refs[name]
			if !used {
				continue
			}
			d := p.Finding(ast.SpanOf(c.Value), "sub-workflow %q uses arg %q, which has no default and is not passed in workflow_args; its \"${%s}\" stays literal in the child", c.Value.Scalar.Text, name, name)
			if p.Info.ArgBy[name] != nil {
				d.Message += fmt.Sprintf(" (this file's arg %q reaches it only as LOBSTER_ARG_%s); pass it: workflow_args: {%s: \"${%s}\"}", name, ArgEnvName(name), name, name)
			} else {
				d.Message += "; pass it in workflow_args or give it a default in the child"
			}
			d.Related = []source.Related{
				childRelated(child, ast.SpanOf(fd.Key), fmt.Sprintf("arg %q is declared here without a default", name)),
				childRelated(child, at, fmt.Sprintf("\"${%s}\" is used here", name)),
			}
			p.Report(d)
		}
	})
}

// The children of the examples of the workflow_args rules.
const (
	greetChild  = "-- child.lobster --\nargs:\n  name: {default: world}\nsteps:\n  - id: greet\n    run: echo \"hello ${name}\"\n"
	deployChild = "-- child.lobster --\nargs:\n  target: {}\nsteps:\n  - id: go\n    run: deploy ${target}\n"
	countChild  = "-- child.lobster --\nargs:\n  count: {default: 0}\nsteps:\n  - id: big\n    run: test \"${count}\" -gt 10 && echo big\n"
)

// WorkflowArgsStringified reports workflow_args values that reach the child
// as strings although they look like numbers, booleans or objects.
var WorkflowArgsStringified = &Analyzer{
	Name:     "workflow-args-stringified",
	Severity: source.Info,
	Summary:  "a workflow_args value built from a reference reaches the child as a string",
	Doc: `String values of workflow_args are templates: they are substituted and the result is a
string. "$data.json.count" with a count of 42 reaches the child as "42", not 42, an
object as its JSON text, and "${limit}" with a default of 5 as "5". Only non-string values written
in the file (numbers, mappings, lists) pass through unchanged. A child that compares or computes
with the value must convert it.`,
	Bad:  "steps:\n  - id: data\n    run: echo '{\"count\":42}'\n  - id: sub\n    workflow: child.lobster\n    workflow_args:\n      count: $data.json.count\n" + countChild,
	Good: "steps:\n  - id: sub\n    workflow: child.lobster\n    workflow_args:\n      count: 42   # or convert the string in the child\n" + countChild,
	Run:  runWorkflowArgsStringified,
}

// stringifiedFields are the result fields whose value is not necessarily a
// string.
var stringifiedFields = map[string]bool{"json": true, "response": true, "approved": true, "skipped": true, "error": true}

func runWorkflowArgsStringified(p *Pass) {
	var calls map[*StepInfo]subCall
	var l *subLoader
	// childWantsString reports whether the child declares the arg with a
	// string default: then a string is what it expects.
	childWantsString := func(s *StepInfo, key string) bool {
		if calls == nil {
			calls = map[*StepInfo]subCall{}
			for _, c := range subCalls(p.Info, p.Options.Path) {
				calls[c.Step] = c
			}
			l = &subLoader{p: p}
		}
		c, ok := calls[s]
		if !ok {
			return false
		}
		child := l.load(c.File)
		if child.Err != nil || child.File.Workflow == nil {
			return false
		}
		fd := child.Info().ArgBy[key]
		if fd == nil {
			return false
		}
		sc, ok := argDefaultValue(fd).(*ast.Scalar)
		return ok && sc.Kind == ast.String
	}
	for _, s := range p.Info.Steps {
		if s.Step.Workflow == nil {
			continue
		}
		m, _ := workflowArgsOf(s.Step)
		if m == nil {
			continue
		}
		for _, e := range m.Fields {
			t, ok := e.Value.(*ast.Template)
			if !ok || len(t.Refs) != 1 {
				continue
			}
			var msg string
			switch r := t.Refs[0].(type) {
			case *ast.StepRef:
				if !IsWholeRef(t) || !stringifiedFields[r.Path[0].Name] || p.Info.Resolve(s, r.ID).Visibility != Visible {
					continue // an unknown reference stays text: other rules report it
				}
				msg = fmt.Sprintf("%q is templated into a string: the child receives the text of the value (\"42\", not the number 42; an object as its JSON text); convert it in the child", ast.RefText(r))
			case *ast.ArgRef:
				if strings.TrimSpace(t.Scalar.Text) != "${"+r.Name+"}" || p.Info.ArgBy[r.Name] == nil {
					continue
				}
				sc, ok := argDefaultValue(p.Info.ArgBy[r.Name]).(*ast.Scalar)
				if !ok || sc.Kind != ast.Int && sc.Kind != ast.Float && sc.Kind != ast.Bool {
					continue
				}
				text, _ := argDefault(p.Info, r.Name)
				kind := "number"
				if sc.Kind == ast.Bool {
					kind = "boolean"
				}
				msg = fmt.Sprintf("\"${%s}\" is templated into a string: with the default the child receives %q, not the %s %s; convert it in the child", r.Name, text, kind, text)
			default:
				continue
			}
			if childWantsString(s, e.Name()) {
				continue
			}
			p.Reportf(ast.SpanOf(t.Refs[0]), "%s", msg)
		}
	}
}
