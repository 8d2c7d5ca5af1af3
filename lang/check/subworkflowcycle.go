package check

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// maxCycleFiles bounds the files the cycle walk loads from one file.
const maxCycleFiles = 32

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
	child := g.p.sub(node)
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
