//lint:file-ignore SA1019 Roots stay: clients of the older protocol generations confine the server with them.

package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/plan"
	"github.com/lobsterdev/lobster/runtime/preview"
	"github.com/lobsterdev/lobster/schema"
)

// Source names the workflow a tool works on: its text, or a file.
type Source struct {
	Text     *string `json:"text,omitempty" jsonschema:"the workflow's text (YAML or JSON); give text or path, not both"`
	Filename string  `json:"filename,omitempty" jsonschema:"the file name the text is checked under, for messages and for finding sub-workflows (default workflow.lobster); a name ending in .json is parsed as strict JSON"`
	Path     string  `json:"path,omitempty" jsonschema:"a workflow file inside the workspace roots, absolute or relative to the first root; instead of text"`
}

// CheckInput is the input of check.
type CheckInput struct {
	Source
}

// CheckOutput is what check finds.
type CheckOutput struct {
	File        string              `json:"file" jsonschema:"the name the findings are reported under"`
	Errors      int                 `json:"errors" jsonschema:"the number of findings of error severity: a workflow with errors does not run"`
	Warnings    int                 `json:"warnings"`
	Diagnostics []source.Diagnostic `json:"diagnostics" jsonschema:"the findings, sorted by position, as lobster check --format json prints them (ranges with byte offsets and 1-based lines and byte columns)"`
}

// FixInput is the input of fix.
type FixInput struct {
	Source
	Unsafe bool `json:"unsafe,omitempty" jsonschema:"also apply fixes that may change what the workflow does (review them)"`
}

// FixOutput is the fixed text and what remains.
type FixOutput struct {
	File        string              `json:"file"`
	Text        string              `json:"text" jsonschema:"the workflow's text with the fixes applied (the file itself is not written)"`
	Changed     bool                `json:"changed"`
	Applied     int                 `json:"applied" jsonschema:"the number of fixes applied"`
	Skipped     int                 `json:"skipped" jsonschema:"fixes left out because they overlap an applied one: call fix again on the text"`
	UnsafeLeft  int                 `json:"unsafeLeft" jsonschema:"unsafe fixes left out (see unsafe)"`
	Edits       []source.Edit       `json:"edits" jsonschema:"the edits applied, as ranges of the original text"`
	Diagnostics []source.Diagnostic `json:"diagnostics" jsonschema:"the findings that remain in the fixed text"`
}

// ExplainInput is the input of explain.
type ExplainInput struct {
	Code string `json:"code" jsonschema:"a diagnostic code, such as unknown-step-ref"`
}

// ExplainOutput is a code's documentation.
type ExplainOutput struct {
	Code string `json:"code"`
	Text string `json:"text" jsonschema:"the documentation, as lobster check --explain prints it"`
}

// PlanInput is the input of plan.
type PlanInput struct {
	Source
	Args map[string]any `json:"args,omitempty" jsonschema:"the workflow's args, as for lobster run --args-json"`
}

// PlanOutput is a workflow's plan.
type PlanOutput struct {
	File        string              `json:"file"`
	Text        string              `json:"text" jsonschema:"the plan as lobster plan prints it"`
	Plan        any                 `json:"plan" jsonschema:"the plan as lobster plan --format json prints it"`
	Errors      int                 `json:"errors" jsonschema:"the checker's errors: the plan is a preview, a workflow with errors does not run"`
	Diagnostics []source.Diagnostic `json:"diagnostics" jsonschema:"the checker's findings"`
}

// GraphInput is the input of graph.
type GraphInput struct {
	Source
	Format string         `json:"format,omitempty" jsonschema:"mermaid (the default), dot or ascii"`
	Args   map[string]any `json:"args,omitempty" jsonschema:"the workflow's args, for the labels"`
}

// GraphOutput is a workflow's graph.
type GraphOutput struct {
	File        string              `json:"file"`
	Format      string              `json:"format"`
	Graph       string              `json:"graph"`
	Errors      int                 `json:"errors"`
	Diagnostics []source.Diagnostic `json:"diagnostics" jsonschema:"the checker's findings"`
}

