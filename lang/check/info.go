package check

import (
	"bytes"
	"iter"
	"sort"
	"strings"
	"sync"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/commands"
)

// Info holds the facts about a file that many analyzers need: its steps in
// order, who can see whom, its args, and every reference with the place it
// stands. It is built once per file (see [NewInfo]).
type Info struct {
	File  *ast.File
	Steps []*StepInfo // every step, branch and sub-step, in source order
	Top   []*StepInfo // the top-level steps, in order
	ByID  map[string][]*StepInfo
	Args  []*ast.Field          // declared args, in order
	ArgBy map[string]*ast.Field // declared args by name
	Refs  []RefSite             // every reference token, in source order
	Vars  []VarSite             // every shell parameter expansion, in source order
	// Commands are the pipeline commands the rules know: the built-in
	// ones (nil) or, for a project that declares its host's commands,
	// a registry with them (Options.Commands). Set it before the Info
	// is shared.
	Commands *commands.Registry

	mu       sync.Mutex        // guards the lazily computed fields below
	envNames map[string]bool   // see EnvNames
	suggest  map[string]string // see SuggestID
	allIDs   []string
	loopVars map[string]*StepInfo // loop variable name → its first loop

	// Blocks the step infos and the one-step ByID lists are cut from: a
	// large file has thousands of steps.
	infoBlock []StepInfo
	idBlock   []*StepInfo
}

// StepInfo places a step in the workflow.
type StepInfo struct {
	Step     *ast.Step
	ID       string      // the id if it is a string, else ""
	Top      int         // index in Info.Top of the top-level step that holds it
	Parent   *StepInfo   // the parallel step of a branch, the loop of a sub-step
	Children []*StepInfo // branches or sub-steps
	// ItemVar and IndexVar are a loop's variable names (defaults item and index).
	ItemVar, IndexVar string
}

// IsLoop reports whether the step is a for_each loop.
func (s *StepInfo) IsLoop() bool { return s.Step.ForEach != nil }

// HasGate reports whether the step has an approval gate (true, a
// non-blank string or a mapping).
func (s *StepInfo) HasGate() bool {
	if s.Step.Approval == nil {
		return false
	}
	switch v := ast.Resolve(s.Step.Approval.Value).(type) {
	case *ast.Approval:
		return true
	case *ast.Scalar:
		switch v.Kind {
		case ast.Bool:
			return v.Bool
		case ast.String:
			return strings.TrimSpace(v.Text) != ""
		}
	}
	return false
}

// IsInput reports whether the step is an input step.
func (s *StepInfo) IsInput() bool {
	if s.Step.Input == nil {
		return false
	}
	_, ok := s.Step.Input.Value.(*ast.Input)
	return ok
}

// RefContext says how the runtime reads the string a reference stands in.
type RefContext int

// Reference contexts.
const (
	InShell     RefContext = iota // run/command: text handed to a shell
	InTemplate                    // env values, workflow path, workflow_args, partial stdin/for_each
	InWhole                       // stdin/for_each that is exactly one $id.path: a strict lookup
	InCondition                   // when/condition: strict
	InPipeline                    // pipeline text, templated before it is parsed
	InCwd                         // cwd: only ${arg} is substituted
)

var refContextNames = [...]string{"shell text", "template", "whole-value reference", "condition", "pipeline", "cwd"}

func (c RefContext) String() string { return refContextNames[c] }

// Strict reports whether an unknown step reference fails the run here (in
// templates it is left in the text).
func (c RefContext) Strict() bool { return c == InWhole || c == InCondition }

// RefSite is one reference token and where it stands.
type RefSite struct {
	Ref     ast.Ref
	Step    *StepInfo // the step whose field holds it; nil for workflow-level env and cwd
	Field   *ast.Field
	Context RefContext

	res Resolution // what a step reference's id resolves to, computed once
}

// VarSite is one shell parameter expansion of a run/command text.
type VarSite struct {
	Var   *ast.ShellVar
	Step  *StepInfo
	Field *ast.Field
}

