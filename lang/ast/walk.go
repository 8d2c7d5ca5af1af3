package ast

import "iter"

// Inspect traverses the tree rooted at n in depth-first source order. It calls
// f(n); if f returns true, Inspect visits n's children, then calls f(nil).
// Alias targets are not visited: they are visited where they are defined.
func Inspect(n Node, f func(Node) bool) {
	if n == nil || isNilNode(n) || !f(n) {
		return
	}
	for _, c := range Children(n) {
		Inspect(c, f)
	}
	f(nil)
}

// Preorder yields every node of the tree rooted at n in depth-first source order.
func Preorder(n Node) iter.Seq[Node] {
	return func(yield func(Node) bool) {
		ok := true
		Inspect(n, func(n Node) bool {
			if n == nil {
				return ok
			}
			if ok && !yield(n) {
				ok = false
			}
			return ok
		})
	}
}

func isNilNode(n Node) bool {
	switch n := n.(type) {
	case *Scalar:
		return n == nil
	case *Field:
		return n == nil
	case *Ident:
		return n == nil
	case *Word:
		return n == nil
	}
	return false
}

// Children returns the direct children of n in source order.
func Children(n Node) []Node {
	var out []Node
	add := func(ns ...Node) {
		for _, c := range ns {
			if c != nil && !isNilNode(c) {
				out = append(out, c)
			}
		}
	}
	fields := func(o *Object) {
		for _, f := range o.Fields {
			out = append(out, f)
		}
	}
	refs := func(rs []Ref) {
		for _, r := range rs {
			out = append(out, r)
		}
	}
	idents := func(is []*Ident) {
		for _, i := range is {
			out = append(out, i)
		}
	}
	switch n := n.(type) {
	case *File:
		if n.Doc != nil {
			add(n.Doc)
		}
	case *Mapping:
		for _, f := range n.Fields {
			out = append(out, f)
		}
	case *Sequence:
		for _, v := range n.Items {
			add(v)
		}
	case *Field:
		add(n.Key)
		if k := n.KeyNode(); k != nil {
			add(k)
		}
		if n.Value != nil {
			add(n.Value)
		}
	case *Workflow:
		fields(&n.Object)
	case *Args:
		fields(&n.Object)
	case *ArgDef:
		fields(&n.Object)
	case *CostLimit:
		fields(&n.Object)
	case *TemplateMap:
		fields(&n.Object)
	case *Step:
		fields(&n.Object)
	case *Approval:
		fields(&n.Object)
	case *Input:
		fields(&n.Object)
	case *Retry:
		fields(&n.Object)
	case *Parallel:
		fields(&n.Object)
	case *StepList:
		for _, v := range n.Items {
			add(v)
		}
	case *Template:
		refs(n.Refs)
	case *Shell:
		// References and shell variables interleave in source order.
		i, j := 0, 0
		for i < len(n.Refs) || j < len(n.Vars) {
			if j == len(n.Vars) || (i < len(n.Refs) && n.Refs[i].Pos() <= n.Vars[j].Pos()) {
				out = append(out, n.Refs[i])
				i++
			} else {
				out = append(out, n.Vars[j])
				j++
			}
		}
	case *Condition:
		if n.Expr != nil {
			add(n.Expr)
		}
	case *Pipeline:
		// Refs lie inside stages; list them first, then the stages.
		refs(n.Refs)
		for _, s := range n.Stages {
			out = append(out, s)
		}
	case *StepRef:
		idents(n.Path)
	case *BracedRef:
		idents(n.Path)
	case *BinaryExpr:
		add(n.X, n.Y)
	case *UnaryExpr:
		add(n.X)
	case *ParenExpr:
		add(n.X)
	case *Stage:
		add(n.Name)
		for _, a := range n.Args {
			add(a)
		}
	case *Flag:
		if n.Value != nil {
			add(n.Value)
		}
	}
	return out
}