// schemaFor is the JSON Schema of T, with the JSON forms of the source
// package's types that marshal themselves.
func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[source.Severity](): {Type: "string", Enum: []any{"error", "warning", "info", "hint"}},
		reflect.TypeFor[any]():             {},
	}})
	if err != nil {
		panic(fmt.Sprintf("schema of %v: %v", reflect.TypeFor[T](), err))
	}
	return s
}

// readOnly annotates a tool that changes nothing.
var readOnly = &sdk.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}

func ptr[T any](v T) *T { return &v }

func (s *Server) addTools() {
	addTool(s, &sdk.Tool{
		Name:  "check",
		Title: "Check a workflow",
		Description: "Check a Lobster workflow (text or path) and return its findings exactly as `lobster check --format json` does: " +
			"code, severity, message, exact range and suggested fixes. Run it after every change to a workflow and before finishing.",
		InputSchema: schemaFor[CheckInput](), OutputSchema: schemaFor[CheckOutput](), Annotations: readOnly,
	}, s.check)
	addTool(s, &sdk.Tool{
		Name:  "fix",
		Title: "Fix a workflow",
		Description: "Apply the first fix of each finding (as `lobster check --fix`) and return the fixed text, the edits applied and the findings that remain. " +
			"The file is not written: write the text back yourself. Unsafe fixes only with unsafe: true.",
		InputSchema: schemaFor[FixInput](), OutputSchema: schemaFor[FixOutput](), Annotations: readOnly,
	}, s.fix)
	addTool(s, &sdk.Tool{
		Name:        "explain",
		Title:       "Explain a diagnostic code",
		Description: "The documentation of a diagnostic code (as `lobster check --explain CODE`): what it catches, why, and how to fix it.",
		InputSchema: schemaFor[ExplainInput](), OutputSchema: schemaFor[ExplainOutput](), Annotations: readOnly,
	}, s.explain)
	addTool(s, &sdk.Tool{
		Name:  "plan",
		Title: "Plan a workflow",
		Description: "The execution plan of a workflow without running anything (as `lobster plan`): steps in order with commands (${arg} substituted), " +
			"conditions, gates, retries, loops, branches and sub-workflows; with the checker's findings. Works on files with errors, as a preview.",
		InputSchema: schemaFor[PlanInput](), OutputSchema: schemaFor[PlanOutput](), Annotations: readOnly,
	}, s.plan)
	addTool(s, &sdk.Tool{
		Name:        "graph",
		Title:       "Graph a workflow",
		Description: "The steps of a workflow as a graph (as `lobster graph`): mermaid, dot or ascii; with the checker's findings.",
		InputSchema: schemaFor[GraphInput](), OutputSchema: schemaFor[GraphOutput](), Annotations: readOnly,
	}, s.graph)
	addTool(s, &sdk.Tool{
		Name:        "schema",
		Title:       "Workflow JSON Schema",
		Description: "The JSON Schema (draft 2020-12) of workflow files (as `lobster schema`).",
		InputSchema: &jsonschema.Schema{Type: "object"}, Annotations: readOnly,
	}, s.schema)
	if s.opts.AllowRun {
		s.addRunTools()
	}
}

// A loaded workflow text.
type loaded struct {
	name string // as reported
	path string // absolute, for finding sub-workflows
	src  []byte
}

// load reads the workflow a tool is given.
func (c *call) load(in Source) (*loaded, error) {
	switch {
	case in.Text != nil && in.Path != "":
		return nil, errors.New("give text or path, not both")
	case in.Text != nil:
		if len(*in.Text) > bounded.DefaultLimit {
			return nil, fmt.Errorf("text is %d bytes: files over %d bytes are not checked", len(*in.Text), bounded.DefaultLimit)
		}
		name := in.Filename
		if name == "" {
			name = "workflow.lobster"
		}
		dir := c.s.opts.Dir
		if roots, ok := c.knownRoots(); ok {
			dir = roots[0]
		}
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		return &loaded{name: filepath.ToSlash(name), path: filepath.Clean(p), src: []byte(*in.Text)}, nil
	case in.Path != "":
		roots, err := c.roots()
		if err != nil {
			return nil, err
		}
		real, err := resolve(roots, in.Path)
		if err != nil {
			return nil, err
		}
		src, err := bounded.ReadFile(real, bounded.DefaultLimit)
		if err != nil {
			return nil, fmt.Errorf("%s: %s", in.Path, bounded.Reason(err))
		}
		return &loaded{name: filepath.ToSlash(in.Path), path: real, src: src}, nil
	}
	return nil, errors.New("give the workflow's text or its path")
}

