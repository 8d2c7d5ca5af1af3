package check

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// MustacheSyntax reports {{ … }} and ${{ … }} templates, which Lobster does
// not evaluate.
var MustacheSyntax = &Analyzer{
	Name:     "mustache-syntax",
	Severity: source.Warning,
	Summary:  "a {{ … }} or ${{ … }} template, which Lobster does not evaluate",
	Doc: `Workflow fields have no ` + "`{{ }}`" + ` syntax: the only substitutions are ` + "`${arg}`" + `
for args and ` + "`$id.path`" + ` for step results. A ` + "`{{ inputs.name }}`" + ` or a GitHub-Actions
` + "`${{ steps.x.outputs.y }}`" + ` reaches the command, the environment or the prompt as literal text (and
` + "`${{`" + ` in shell text is a "bad substitution" error). Filters such as ` + "`{{ x | upper }}`" + ` exist
only inside the quoted text of the ` + "`template`" + ` pipeline command, which is not reported.

In shell text, only a ` + "`{{ name }}`" + ` or ` + "`{{ a.b }}`" + ` that reads like a variable is reported: Go templates
such as ` + "`docker ps --format '{{.Names}}'`" + ` are the command's own syntax. A file written in another
dialect throughout is reported once as ` + "`foreign-dialect`" + ` instead.`,
	Bad:  "args:\n  name: {}\nsteps:\n  - id: greet\n    run: echo \"hello {{ inputs.name }}\"",
	Good: "args:\n  name: {}\nsteps:\n  - id: greet\n    run: echo \"hello ${name}\"",
	Fix:  "replace a {{ name }} or {{ inputs.name }} naming a declared arg with ${name}",
	Run:  func(p *Pass) { reportUnlessForeign(p, collectMustache) },
}

// mustachePath is the inside of a {{ }} that reads like a variable.
var mustachePath = lazyRE(`^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$`)

// goTemplateWords are Go text/template actions and functions, which a
// command's own --format '{{json .}}' uses.
var goTemplateWords = map[string]bool{"range": true, "end": true, "if": true, "else": true, "with": true, "define": true,
	"template": true, "block": true, "len": true, "index": true, "print": true, "printf": true, "println": true,
	"json": true, "not": true, "and": true, "or": true, "eq": true, "ne": true, "lt": true, "le": true, "gt": true,
	"ge": true, "call": true, "slice": true, "html": true, "js": true, "urlquery": true, "nil": true, "true": true, "false": true}

func collectMustache(p *Pass, emit func(source.Diagnostic)) {
	w := p.File.Workflow
	if w == nil || !bytes.Contains(p.File.Src.Content, []byte("{{")) {
		return
	}
	scanMap := func(f *ast.Field, what string) {
		if m, ok := fieldValue(f).(*ast.TemplateMap); ok {
			for _, e := range m.Fields {
				if t, ok := e.Value.(*ast.Template); ok {
					scanMustache(p, t.Scalar, what, false, nil, emit)
				}
			}
		}
	}
	scanMap(w.Env, "environment variable")
	for _, s := range structureSteps(p.Info) {
		st := s.Step
		for _, f := range []*ast.Field{st.Run, st.Command} {
			if sh, ok := fieldValue(f).(*ast.Shell); ok {
				scanMustache(p, sh.Scalar, "shell command", true, nil, emit)
			}
		}
		if pl, ok := fieldValue(st.Pipeline).(*ast.Pipeline); ok {
			var skip []source.Span
			for _, stage := range pl.Stages {
				if stage.Name != nil && stage.Name.Text == "template" {
					skip = append(skip, ast.SpanOf(stage))
				}
			}
			scanMustache(p, pl.Scalar, "pipeline", false, skip, emit)
		}
		for _, f := range []*ast.Field{st.Stdin, st.Workflow, st.Cwd} {
			if t, ok := fieldValue(f).(*ast.Template); ok {
				scanMustache(p, t.Scalar, f.Name(), false, nil, emit)
			}
		}
		scanMap(st.Env, "environment variable")
		scanMap(st.WorkflowArgs, "sub-workflow")
		if st.Approval != nil {
			scanStrings(p, st.Approval.Value, "approval request", emit)
		}
		if in, ok := fieldValue(st.Input).(*ast.Input); ok && in.Prompt != nil {
			scanStrings(p, in.Prompt.Value, "input request", emit)
		}
	}
}