// NewInfo indexes a parsed file.
func NewInfo(f *ast.File) *Info {
	in := &Info{File: f, ByID: map[string][]*StepInfo{}, ArgBy: map[string]*ast.Field{}, loopVars: map[string]*StepInfo{}}
	// Every reference and shell variable starts with a '$': size the lists
	// once instead of growing them.
	if n := bytes.Count(f.Src.Content, []byte{'$'}); n > 0 {
		in.Refs = make([]RefSite, 0, n)
		in.Vars = make([]VarSite, 0, n/2+1)
	}
	w := f.Workflow
	if w == nil {
		return in
	}
	if w.Args != nil {
		if a, ok := w.Args.Value.(*ast.Args); ok {
			for _, fd := range a.Fields {
				in.Args = append(in.Args, fd)
				in.ArgBy[fd.Name()] = fd
			}
		}
	}
	in.addTemplates(nil, w.Env, InTemplate)
	in.addField(nil, w.Cwd)
	if l, ok := fieldValue(w.Steps).(*ast.StepList); ok {
		steps := l.Steps()
		in.ByID = make(map[string][]*StepInfo, len(steps))
		in.Top = make([]*StepInfo, 0, len(steps))
		in.Steps = make([]*StepInfo, 0, len(steps))
		for _, s := range steps {
			in.addStep(s, nil, len(in.Top))
		}
	}
	// Many rules ask what each step reference names: answer once.
	for i := range in.Refs {
		rs := &in.Refs[i]
		if r, ok := rs.Ref.(*ast.StepRef); ok {
			rs.res = in.resolveSite(rs, r.ID)
		}
	}
	return in
}

func fieldValue(f *ast.Field) ast.Value {
	if f == nil {
		return nil
	}
	return f.Value
}

func (in *Info) addStep(s *ast.Step, parent *StepInfo, top int) *StepInfo {
	if len(in.infoBlock) == 0 {
		in.infoBlock = make([]StepInfo, 64)
	}
	si := &in.infoBlock[0]
	in.infoBlock = in.infoBlock[1:]
	*si = StepInfo{Step: s, ID: s.IDText(), Top: top, Parent: parent}
	if parent == nil {
		in.Top = append(in.Top, si)
	}
	in.Steps = append(in.Steps, si)
	if si.ID != "" {
		if prev := in.ByID[si.ID]; prev != nil {
			in.ByID[si.ID] = append(prev, si)
		} else {
			// Most ids name one step: a list of one, cut from a block
			// (full, so a second step with the id gets a copy).
			if len(in.idBlock) == 0 {
				in.idBlock = make([]*StepInfo, 128)
			}
			one := in.idBlock[:1:1]
			in.idBlock = in.idBlock[1:]
			one[0] = si
			in.ByID[si.ID] = one
		}
	}
	if s.ForEach != nil {
		si.ItemVar, si.IndexVar = "item", "index"
		if v := stringValue(s.ItemVar); v != "" {
			si.ItemVar = v
		}
		if v := stringValue(s.IndexVar); v != "" {
			si.IndexVar = v
		}
		for _, v := range []string{si.ItemVar, si.IndexVar} {
			if in.loopVars[v] == nil {
				in.loopVars[v] = si
			}
		}
	}
	for _, f := range s.Fields {
		in.addField(si, f)
	}
	if p, ok := fieldValue(s.Parallel).(*ast.Parallel); ok {
		if l, ok := fieldValue(p.Branches).(*ast.StepList); ok {
			for _, b := range l.Steps() {
				si.Children = append(si.Children, in.addStep(b, si, top))
			}
		}
	}
	if l, ok := fieldValue(s.Steps).(*ast.StepList); ok {
		for _, sub := range l.Steps() {
			si.Children = append(si.Children, in.addStep(sub, si, top))
		}
	}
	return si
}

func stringValue(f *ast.Field) string {
	if f == nil {
		return ""
	}
	if s, ok := f.Value.(*ast.Scalar); ok && s.Kind == ast.String {
		return s.Text
	}
	return ""
}

// addField records the references and shell variables of one field.
func (in *Info) addField(s *StepInfo, f *ast.Field) {
	if f == nil {
		return
	}
	switch v := f.Value.(type) {
	case *ast.Shell:
		in.addRefs(s, f, v.Refs, InShell)
		for _, sv := range v.Vars {
			in.Vars = append(in.Vars, VarSite{Var: sv, Step: s, Field: f})
		}
	case *ast.Pipeline:
		in.addRefs(s, f, v.Refs, InPipeline)
	case *ast.Condition:
		if v.Expr != nil {
			ast.Inspect(v.Expr, func(n ast.Node) bool {
				if r, ok := n.(*ast.StepRef); ok {
					in.Refs = append(in.Refs, RefSite{Ref: r, Step: s, Field: f, Context: InCondition})
					return false
				}
				return n != nil
			})
		}
	case *ast.Template:
		ctx := InTemplate
		switch f.Name() {
		case "cwd":
			ctx = InCwd
		case "stdin", "for_each":
			if IsWholeRef(v) {
				ctx = InWhole
			}
		}
		in.addRefs(s, f, v.Refs, ctx)
	case *ast.TemplateMap:
		in.addTemplates(s, f, InTemplate)
	}
}