// analyzed is a checked workflow.
type analyzed struct {
	file  *ast.File
	diags []source.Diagnostic
}

// analyze parses and checks a workflow as lobster check does. A
// sub-workflow read before the roots are known makes it ask for them.
func (c *call) analyze(ctx context.Context, l *loaded) (*analyzed, error) {
	cfg, err := c.config(l)
	if err != nil {
		return nil, err
	}
	var needRoots atomic.Bool
	file, parseDiags := parser.Parse(l.name, l.src)
	diags, err := cfg.Check(ctx, file, parseDiags, check.Options{
		Path: l.path, ReadFile: c.readFile(&needRoots), Shellcheck: c.s.opts.Shellcheck, ShellcheckCache: c.s.shellcheck,
	})
	if err != nil {
		return nil, err
	}
	if needRoots.Load() {
		return nil, c.ask("roots", &sdk.ListRootsParams{}, c.state)
	}
	for i := range diags {
		if diags[i].File == "" {
			diags[i].File = l.name
		}
	}
	diags = append(diags, c.configDiags(cfg)...)
	source.Sort(diags)
	return &analyzed{file: file, diags: diags}, nil
}

// count is the number of diags of severity sev.
func count(diags []source.Diagnostic, sev source.Severity) int {
	n := 0
	for _, d := range diags {
		if d.Severity == sev {
			n++
		}
	}
	return n
}

