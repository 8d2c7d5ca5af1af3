package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

func hover(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
	an := doc.analysis()
	var p protocol.HoverParams
	off, err := positionParams(an, raw, &p)
	if err != nil {
		return nil, err
	}
	t := an.targetAt(off)
	var md string
	switch t.kind {
	case stepDecl:
		md = an.stepHover(t.step)
	case stepRefID:
		md = an.refHover(t)
	case stepRefField:
		md = an.refFieldHover(t)
	case argDecl, argRef, argEnv:
		md = an.argHover(t)
	case stageName:
		md = commandHover(s.configFor(doc).Commands(), t.name)
	case stageFlag:
		md = flagHover(s.configFor(doc).Commands(), t.stage, t.name)
	case keyTarget:
		md = keyHover(t.objCtx, t.name)
	}
	if md == "" {
		var span source.Span
		md, span = an.childHover(t)
		if md != "" {
			r := an.m.Range(span)
			return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: md}, Range: &r}, nil
		}
	}
	if md == "" {
		return nil, nil
	}
	r := an.m.Range(t.span)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: md}, Range: &r}, nil
}

// stepKind names what a step does.
func stepKind(st *ast.Step) string {
	switch {
	case st.Run != nil || st.Command != nil:
		return "shell step"
	case st.Pipeline != nil:
		return "pipeline step"
	case st.Workflow != nil:
		return "sub-workflow step"
	case st.Parallel != nil:
		return "parallel step"
	case st.ForEach != nil:
		return "for_each loop"
	case st.Input != nil:
		return "input step"
	case st.Approval != nil:
		return "approval step"
	}
	return "step"
}

// withArgDefaults replaces each ${arg} of text by the arg's default, as a
// run without --args-json would (references are found with parser.ScanText,
// the runtime's scanner).
func (an *analysis) withArgDefaults(text string) string {
	var b strings.Builder
	last := 0
	for r := range parser.ScanText(text) {
		if r.Kind != parser.ArgText {
			continue
		}
		if v, ok := an.info().ArgDefaultText(r.Name); ok {
			b.WriteString(text[last:r.Start])
			b.WriteString(v)
			last = r.End
		}
	}
	b.WriteString(text[last:])
	return b.String()
}

func (an *analysis) stepHover(si *check.StepInfo) string {
	if si == nil {
		return ""
	}
	st := si.Step
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** `%s`", stepKind(st), si.ID)
	if si.Parent != nil {
		rel := "sub-step of"
		if si.Parent.Step.Parallel != nil {
			rel = "branch of"
		}
		fmt.Fprintf(&b, " (%s `%s`)", rel, si.Parent.ID)
	}
	b.WriteString("\n")
	code := func(lang, label, text string) {
		if text == "" {
			return
		}
		text = strings.TrimRight(an.withArgDefaults(text), "\n")
		fmt.Fprintf(&b, "\n%s:\n```%s\n%s\n```\n", label, lang, text)
	}
	switch {
	case st.Run != nil:
		code("sh", "runs (args at their defaults)", an.fieldText(st.Run))
	case st.Command != nil:
		code("sh", "runs (args at their defaults)", an.fieldText(st.Command))
	case st.Pipeline != nil:
		code("", "pipeline (args at their defaults)", an.fieldText(st.Pipeline))
	case st.Workflow != nil:
		fmt.Fprintf(&b, "\nruns the workflow `%s`\n", an.withArgDefaults(an.fieldText(st.Workflow)))
	case st.ForEach != nil:
		fmt.Fprintf(&b, "\nfor each item of `%s` (as `$%s`, index `$%s`)\n", an.fieldText(st.ForEach), si.ItemVar, si.IndexVar)
	}
	var facts []string
	if st.Stdin != nil {
		facts = append(facts, fmt.Sprintf("stdin: `%s`", oneLine(an.fieldText(st.Stdin))))
	}
	if si.HasGate() {
		prompt := ""
		if sc, ok := ast.Resolve(st.Approval.Value).(*ast.Scalar); ok && sc.Kind == ast.String && sc.Text != "required" {
			prompt = sc.Text
		} else if ap, ok := st.Approval.Value.(*ast.Approval); ok {
			prompt = an.fieldText(ap.Prompt)
		}
		if prompt == "" {
			prompt = "Approve " + si.ID + "?"
		}
		facts = append(facts, fmt.Sprintf("approval gate: %q", prompt))
	}
	if si.IsInput() {
		facts = append(facts, "input gate: halts for a response ($"+si.ID+".response)")
	}
	for _, c := range []*ast.Field{st.When, st.Condition} {
		if c != nil {
			facts = append(facts, fmt.Sprintf("%s: `%s`", c.Name(), oneLine(an.fieldText(c))))
		}
	}
	if st.OnError != nil {
		facts = append(facts, "on_error: "+an.fieldText(st.OnError))
	}
	if st.Retry != nil {
		facts = append(facts, "retried (retry)")
	}
	if st.TimeoutMs != nil {
		facts = append(facts, "timeout_ms: "+an.fieldText(st.TimeoutMs))
	}
	if len(facts) > 0 {
		b.WriteString("\n")
		for _, f := range facts {
			fmt.Fprintf(&b, "- %s\n", f)
		}
	}
	return b.String()
}