func (in *Info) addTemplates(s *StepInfo, f *ast.Field, ctx RefContext) {
	if f == nil {
		return
	}
	m, ok := f.Value.(*ast.TemplateMap)
	if !ok {
		return
	}
	for _, e := range m.Fields {
		if t, ok := e.Value.(*ast.Template); ok {
			in.addRefs(s, e, t.Refs, ctx)
		}
	}
}

func (in *Info) addRefs(s *StepInfo, f *ast.Field, refs []ast.Ref, ctx RefContext) {
	for _, r := range refs {
		in.Refs = append(in.Refs, RefSite{Ref: r, Step: s, Field: f, Context: ctx})
	}
}

// StepRefs yields every $id.path reference outside cwd (where no step
// reference is substituted), with its site, in source order.
func (in *Info) StepRefs() iter.Seq2[*RefSite, *ast.StepRef] {
	return func(yield func(*RefSite, *ast.StepRef) bool) {
		for i := range in.Refs {
			rs := &in.Refs[i]
			if r, ok := rs.Ref.(*ast.StepRef); ok && rs.Context != InCwd && !yield(rs, r) {
				return
			}
		}
	}
}

// IsWholeRef reports whether a template is exactly one $id.path once
// trimmed: the strict whole-value form of stdin and for_each.
func IsWholeRef(t *ast.Template) bool {
	if len(t.Refs) != 1 {
		return false
	}
	r, ok := t.Refs[0].(*ast.StepRef)
	if !ok {
		return false
	}
	text := t.Scalar.Text
	lead := len(text) - len(strings.TrimLeft(text, " \t\n\r"))
	trail := len(strings.TrimRight(text, " \t\n\r"))
	// The ref must cover exactly the trimmed text: compare decoded lengths.
	return trail-lead == len(ast.RefText(r)) && strings.HasPrefix(text[lead:], "$"+r.ID)
}

// Visibility is how a reference's id resolves at the place it stands.
type Visibility int

// Visibilities.
const (
	Visible       Visibility = iota // a step that has run before this point, or an in-scope loop variable
	Unknown                         // no step, branch, sub-step or loop variable has this id
	Self                            // the step itself
	Later                           // a step that runs later
	OutOfScope                      // a sub-step or loop variable used outside its loop
	SiblingBranch                   // another branch of the same parallel step
	WorkflowLevel                   // workflow env: evaluated for each step; any step may be meant
)

// Resolution is the result of [Info.Resolve].
type Resolution struct {
	Visibility Visibility
	Target     *StepInfo // the step the id names (for loop variables: the loop)
	LoopVar    bool      // the id is a loop variable of Target
}

// Resolve finds what id names at a reference site. It takes constant time
// for a given id (definitions are indexed), so checking a file is linear.
func (in *Info) Resolve(site *StepInfo, id string) Resolution {
	// Inside a loop: loop variables and the sub-steps of the same loop.
	if loop := siteLoop(site); loop != nil {
		if id == loop.ItemVar || id == loop.IndexVar {
			return Resolution{Visibility: Visible, Target: loop, LoopVar: true}
		}
		for _, sub := range loop.Children {
			if sub.ID != id {
				continue
			}
			switch {
			case sub == site:
				return Resolution{Visibility: Self, Target: sub}
			case sub.Step.Pos() < site.Step.Pos():
				return Resolution{Visibility: Visible, Target: sub}
			default:
				return Resolution{Visibility: Later, Target: sub}
			}
		}
	}
	// Inside a parallel block: the step itself and the sibling branches.
	if site != nil && site.Parent != nil && site.Parent.Step.Parallel != nil {
		if site.Parent.ID == id {
			return Resolution{Visibility: Self, Target: site.Parent}
		}
		for _, b := range site.Parent.Children {
			if b.ID != id {
				continue
			}
			if b == site {
				return Resolution{Visibility: Self, Target: b}
			}
			return Resolution{Visibility: SiblingBranch, Target: b}
		}
	}
	def := in.topLevelDef(id)
	if def == nil {
		return in.unknownOrScoped(id)
	}
	if site == nil {
		// Workflow-level env and cwd: evaluated for every step.
		return Resolution{Visibility: WorkflowLevel, Target: def}
	}
	switch {
	case def == site:
		return Resolution{Visibility: Self, Target: def}
	case def.Top < site.Top:
		return Resolution{Visibility: Visible, Target: def}
	case def.Top == site.Top && def.Parent == nil:
		return Resolution{Visibility: Self, Target: def} // a loop or parallel step named from inside
	default:
		return Resolution{Visibility: Later, Target: def}
	}
}