// summary is a short text of findings for the model.
func summary(name string, diags []source.Diagnostic) string {
	if len(diags) == 0 {
		return name + ": no findings"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d error(s), %d warning(s)", name, count(diags, source.Error), count(diags, source.Warning))
	for i, d := range diags {
		if i == 20 {
			fmt.Fprintf(&b, "\n… and %d more (see the structured result)", len(diags)-i)
			break
		}
		fmt.Fprintf(&b, "\n%s:%d:%d: %s: %s [%s]", d.File, d.Range.Start.Line, d.Range.Start.Col, d.Severity, d.Message, d.Code)
	}
	return b.String()
}

// text is a result whose content is text (the structured output is added
// by the SDK).
func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

func (s *Server) check(ctx context.Context, c *call, in CheckInput) (*sdk.CallToolResult, CheckOutput, error) {
	l, err := c.load(in.Source)
	if err != nil {
		return nil, CheckOutput{}, err
	}
	a, err := c.analyze(ctx, l)
	if err != nil {
		return nil, CheckOutput{}, err
	}
	out := CheckOutput{File: l.name, Errors: count(a.diags, source.Error), Warnings: count(a.diags, source.Warning), Diagnostics: nonNil(a.diags)}
	return text(summary(l.name, a.diags)), out, nil
}

func (s *Server) fix(ctx context.Context, c *call, in FixInput) (*sdk.CallToolResult, FixOutput, error) {
	l, err := c.load(in.Source)
	if err != nil {
		return nil, FixOutput{}, err
	}
	a, err := c.analyze(ctx, l)
	if err != nil {
		return nil, FixOutput{}, err
	}
	p := source.PlanFixes(l.name, l.src, a.diags, in.Unsafe)
	out := FixOutput{File: l.name, Text: string(l.src), Skipped: p.Skipped, UnsafeLeft: p.Unsafe, Edits: []source.Edit{}, Diagnostics: nonNil(a.diags)}
	if len(p.Edits) > 0 {
		fixed, err := source.ApplyEdits(l.src, p.Edits)
		if err != nil {
			return nil, FixOutput{}, err
		}
		after, err := c.analyze(ctx, &loaded{name: l.name, path: l.path, src: fixed})
		if err != nil {
			return nil, FixOutput{}, err
		}
		out.Text, out.Changed, out.Applied, out.Edits, out.Diagnostics = string(fixed), string(fixed) != string(l.src), p.Applied, p.Edits, nonNil(after.diags)
	}
	msg := fmt.Sprintf("applied %d fix(es)", out.Applied)
	if out.Skipped > 0 {
		msg += fmt.Sprintf(", %d left for another call (they overlap)", out.Skipped)
	}
	if out.UnsafeLeft > 0 {
		msg += fmt.Sprintf(", %d unsafe fix(es) left out (unsafe: true applies them)", out.UnsafeLeft)
	}
	return text(msg + "\n" + summary(l.name, out.Diagnostics)), out, nil
}

func (s *Server) explain(_ context.Context, _ *call, in ExplainInput) (*sdk.CallToolResult, ExplainOutput, error) {
	doc, ok := check.Explain(in.Code)
	if !ok {
		return nil, ExplainOutput{}, fmt.Errorf("no documentation for %q: the codes are listed in the resource lobster://docs/diagnostics.md", in.Code)
	}
	return text(doc), ExplainOutput{Code: in.Code, Text: doc}, nil
}

// args are a tool's args as the runtime reads --args-json.
func args(m map[string]any) (any, error) {
	if m == nil {
		return nil, nil
	}
	return toJS(m)
}

// toJS is a decoded JSON value as the runtime's value.
func toJS(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jsvalue.Parse(data)
}

// preview plans a workflow whatever the checker found in it, as the
// CLI's previews and the language server's plan lens do: only load errors
// (what the reference rejects the file for) stop it.
func (c *call) preview(in Source, provided map[string]any) (*loaded, []source.Diagnostic, *plan.Plan, error) {
	l, err := c.load(in)
	if err != nil {
		return nil, nil, nil, err
	}
	v, err := args(provided)
	if err != nil {
		return nil, nil, nil, err
	}
	cfg, err := c.config(l)
	if err != nil {
		return nil, nil, nil, err
	}
	var needRoots atomic.Bool
	res := preview.Load(l.name, l.src, preview.Options{Path: l.path, Args: v, ReadFile: c.readFile(&needRoots), Shellcheck: c.s.opts.Shellcheck, ShellcheckCache: c.s.shellcheck, Config: cfg})
	if needRoots.Load() {
		return nil, nil, nil, c.ask("roots", &sdk.ListRootsParams{}, c.state)
	}
	diags := res.Diags
	for i := range diags {
		if diags[i].File == "" {
			diags[i].File = l.name
		}
	}
	diags = append(diags, c.configDiags(cfg)...)
	source.Sort(diags)
	if res.Plan == nil {
		return nil, nil, nil, fmt.Errorf("%s cannot be planned: the file does not load\n%s", l.name, summary(l.name, res.LoadErrors))
	}
	res.Plan.File = l.name
	return l, diags, res.Plan, nil
}

func (s *Server) plan(ctx context.Context, c *call, in PlanInput) (*sdk.CallToolResult, PlanOutput, error) {
	l, diags, p, err := c.preview(in.Source, in.Args)
	if err != nil {
		return nil, PlanOutput{}, err
	}
	t := p.Text()
	out := PlanOutput{File: l.name, Text: t, Plan: p, Errors: count(diags, source.Error), Diagnostics: nonNil(diags)}
	return text(t + "\n" + summary(l.name, diags)), out, nil
}

func (s *Server) graph(ctx context.Context, c *call, in GraphInput) (*sdk.CallToolResult, GraphOutput, error) {
	format := in.Format
	if format == "" {
		format = plan.GraphFormats[0]
	}
	if !slices.Contains(plan.GraphFormats, format) {
		return nil, GraphOutput{}, fmt.Errorf("format must be one of: %s", strings.Join(plan.GraphFormats, ", "))
	}
	l, diags, p, err := c.preview(in.Source, in.Args)
	if err != nil {
		return nil, GraphOutput{}, err
	}
	g, err := p.Graph(format)
	if err != nil {
		return nil, GraphOutput{}, err
	}
	out := GraphOutput{File: l.name, Format: format, Graph: g, Errors: count(diags, source.Error), Diagnostics: nonNil(diags)}
	return text(g), out, nil
}

func (s *Server) schema(context.Context, *call, struct{}) (*sdk.CallToolResult, any, error) {
	var v any
	if err := json.Unmarshal(schema.JSON, &v); err != nil {
		return nil, nil, err
	}
	return text(string(schema.JSON)), v, nil
}

// nonNil is diags, [] rather than null when empty.
func nonNil(diags []source.Diagnostic) []source.Diagnostic {
	if diags == nil {
		return []source.Diagnostic{}
	}
	return diags
}
