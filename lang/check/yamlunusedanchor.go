package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// YAMLUnusedAnchor reports anchors that no alias uses.
var YAMLUnusedAnchor = &Analyzer{
	Name:     "yaml-unused-anchor",
	Severity: source.Hint,
	Summary:  "a YAML anchor (&name) that no alias uses",
	Doc: `An anchor that is never used by an alias (` + "`*name`" + `) is dead weight, and often a sign that an
alias was meant to refer to it: a renamed anchor, or a copy of the value instead of an alias.
Anchors used only through a YAML merge key (` + "`<<: *name`" + `) count as used; the merge key itself
is ` + "`yaml-merge-key`" + `.`,
	Bad:  "x-retry: &retry {max: 3}\nsteps:\n  - id: a\n    run: ./a.sh\n    retry: {max: 3}",
	Good: "x-retry: &retry {max: 3}\nsteps:\n  - id: a\n    run: ./a.sh\n    retry: *retry",
	Fix:  "remove the anchor",
	Run:  runYAMLUnusedAnchor,
}

func runYAMLUnusedAnchor(p *Pass) {
	anchors := p.File.Anchors
	if len(anchors) == 0 || p.File.Doc == nil {
		return
	}
	used := anchorUses(p.File)
	src := p.File.Src.Content
	for i, a := range anchors {
		if used[i] {
			continue
		}
		// The span of "&name", and the blank that separates it from the value.
		start, end := a.NameSpan.Start-1, a.NameSpan.End
		if start < 0 || src[start] != '&' {
			continue
		}
		switch {
		case end < len(src) && (src[end] == ' ' || src[end] == '\t'):
			end++
		case start > 0 && (src[start-1] == ' ' || src[start-1] == '\t'):
			start--
		}
		d := p.Finding(source.Span{Start: a.NameSpan.Start - 1, End: a.NameSpan.End}, "anchor %q is never used", "&"+a.Name)
		d.Fixes = []source.Fix{{Message: fmt.Sprintf("Remove the anchor %q", "&"+a.Name), Edits: []source.Edit{p.Edit(source.Span{Start: start, End: end}, "")}}}
		p.Report(d)
	}
}

// anchorUses finds which anchors (by index in f.Anchors) an alias uses. The
// parser replaces an alias whose value it types (a step, a retry mapping…)
// with the typed node, which keeps the anchored value's span; so besides the
// *ast.Alias nodes left in the tree, a value met a second time at the span of
// an anchored value was reached through an alias. The walk is in source
// order, and an anchor is always defined before its aliases.
func anchorUses(f *ast.File) []bool {
	used := make([]bool, len(f.Anchors))
	seen := make([]bool, len(f.Anchors))
	bySpan := make(map[source.Span]int, len(f.Anchors))
	for i, a := range f.Anchors {
		bySpan[a.Span] = i
	}
	var walk func(n ast.Node, isValue bool)
	walk = func(n ast.Node, isValue bool) {
		if n == nil {
			return
		}
		if al, ok := n.(*ast.Alias); ok {
			if al.Target != nil {
				if i, ok := bySpan[ast.SpanOf(al.Target)]; ok {
					used[i] = true
				}
			}
			return
		}
		if isValue {
			if i, ok := bySpan[ast.SpanOf(n)]; ok {
				if seen[i] {
					used[i] = true
					return // walked where it is defined
				}
				seen[i] = true
			}
		}
		switch n := n.(type) {
		case *ast.Field:
			walk(n.Key, true)
			if n.Value != nil {
				walk(n.Value, true)
			}
		case *ast.Sequence:
			for _, it := range n.Items {
				walk(it, true)
			}
		case *ast.StepList:
			for _, it := range n.Items {
				walk(it, true)
			}
		case *ast.Mapping:
			for _, fd := range n.Fields {
				walk(fd, false)
			}
		default:
			if o := objectOfNode(n); o != nil {
				for _, fd := range o.Fields {
					walk(fd, false)
				}
			}
			// Scalars and string nodes hold no aliases.
		}
	}
	walk(f.Doc, true)
	return used
}

// objectOfNode is the typed object of a node, or nil.
func objectOfNode(n ast.Node) *ast.Object {
	if v, ok := n.(ast.Value); ok {
		return ast.ObjectOf(v)
	}
	return nil
}