// fieldText is a field's string value, or its value as written; "" for no
// field.
func (an *analysis) fieldText(f *ast.Field) string {
	if f == nil {
		return ""
	}
	if sc := ast.ScalarOf(f.Value); sc != nil {
		return sc.Text
	}
	return an.file.Src.TextOf(ast.SpanOf(f.Value))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

var visibilityNotes = map[check.Visibility]string{
	check.Unknown:       "no step, branch, sub-step or loop variable has this id",
	check.Self:          "this is the step itself: its result does not exist yet",
	check.Later:         "this step runs later: its result does not exist yet here",
	check.OutOfScope:    "a sub-step or loop variable is visible only inside its loop",
	check.SiblingBranch: "another branch of the same parallel step: branches run concurrently",
}

func (an *analysis) refHover(t target) string {
	var note string
	if t.site != nil {
		note = visibilityNotes[an.info().ResolveSite(t.site, t.name).Visibility]
	}
	if t.step == nil {
		if note == "" {
			return ""
		}
		return fmt.Sprintf("`$%s`: %s", t.name, note)
	}
	var md string
	if t.loopVar {
		what := "the current item"
		if t.name == t.step.IndexVar {
			what = "the 0-based index of the current item"
		}
		md = fmt.Sprintf("**loop variable** `$%s`: %s of the for_each loop `%s`\n", t.name, what, t.step.ID)
	} else {
		md = an.stepHover(t.step)
	}
	if note != "" {
		md += "\n⚠ " + note + "\n"
	}
	return md
}

func (an *analysis) refFieldHover(t target) string {
	path := []string{}
	for _, seg := range t.ref.Path[:t.seg+1] {
		path = append(path, seg.Name)
	}
	expr := "$" + t.ref.ID + "." + strings.Join(path, ".")
	if t.seg == 0 {
		doc := check.ResultFieldDoc(t.name)
		if doc == "" {
			return fmt.Sprintf("`%s`: a step result has no field %q (fields: %s)", expr, t.name, strings.Join(check.ResultFields, ", "))
		}
		target := "step `" + t.ref.ID + "`"
		if t.step != nil {
			target = stepKind(t.step.Step) + " `" + t.ref.ID + "`"
		}
		return fmt.Sprintf("`%s`: %s\n\nof the %s", expr, doc, target)
	}
	parent := "$" + t.ref.ID + "." + strings.Join(path[:len(path)-1], ".")
	if t.site != nil {
		if sh := newShaper(an.readFile).refShape(an, t.site.Step, t.ref.ID, path[:len(path)-1]); sh != nil {
			if k := sh.key(t.name); k != nil {
				return fmt.Sprintf("`%s`: the key `%s` of `%s`, %s", expr, t.name, parent, k.origin)
			}
			if isIndex(t.name) && sh.elem != nil {
				return fmt.Sprintf("`%s`: the item %s of the array `%s` (`undefined` past its end)", expr, t.name, parent)
			}
		}
	}
	return fmt.Sprintf("`%s`: walks into `%s` (a key or an array index; a missing one is `undefined`)", expr, parent)
}

func (an *analysis) argHover(t target) string {
	name := t.name
	if t.arg != nil {
		name = t.arg.Name()
	} else if t.kind == argEnv {
		return fmt.Sprintf("`%s`: no declared arg sets this variable (args set `LOBSTER_ARG_<NAME>`: the name upper-cased, other characters as `_`)", t.name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**arg** `%s`\n", name)
	if t.arg == nil {
		b.WriteString("\nnot declared under `args:`: `${" + name + "}` is replaced only when a value is passed\n")
		return b.String()
	}
	if def, ok := t.arg.Value.(*ast.ArgDef); ok {
		if d := an.fieldText(def.Description); d != "" {
			fmt.Fprintf(&b, "\n%s\n", d)
		}
		if def.Default != nil {
			if v, ok := an.info().ArgDefaultText(name); ok {
				fmt.Fprintf(&b, "\ndefault: `%s`\n", v)
			} else {
				b.WriteString("\ndefault: a list or mapping (use `LOBSTER_ARGS_JSON` for structured values)\n")
			}
		} else {
			b.WriteString("\nno default: `${" + name + "}` has a value only when one is passed\n")
		}
	}
	if env := check.ArgEnvName(name); env != "" {
		fmt.Fprintf(&b, "\nin the environment as `%s%s` (the name upper-cased, other characters as `_`), and in `LOBSTER_ARGS_JSON`\n", argEnvPrefix, env)
	} else {
		b.WriteString("\nno `LOBSTER_ARG_` variable: the name has no letter or digit\n")
	}
	return b.String()
}

// commandHover documents the pipeline command name, one of cmds (nil for
// the built-in commands).
func commandHover(cmds *commands.Registry, name string) string {
	c, ok := cmds.Lookup(name)
	if !ok {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** — %s\n", c.Name, c.Summary)
	if c.Host {
		b.WriteString("\na command of the host that runs the workflow, declared in the project configuration (`lobster run` cannot run it)\n")
	}
	if c.Help != "" {
		fmt.Fprintf(&b, "\n%s\n", c.Help)
	}
	if len(c.Flags) > 0 {
		b.WriteString("\nflags:\n")
		for _, f := range c.Flags {
			fmt.Fprintf(&b, "- `--%s` (%s)", f.Name, f.Type)
			if f.Description != "" {
				fmt.Fprintf(&b, ": %s", f.Description)
			}
			b.WriteString("\n")
		}
	}
	if c.Effect != commands.None {
		fmt.Fprintf(&b, "\nside effects: %s\n", c.Effect)
	}
	return b.String()
}

// flagHover documents the flag name of a stage's command, one of cmds.
func flagHover(cmds *commands.Registry, st *ast.Stage, name string) string {
	if st == nil || st.Name == nil {
		return ""
	}
	c, ok := cmds.Lookup(st.Name.Text)
	if !ok {
		return ""
	}
	f := c.Flag(name)
	if f == nil {
		return fmt.Sprintf("`%s` has no flag `--%s`", c.Name, name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "**--%s** (%s) of `%s`\n", f.Name, f.Type, c.Name)
	if f.Description != "" {
		fmt.Fprintf(&b, "\n%s\n", f.Description)
	}
	if len(f.Values) > 0 {
		fmt.Fprintf(&b, "\nvalues: %s\n", strings.Join(f.Values, ", "))
	}
	if f.HasDefault {
		fmt.Fprintf(&b, "\ndefault: `%s`\n", f.Default)
	}
	if f.Required {
		b.WriteString("\nrequired\n")
	}
	return b.String()
}

func keyHover(def, key string) string {
	if def == "" {
		return ""
	}
	kd, ok := loadSchemaDocs().key(def, key)
	if !ok {
		return ""
	}
	md := fmt.Sprintf("**%s**\n\n%s", key, kd.Description)
	if len(kd.Enum) > 0 {
		md += "\n\nvalues: " + strings.Join(kd.Enum, ", ")
	}
	return md
}

// childHover describes, on a workflow: value, the child file and its args,
// and on a workflow_args key, the child's arg.
func (an *analysis) childHover(t target) (string, source.Span) {
	st, i := enclosingStep(t.nodes)
	if st == nil || i+1 >= len(t.nodes) || an.path == "" {
		return "", source.Span{}
	}
	fd, ok := t.nodes[i+1].(*ast.Field)
	if !ok || (fd != st.Workflow && fd != st.WorkflowArgs) {
		return "", source.Span{}
	}
	si := an.stepInfo(st)
	if si == nil {
		return "", source.Span{}
	}
	file, ok := an.info().SubWorkflowFile(si, an.path)
	if !ok {
		return "", source.Span{}
	}
	text, err := an.readFile(file)
	if err != nil {
		return fmt.Sprintf("runs `%s`, which cannot be read: %v", file, err), ast.SpanOf(fd.Value)
	}
	cf, _ := parser.Parse(file, text)
	cin := check.NewInfo(cf)
	if fd == st.Workflow {
		var b strings.Builder
		plural := "s"
		if len(cin.Top) == 1 {
			plural = ""
		}
		fmt.Fprintf(&b, "runs the workflow `%s` (%d step%s)\n", file, len(cin.Top), plural)
		if len(cin.Args) > 0 {
			b.WriteString("\nargs:\n")
			for _, a := range cin.Args {
				fmt.Fprintf(&b, "- `%s`", a.Name())
				if v, ok := cin.ArgDefaultText(a.Name()); ok {
					fmt.Fprintf(&b, " (default `%s`)", v)
				}
				b.WriteString("\n")
			}
		}
		return b.String(), ast.SpanOf(fd.Value)
	}
	if t.kind != keyTarget || t.field == fd {
		return "", source.Span{}
	}
	arg := cin.ArgBy[t.name]
	if arg == nil {
		return fmt.Sprintf("`%s` declares no arg %q", filepath.Base(file), t.name), t.span
	}
	child := &analysis{file: cf, m: Mapper{File: cf.Src}, path: file}
	child.inf = cin
	child.infoOnce.Do(func() {})
	md := child.argHover(target{kind: argDecl, name: t.name, arg: arg})
	return md + "\nof the child workflow `" + filepath.Base(file) + "`\n", t.span
}
