package check

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file holds the composition rules that follow workflow: paths
// (subworkflow-missing, subworkflow-invalid, subworkflow-cycle) and the helpers
// every composition rule shares: resolving a workflow: value statically and
// loading the child file. The rules run separately, so each loads the
// children it needs; a file without workflow: steps costs one pass over its
// steps.

// maxCycleFiles bounds the files the cycle walk loads from one file.
const maxCycleFiles = 32

// subCall is a workflow: step whose child path is known without running
// anything: no step references, and ${arg} only for args with a default.
type subCall struct {
	Step  *StepInfo
	Value *ast.Template // the workflow: value
	Path  string        // the path after ${arg} substitution, as the runtime templates it
	File  string        // Path resolved against the calling file's directory
	// Defaulted lists the args whose defaults were substituted: a run with
	// other values reads another file.
	Defaulted []string
}

// argRefPattern is the reference's arg substitution pattern.
var argRefPattern = lazyRE(`\$\{([A-Za-z0-9_-]+)\}`)

// callerDir is the directory that relative workflow: paths of the file at
// path are resolved against; the current directory when the file is
// not on disk.
func callerDir(path string) string {
	if path == "" || path == "<stdin>" {
		return "."
	}
	return filepath.Dir(path)
}

// subCalls lists the statically resolvable workflow: steps of a file, in
// source order.
func subCalls(in *Info, callerPath string) []subCall {
	var calls []subCall
	for _, s := range in.Steps {
		if s.Step.Workflow == nil {
			continue
		}
		t, ok := s.Step.Workflow.Value.(*ast.Template)
		if !ok || strings.TrimSpace(t.Scalar.Text) == "" {
			continue // the parser reports the type and blank paths
		}
		path, defaulted, ok := substituteArgDefaults(in, t)
		if !ok {
			continue
		}
		file := path
		if !filepath.IsAbs(path) {
			file = filepath.Join(callerDir(callerPath), path)
		}
		calls = append(calls, subCall{Step: s, Value: t, Path: path, File: file, Defaulted: defaulted})
	}
	return calls
}

// substituteArgDefaults templates a workflow: path with the file's arg
// defaults. It fails when the path holds a step reference, or an arg that
// has no default (its value is known only at run time).
func substituteArgDefaults(in *Info, t *ast.Template) (string, []string, bool) {
	for _, r := range t.Refs {
		if _, ok := r.(*ast.ArgRef); !ok {
			return "", nil, false
		}
	}
	text := t.Scalar.Text
	if len(t.Refs) == 0 {
		return text, nil, true
	}
	var b strings.Builder
	var defaulted []string
	last := 0
	for _, m := range argRefPattern().FindAllStringSubmatchIndex(text, -1) {
		name := text[m[2]:m[3]]
		v, ok := argDefault(in, name)
		if !ok {
			return "", nil, false
		}
		b.WriteString(text[last:m[0]])
		b.WriteString(v)
		last = m[1]
		defaulted = append(defaulted, name)
	}
	b.WriteString(text[last:])
	return b.String(), defaulted, true
}

// argDefault is the text an arg's default substitutes as (JavaScript
// String()), for scalar defaults.
func argDefault(in *Info, name string) (string, bool) {
	fd := in.ArgBy[name]
	if fd == nil {
		return "", false
	}
	def, ok := fd.Value.(*ast.ArgDef)
	if !ok || def.Default == nil {
		return "", false
	}
	sc, ok := ast.Resolve(def.Default.Value).(*ast.Scalar)
	if !ok {
		return "", false
	}
	switch sc.Kind {
	case ast.String:
		return sc.Text, true
	case ast.Bool:
		return strconv.FormatBool(sc.Bool), true
	case ast.Null:
		return "null", true
	case ast.Int, ast.Float:
		if math.Abs(sc.Num) < 1e21 { // JavaScript switches to exponents there
			return strconv.FormatFloat(sc.Num, 'f', -1, 64), true
		}
	}
	return "", false
}