// topLevelDef is the first top-level step or parallel branch with the id.
func (in *Info) topLevelDef(id string) *StepInfo {
	for _, s := range in.ByID[id] {
		if s.Parent == nil || s.Parent.Step.Parallel != nil {
			return s
		}
	}
	return nil
}

// ResolveSite resolves a reference site's id. A loop's own env is templated
// for each iteration, so the loop's variables are visible there.
func (in *Info) ResolveSite(rs *RefSite, id string) Resolution {
	if r, ok := rs.Ref.(*ast.StepRef); ok && r.ID == id && rs.res != (Resolution{}) {
		return rs.res
	}
	return in.resolveSite(rs, id)
}

func (in *Info) resolveSite(rs *RefSite, id string) Resolution {
	if s := rs.Step; s != nil && s.IsLoop() && s.Step.Env != nil && rs.Field != s.Step.Env &&
		ast.SpanOf(s.Step.Env).Covers(ast.SpanOf(rs.Field)) && (id == s.ItemVar || id == s.IndexVar) {
		return Resolution{Visibility: Visible, Target: s, LoopVar: true}
	}
	return in.Resolve(rs.Step, id)
}

// enclosingLoop is the loop whose iteration scope a site is in: the loop of
// a sub-step, or the loop itself for its env (evaluated per iteration).
func enclosingLoop(site *StepInfo) *StepInfo {
	if site.Parent != nil && site.Parent.IsLoop() {
		return site.Parent
	}
	return nil
}

// unknownOrScoped tells a sub-step or loop variable used outside its loop
// from an id that names nothing.
func (in *Info) unknownOrScoped(id string) Resolution {
	if loop := in.loopVars[id]; loop != nil {
		return Resolution{Visibility: OutOfScope, Target: loop, LoopVar: true}
	}
	for _, s := range in.ByID[id] {
		if s.Parent != nil && s.Parent.IsLoop() {
			return Resolution{Visibility: OutOfScope, Target: s}
		}
	}
	return Resolution{Visibility: Unknown}
}

// SuggestID proposes a visible id close to an unknown one, for did-you-mean,
// or "". Suggestions are computed once per id over all ids of the file, then
// checked for visibility at the site.
func (in *Info) SuggestID(site *StepInfo, id string) string {
	in.mu.Lock()
	near := in.suggestLocked(id)
	in.mu.Unlock()
	if near == "" {
		return ""
	}
	if v := in.Resolve(site, near).Visibility; v != Visible && v != WorkflowLevel {
		return ""
	}
	return near
}

func (in *Info) suggestLocked(id string) string {
	if in.suggest == nil {
		in.suggest = map[string]string{}
		for name := range in.ByID {
			in.allIDs = append(in.allIDs, name)
		}
		for name := range in.loopVars {
			in.allIDs = append(in.allIDs, name)
		}
		sort.Strings(in.allIDs)
	}
	near, ok := in.suggest[id]
	if !ok {
		near = Suggest(id, in.allIDs)
		in.suggest[id] = near
	}
	return near
}

func siteLoop(site *StepInfo) *StepInfo {
	if site == nil {
		return nil
	}
	return enclosingLoop(site)
}

// EnvNames are the names set in any env block of the file.
func (in *Info) EnvNames() map[string]bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.envNames != nil {
		return in.envNames
	}
	in.envNames = map[string]bool{}
	add := func(f *ast.Field) {
		if f == nil {
			return
		}
		if m, ok := f.Value.(*ast.TemplateMap); ok {
			for _, e := range m.Fields {
				in.envNames[e.Name()] = true
			}
		}
	}
	if w := in.File.Workflow; w != nil {
		add(w.Env)
	}
	for _, s := range in.Steps {
		add(s.Step.Env)
	}
	return in.envNames
}