// scanStrings scans every string scalar under a value.
func scanStrings(p *Pass, v ast.Value, what string, emit func(source.Diagnostic)) {
	ast.Inspect(v, func(n ast.Node) bool {
		if s, ok := n.(*ast.Scalar); ok && s.Kind == ast.String {
			scanMustache(p, s, what, false, nil, emit)
		}
		return n != nil
	})
}

// scanMustache reports the {{ }} templates of one string.
func scanMustache(p *Pass, s *ast.Scalar, what string, shell bool, skip []source.Span, emit func(source.Diagnostic)) {
	text := s.Text
	from := 0
	for {
		i := strings.Index(text[from:], "{{")
		if i < 0 {
			return
		}
		i += from
		j := strings.Index(text[i+2:], "}}")
		if j < 0 {
			return
		}
		j += i + 2
		from = j + 2
		start := i
		gha := i > 0 && text[i-1] == '$'
		if gha {
			start--
		}
		inner := strings.TrimSpace(text[i+2 : j])
		if strings.Contains(inner, "{{") {
			from = i + 2 // "{{{{": look again from the inner braces
			continue
		}
		path := mustachePath().MatchString(inner) && !goTemplateWords[inner]
		if !gha && !path {
			if shell || inner == "" || strings.HasPrefix(inner, ".") || strings.Contains(inner, "|") {
				continue // the command's own template syntax, or a filter
			}
			if first := strings.Fields(inner)[0]; goTemplateWords[first] {
				continue
			}
		}
		sp := s.Map.Span(start, j+2)
		if inSpans(skip, sp.Start) {
			continue
		}
		written := text[start : j+2]
		kind := "is not a Lobster template"
		if gha {
			kind = "is GitHub Actions expression syntax, which Lobster does not evaluate"
		}
		d := p.Finding(sp, "%q %s: it reaches the %s as literal text; %s", written, kind, what, mustacheRemedy(p, inner))
		if name := mustacheArg(p, inner); name != "" {
			d.Fixes = []source.Fix{{Message: fmt.Sprintf("Replace %q with \"${%s}\"", written, name), Edits: []source.Edit{p.Edit(sp, "${"+name+"}")}}}
			if s.Map.Segments() != nil {
				if _, ok := s.Map.VerbatimAt(start, j+2); !ok {
					d.Fixes = nil // escapes or folding inside: no exact edit
				}
			}
		}
		emit(d)
	}
}

func inSpans(spans []source.Span, off int) bool {
	for _, sp := range spans {
		if sp.Contains(off) {
			return true
		}
	}
	return false
}

// mustacheArg is the declared arg a {{ name }} or {{ inputs.name }} means, or "".
func mustacheArg(p *Pass, inner string) string {
	name := inner
	for _, prefix := range []string{"inputs.", "input.", "args.", "params.", "vars."} {
		name = strings.TrimPrefix(name, prefix)
	}
	if p.Info.ArgBy[name] != nil && mustachePath().MatchString(name) && !strings.Contains(name, ".") {
		return name
	}
	return ""
}

// mustacheRemedy says what to write instead.
func mustacheRemedy(p *Pass, inner string) string {
	if name := mustacheArg(p, inner); name != "" {
		return fmt.Sprintf("use \"${%s}\" for the arg", name)
	}
	parts := strings.Split(inner, ".")
	switch {
	case len(parts) >= 2 && (parts[0] == "inputs" || parts[0] == "args" || parts[0] == "params"):
		return fmt.Sprintf("declare %q under args and use \"${%s}\"", parts[1], parts[1])
	case len(parts) >= 3 && parts[0] == "steps":
		return fmt.Sprintf("use \"$%s.stdout\" or \"$%s.json\" for the step's output", parts[1], parts[1])
	case len(parts) >= 2 && (parts[0] == "env" || parts[0] == "secrets"):
		return fmt.Sprintf("in shell text read the environment variable as \"$%s\" (set it under env)", parts[len(parts)-1])
	case len(parts) >= 1 && len(p.Info.ByID[parts[0]]) > 0:
		return fmt.Sprintf("use \"$%s.stdout\" or \"$%s.json\" for the step's output", parts[0], parts[0])
	}
	return "use ${name} for args and $step.json.field for step output"
}