// subFile is a child workflow file, read and parsed.
type subFile struct {
	Name  string // the path it was read from, and its name in diagnostics
	Src   []byte
	File  *ast.File
	Diags []source.Diagnostic // the parser's
	Err   error               // the read error; File is nil then
	info  *Info
}

// Info indexes the child (once).
func (c *subFile) Info() *Info {
	if c.info == nil {
		c.info = NewInfo(c.File)
	}
	return c.info
}

// loadSub reads and parses a child workflow file.
func loadSub(p *Pass, name string) *subFile {
	src, err := p.ReadFile(name)
	if err != nil {
		return &subFile{Name: name, Err: err}
	}
	f, diags := parser.Parse(name, src)
	return &subFile{Name: name, Src: src, File: f, Diags: diags}
}

// subLoader loads each child of one rule run once.
type subLoader struct {
	p     *Pass
	files map[string]*subFile
}

func (l *subLoader) load(name string) *subFile {
	if c, ok := l.files[name]; ok {
		return c
	}
	if l.files == nil {
		l.files = map[string]*subFile{}
	}
	c := loadSub(l.p, name)
	l.files[name] = c
	return c
}

// eachSub calls fn for every statically resolvable call whose child can be
// read and is a workflow mapping.
func eachSub(p *Pass, fn func(c subCall, child *subFile)) {
	calls := subCalls(p.Info, p.Options.Path)
	if len(calls) == 0 {
		return
	}
	l := &subLoader{p: p}
	for _, c := range calls {
		child := l.load(c.File)
		if child.Err != nil || child.File.Workflow == nil {
			continue
		}
		fn(c, child)
	}
}

// childRelated points into a child file.
func childRelated(c *subFile, sp source.Span, msg string) source.Related {
	return source.Related{File: c.Name, Range: c.File.Src.RangeOf(sp), Message: msg}
}

// defaultedNote explains a path that was templated with arg defaults.
func defaultedNote(c subCall) string {
	if len(c.Defaulted) == 0 {
		return ""
	}
	return fmt.Sprintf(" (templated with the default of %s: %q)", quoteArgs(c.Defaulted), c.Path)
}

func quoteArgs(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "${" + n + "}"
	}
	return strings.Join(q, ", ")
}

// SubworkflowMissing reports workflow: paths that name no file.
var SubworkflowMissing = &Analyzer{
	Name:     "subworkflow-missing",
	Severity: source.Error,
	Summary:  "a workflow: path names no file, relative to the calling file's directory",
	Doc: `A relative workflow: path is resolved against the directory of the file that holds the
step, not the current directory and not the step's cwd. When no file is there, the step
fails with "Workflow step <id> workflow file not found: <resolved path>". A dry run does not load
children, so only a real run finds out.

A path that names a named pipe, a device or a socket is reported as well: it is never read
(reading one could wait forever or never end).

Paths with a step reference are known only at run time and are not checked. A ${arg} in the path
is replaced by the arg's default; the finding is then a warning, since a run that passes another
value reads another file.`,
	Bad:  "steps:\n  - id: sub\n    workflow: chlid.lobster",
	Good: "steps:\n  - id: sub\n    workflow: child.lobster\n-- child.lobster --\nsteps:\n  - id: hello\n    run: echo hello\n",
	Fix:  "rename the path to a workflow file of the same directory with a close name (unsafe)",
	Run:  runSubworkflowMissing,
}

