package check

import (
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file holds what the composition rules (rules_composition.go) share:
// resolving a workflow: value statically and loading the child file. The
// rules run separately, so each loads the children it needs; a file without
// workflow: steps costs one pass over its steps.

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
	Name     string // the path it was read from, and its name in diagnostics
	Src      []byte
	File     *ast.File
	Diags    []source.Diagnostic // the parser's
	Err      error               // the read error; File is nil then
	info     *Info
	infoOnce sync.Once
}

// Info indexes the child (once; the rules that share it run concurrently).
func (c *subFile) Info() *Info {
	c.infoOnce.Do(func() { c.info = NewInfo(c.File) })
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

// subFiles loads each child workflow once per check, for every rule that
// reads it: seven rules read the children, and each used to read and
// parse them again. A check reads the files as they are when it runs, so
// the cache lives as long as one check.
type subFiles struct {
	mu    sync.Mutex
	files map[string]*subEntry
}

type subEntry struct {
	once sync.Once
	file *subFile
}

// sub is the child at name, loaded at most once in this check.
func (p *Pass) sub(name string) *subFile {
	if p.subs == nil {
		return loadSub(p, name)
	}
	p.subs.mu.Lock()
	e, ok := p.subs.files[name]
	if !ok {
		e = &subEntry{}
		p.subs.files[name] = e
	}
	p.subs.mu.Unlock()
	e.once.Do(func() { e.file = loadSub(p, name) })
	return e.file
}

// eachSub calls fn for every statically resolvable call whose child can be
// read and is a workflow mapping.
func eachSub(p *Pass, fn func(c subCall, child *subFile)) {
	calls := subCalls(p.Info, p.Options.Path)
	if len(calls) == 0 {
		return
	}
	for _, c := range calls {
		child := p.sub(c.File)
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
