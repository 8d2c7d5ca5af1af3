package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file holds what the workflow_args rules (workflow-args-undeclared,
// workflow-args-missing, workflow-args-stringified) share: what a
// workflow: step passes to its child and what the child reads of its args.

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

// The children of the examples of the workflow_args rules.
const (
	greetChild  = "-- child.lobster --\nargs:\n  name: {default: world}\nsteps:\n  - id: greet\n    run: echo \"hello ${name}\"\n"
	deployChild = "-- child.lobster --\nargs:\n  target: {}\nsteps:\n  - id: go\n    run: deploy ${target}\n"
	countChild  = "-- child.lobster --\nargs:\n  count: {default: 0}\nsteps:\n  - id: big\n    run: test \"${count}\" -gt 10 && echo big\n"
)