func runSubworkflowMissing(p *Pass) {
	var read map[string]error // each path once
	for _, c := range subCalls(p.Info, p.Options.Path) {
		err, ok := read[c.File]
		if !ok {
			_, err = p.ReadFile(c.File)
			if read == nil {
				read = map[string]error{}
			}
			read[c.File] = err
		}
		var why, fails string
		missing := false
		switch {
		case err == nil:
			continue
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			why, fails, missing = "not found", "the step fails with \"workflow file not found\"", true
		case errors.Is(err, syscall.EISDIR):
			why, fails = "is a directory, not a file", "the step fails when it reads it"
		case errors.Is(err, bounded.ErrNotRegular):
			why, fails = "is "+bounded.Reason(err), "the step fails when it reads it"
		default:
			continue // unreadable here; the run may see it
		}
		where := "relative to this file's directory"
		if filepath.IsAbs(c.Path) {
			where = "an absolute path"
		}
		d := p.Finding(ast.SpanOf(c.Value), "sub-workflow %q%s %s (looked for %s, %s); %s",
			c.Value.Scalar.Text, defaultedNote(c), why, c.File, where, fails)
		if strings.HasPrefix(c.Path, "~") || strings.Contains(c.Path, "$") {
			d.Message += "; the path is not shell-expanded: \"~\" and \"$NAME\" stay literal (use ${arg} with an arg)"
		}
		if len(c.Defaulted) > 0 {
			d.Severity = source.Warning
		} else if missing {
			if near := nearbyWorkflow(c.File); near != "" {
				text := c.Value.Scalar.Text
				i := strings.LastIndexAny(text, "/"+string(filepath.Separator)) + 1
				d.Message += fmt.Sprintf("; did you mean %q?", text[:i]+near)
				d.Fixes = []source.Fix{{Message: fmt.Sprintf("Change the path to %q", text[:i]+near),
					Edits: []source.Edit{p.Edit(c.Value.Scalar.Map.Span(i, len(text)), near)}, Unsafe: true}}
			}
		}
		p.Report(d)
	}
}

// nearbyWorkflow finds a workflow file next to a missing path with a close
// name: the same name with another extension, or a likely typo.
func nearbyWorkflow(missing string) string {
	dir, base := filepath.Split(missing)
	if dir == "" {
		dir = "."
	}
	f, err := os.Open(dir)
	if err != nil {
		return ""
	}
	defer f.Close()
	entries, _ := f.ReadDir(1000)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	var names []string
	for _, e := range entries {
		n := e.Name()
		ext := filepath.Ext(n)
		if e.IsDir() || !parser.IsWorkflowName(n) && ext != filepath.Ext(base) {
			continue
		}
		if stem != "" && strings.TrimSuffix(n, ext) == stem {
			return n
		}
		names = append(names, n)
	}
	return Suggest(base, names)
}

// SubworkflowInvalid reports children that do not load.
var SubworkflowInvalid = &Analyzer{
	Name:     "subworkflow-invalid",
	Severity: source.Error,
	Summary:  "the child workflow of a workflow: step has errors that make it fail",
	Doc: `The child of a workflow: step is loaded and validated afresh each time the step runs,
so a child that does not load (YAML errors, load-time validation, a file over the size
limit) fails the calling step, and a condition or pipeline of the child that does not parse fails it
when it runs. The finding stands on the workflow: value and lists the child's errors as related
locations in the child file.`,
	Bad:  "steps:\n  - id: sub\n    workflow: child.lobster\n-- child.lobster --\nsteps:\n  - name: hello\n    run: echo hello\n",
	Good: "steps:\n  - id: sub\n    workflow: child.lobster\n-- child.lobster --\nsteps:\n  - id: hello\n    run: echo hello\n",
	Run:  runSubworkflowInvalid,
}

// runTimeParserCodes are parser errors that fail a step when it runs, not the
// load of the file.
var runTimeParserCodes = map[string]bool{"condition-syntax": true, "pipeline-parse-error": true}

// maxRelated bounds the related locations of one finding.
const maxRelated = 10

func runSubworkflowInvalid(p *Pass) {
	calls := subCalls(p.Info, p.Options.Path)
	if len(calls) == 0 {
		return
	}
	l := &subLoader{p: p}
	for _, c := range calls {
		child := l.load(c.File)
		if d, ok := parser.LimitDiagnostic(child.Name, child.Err); ok {
			f := p.Finding(ast.SpanOf(c.Value), "sub-workflow %q%s is not read: %s; the step fails when it loads the child",
				c.Value.Scalar.Text, defaultedNote(c), d.Message)
			if len(c.Defaulted) > 0 {
				f.Severity = source.Warning
			}
			p.Report(f)
			continue
		}
		if child.Err != nil {
			continue // subworkflow-missing
		}
		var errs []source.Diagnostic
		first := -1
		for _, d := range child.Diags {
			if d.Severity != source.Error || d.Code == "limit-exceeded" || d.Code == "internal-error" {
				continue
			}
			if first < 0 && !runTimeParserCodes[d.Code] {
				first = len(errs)
			}
			errs = append(errs, d)
		}
		if len(errs) == 0 {
			continue
		}
		how := "the step fails when it loads the child"
		if first < 0 {
			first = 0
			how = "the child fails when it runs that step"
		}
		e := errs[first]
		more := ""
		if n := len(errs) - 1; n == 1 {
			more = " (and 1 more error)"
		} else if n > 1 {
			more = fmt.Sprintf(" (and %d more errors)", n)
		}
		d := p.Finding(ast.SpanOf(c.Value), "sub-workflow %q%s is invalid: %s:%d:%d: %s%s; %s",
			c.Value.Scalar.Text, defaultedNote(c), child.Name, e.Range.Start.Line, e.Range.Start.Col, e.Message, more, how)
		if len(c.Defaulted) > 0 {
			d.Severity = source.Warning
		}
		for i, ce := range errs {
			if i == maxRelated {
				break
			}
			d.Related = append(d.Related, source.Related{File: ce.File, Range: ce.Range, Message: ce.Message + " [" + ce.Code + "]"})
		}
		p.Report(d)
	}
}

// SubworkflowCycle reports workflow: calls that come back to a file that is
// still running.
var SubworkflowCycle = &Analyzer{
	Name:     "subworkflow-cycle",
	Severity: source.Error,
	Summary:  "a workflow: step calls back into a workflow file that is already running",
	Doc: `The runtime keeps the canonical (symlink-free) paths of the workflow files being
executed, the top-level file included, and a workflow: step whose child is one of them fails with
"Workflow step <id> creates a cycle: <path> is already being executed". Direct and
indirect cycles are both caught, so recursion through workflow: never works, whatever its
conditions. A dry run does not load children and does not detect it.

The check follows statically known workflow: paths (${arg} replaced by defaults) through at most
32 files. It reports a cycle through this file, and a child that is itself part of a cycle.`,
	Bad:  "-- a.lobster --\nsteps:\n  - id: again\n    workflow: b.lobster\n-- b.lobster --\nsteps:\n  - id: back\n    workflow: a.lobster\n",
	Good: "-- a.lobster --\nsteps:\n  - id: once\n    workflow: b.lobster\n-- b.lobster --\nsteps:\n  - id: work\n    run: ./work.sh\n",
	Run:  runSubworkflowCycle,
}

// callEdge is one workflow: step from one file to another.
type callEdge struct {
	From, To string // canonical paths
	Call     subCall
	Src      *source.File // the file of the step
}

// callGraph walks workflow: calls from one file.
type callGraph struct {
	p     *Pass
	edges map[string][]callEdge // by canonical path; nil entry: loaded, no calls
	done  map[string]bool       // explored without finding a cycle
	loads int
}

// canonicalPath is the absolute path with symlinks resolved (realpath), or
// "" when the file does not exist.
func canonicalPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return ""
	}
	return real
}

// edgesFrom turns a file's calls into edges.
func edgesFrom(from string, calls []subCall, src *source.File) []callEdge {
	var out []callEdge
	canon := map[string]string{}
	for _, c := range calls {
		to, ok := canon[c.File]
		if !ok {
			to = canonicalPath(c.File)
			canon[c.File] = to
		}
		if to != "" {
			out = append(out, callEdge{From: from, To: to, Call: c, Src: src})
		}
	}
	return out
}

// edgesOf loads a file (up to the limit) and lists its calls. A child's own
// relative paths are resolved against its real directory: the runtime
// canonicalizes the path before it loads the file.
func (g *callGraph) edgesOf(node string) []callEdge {
	if es, ok := g.edges[node]; ok {
		return es
	}
	if g.loads >= maxCycleFiles {
		return nil
	}
	g.loads++
	var es []callEdge
	child := loadSub(g.p, node)
	if child.Err == nil && child.File.Workflow != nil {
		es = edgesFrom(node, subCalls(child.Info(), node), child.File.Src)
	}
	g.edges[node] = es
	return es
}

// visit explores the calls of node depth first. path holds the edges from the
// start to node; onStack gives, for each file on it, the index in path of
// the edge that leaves it. It returns the edges of the first cycle found.
func (g *callGraph) visit(node string, path []callEdge, onStack map[string]int) []callEdge {
	for _, e := range g.edgesOf(node) {
		if i, ok := onStack[e.To]; ok {
			return append(append([]callEdge(nil), path[i:]...), e)
		}
		if g.done[e.To] {
			continue
		}
		onStack[e.To] = len(path) + 1
		if c := g.visit(e.To, append(path, e), onStack); c != nil {
			return c
		}
		delete(onStack, e.To)
		g.done[e.To] = true
	}
	return nil
}

func runSubworkflowCycle(p *Pass) {
	calls := subCalls(p.Info, p.Options.Path)
	if len(calls) == 0 {
		return
	}
	root := ""
	if path := p.Options.Path; path != "" && path != "<stdin>" {
		root = canonicalPath(path)
	}
	if root == "" {
		root = "<this file>" // not on disk: no other file can call it
	}
	g := &callGraph{p: p, edges: map[string][]callEdge{}, done: map[string]bool{}}
	rootEdges := edgesFrom(root, calls, p.File.Src)
	g.edges[root] = rootEdges
	base := filepath.Dir(root)
	if !filepath.IsAbs(root) {
		base = canonicalPath(".")
	}
	name := func(path string) string {
		if rel, err := filepath.Rel(base, path); err == nil && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return rel
		}
		return path
	}
	cwd := canonicalPath(".")
	fileName := func(path string) string { // a related file, as the user can open it
		if rel, err := filepath.Rel(cwd, path); err == nil && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return rel
		}
		return path
	}
	for _, e := range rootEdges {
		var cycle []callEdge
		if e.To == root {
			cycle = []callEdge{e}
		} else if !g.done[e.To] {
			cycle = g.visit(e.To, []callEdge{e}, map[string]int{root: 0, e.To: 1})
			if cycle == nil {
				g.done[e.To] = true
			}
		}
		if cycle == nil {
			continue
		}
		names := []string{name(cycle[0].From)}
		for _, ce := range cycle {
			names = append(names, name(ce.To))
		}
		chain := strings.Join(names, " → ")
		var d source.Diagnostic
		if cycle[0].From == root {
			d = p.Finding(ast.SpanOf(e.Call.Value), "workflow call cycle: %s; the run fails with \"creates a cycle: … is already being executed\"", chain)
		} else {
			d = p.Finding(ast.SpanOf(e.Call.Value), "sub-workflow %q is part of a workflow call cycle: %s; the run fails with \"creates a cycle: … is already being executed\"", e.Call.Value.Scalar.Text, chain)
		}
		for _, ce := range cycle {
			if ce.Src == p.File.Src && ce.Call.Value == e.Call.Value {
				continue
			}
			file := ce.Src.Name
			if ce.Src != p.File.Src {
				file = fileName(ce.From)
			}
			d.Related = append(d.Related, source.Related{File: file, Range: ce.Src.RangeOf(ast.SpanOf(ce.Call.Value)), Message: fmt.Sprintf("%s calls %s here", name(ce.From), name(ce.To))})
		}
		p.Report(d)
	}
}
