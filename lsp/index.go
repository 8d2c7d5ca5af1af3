package lsp

import (
	"sort"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file finds what stands at an offset of a document: the one question
// hover, definition, references, rename and highlight all start from. It
// reads the syntax tree and check.Info only.

// targetKind is what a [target] is.
type targetKind int

const (
	noTarget     targetKind = iota
	stepDecl                // the id value of a step
	stepRefID               // the id of $id.path or ${id.path}
	stepRefField            // a path segment of $id.path
	argDecl                 // the key of an arg definition
	argRef                  // ${name}
	argEnv                  // LOBSTER_ARG_X in shell text
	keyTarget               // a mapping key
	stageName               // a pipeline command
	stageFlag               // a pipeline flag
)

// target is the thing at an offset.
type target struct {
	kind targetKind
	span source.Span // the name's bytes: what a rename replaces
	name string      // the step id, arg name, key, command or flag

	step    *check.StepInfo // the declared step, or the one a reference names
	site    *check.RefSite  // the reference's site
	ref     *ast.StepRef
	seg     int         // the index of a path segment
	arg     *ast.Field  // the arg definition, when declared
	field   *ast.Field  // the field of a key
	objCtx  string      // the schema definition of the object holding a key
	obj     *ast.Object // the typed object holding a key, or nil
	stage   *ast.Stage
	flag    *ast.Flag
	nodes   []ast.Node // the chain of nodes from the root to the target
	loopVar bool       // a step ref naming a loop variable
}

// chainAt lists the nodes containing offset, outermost first. A node
// ending at offset counts when nothing starts there, so that a cursor just
// after a name is on it.
func chainAt(f *ast.File, offset int) []ast.Node {
	var chain []ast.Node
	if f.Doc == nil {
		return nil
	}
	ast.Inspect(f.Doc, func(n ast.Node) bool {
		if n == nil {
			return false
		}
		if n.Pos() <= offset && offset < n.End() {
			chain = append(chain, n)
			return true
		}
		return false
	})
	return chain
}

// targetAt finds the target at offset, trying the byte before it too (a
// cursor right after `$build` is on the reference).
func (an *analysis) targetAt(offset int) target {
	t := an.targetAtByte(offset)
	if t.kind == noTarget && offset > 0 {
		t = an.targetAtByte(offset - 1)
	}
	return t
}

func (an *analysis) targetAtByte(offset int) target {
	chain := chainAt(an.file, offset)
	in := an.info()
	for i := len(chain) - 1; i >= 0; i-- {
		n := chain[i]
		var parent ast.Node
		if i > 0 {
			parent = chain[i-1]
		}
		switch n := n.(type) {
		case *ast.Ident:
			if r, ok := parent.(*ast.StepRef); ok {
				t := an.stepRefTarget(r)
				for k, seg := range r.Path {
					if seg == n {
						t.kind, t.seg, t.span, t.name = stepRefField, k, ast.SpanOf(n), n.Name
					}
				}
				t.nodes = chain
				return t
			}
		case *ast.StepRef:
			if !n.IDSpan.Contains(offset) {
				continue
			}
			t := an.stepRefTarget(n)
			t.nodes = chain
			return t
		case *ast.BracedRef:
			if n.IDSpan.Contains(offset) {
				return target{kind: stepRefID, span: n.IDSpan, name: n.ID, nodes: chain}
			}
		case *ast.ArgRef:
			return target{kind: argRef, span: n.NameSpan, name: n.Name, arg: in.ArgBy[n.Name], nodes: chain}
		case *ast.ShellVar:
			if t, ok := an.argEnvTarget(n.Name, n.NameSpan); ok {
				t.nodes = chain
				return t
			}
		case *ast.Flag:
			if st, ok := parent.(*ast.Stage); ok {
				return target{kind: stageFlag, span: n.NameSpan, name: n.Name, stage: st, flag: n, nodes: chain}
			}
		case *ast.Word:
			if st, ok := parent.(*ast.Stage); ok && st.Name == n {
				return target{kind: stageName, span: ast.SpanOf(n), name: n.Text, stage: st, nodes: chain}
			}
		case *ast.Scalar:
			fd, ok := parent.(*ast.Field)
			if !ok {
				continue
			}
			var holder ast.Node
			if i > 1 {
				holder = chain[i-2]
			}
			if fd.Key == n {
				if _, ok := holder.(*ast.Args); ok {
					return target{kind: argDecl, span: textSpan(n), name: n.Text, arg: fd, field: fd, nodes: chain}
				}
				var obj *ast.Object
				if holder != nil {
					if v, ok := holder.(ast.Value); ok {
						obj = ast.ObjectOf(v)
					}
				}
				return target{kind: keyTarget, span: ast.SpanOf(n), name: n.Text, field: fd, objCtx: objectContext(holder), obj: obj, nodes: chain}
			}
			if st, ok := holder.(*ast.Step); ok && st.ID == fd && n.Kind == ast.String {
				return target{kind: stepDecl, span: textSpan(n), name: n.Text, step: an.stepInfo(st), nodes: chain}
			}
		}
	}
	// LOBSTER_ARG_X outside shell variables (env values, pipelines…).
	for _, occ := range an.argEnvOccurrences() {
		if occ.span.Start <= offset && offset < occ.span.End {
			t, _ := an.argEnvTarget(occ.name, occ.span)
			t.nodes = chain
			return t
		}
	}
	return target{nodes: chain}
}

// stepRefTarget is the target of a step reference's id.
func (an *analysis) stepRefTarget(r *ast.StepRef) target {
	t := target{kind: stepRefID, span: r.IDSpan, name: r.ID, ref: r}
	if rs := an.refSite(r); rs != nil {
		t.site = rs
		res := an.info().ResolveSite(rs, r.ID)
		t.step, t.loopVar = res.Target, res.LoopVar
	}
	return t
}

// refSite finds the site of a reference token.
func (an *analysis) refSite(r ast.Ref) *check.RefSite {
	refs := an.info().Refs
	i := sort.Search(len(refs), func(i int) bool { return refs[i].Ref.Pos() >= r.Pos() })
	for ; i < len(refs) && refs[i].Ref.Pos() == r.Pos(); i++ {
		if refs[i].Ref == r {
			return &refs[i]
		}
	}
	for k := range refs { // not in source order (aliases): search all
		if refs[k].Ref == r {
			return &refs[k]
		}
	}
	return nil
}

// stepInfo finds the StepInfo of a step node.
func (an *analysis) stepInfo(st *ast.Step) *check.StepInfo {
	for _, si := range an.info().Steps {
		if si.Step == st {
			return si
		}
	}
	return nil
}

const argEnvPrefix = "LOBSTER_ARG_"

// argEnvTarget is the target of a LOBSTER_ARG_X name spelled at span.
func (an *analysis) argEnvTarget(name string, span source.Span) (target, bool) {
	suffix, ok := strings.CutPrefix(name, argEnvPrefix)
	if !ok || suffix == "" {
		return target{}, false
	}
	t := target{kind: argEnv, span: span, name: name}
	// The last declared arg with that variable sets it.
	for _, fd := range an.info().Args {
		if check.ArgEnvName(fd.Name()) == suffix {
			t.arg = fd
		}
	}
	return t, true
}

// argEnvOcc is one spelling of a LOBSTER_ARG_ variable in the text of a
// string (shell, pipeline, template), at its source bytes.
type argEnvOcc struct {
	name string
	span source.Span
}

// argEnvOccurrences finds every LOBSTER_ARG_X spelled in a string that the
// runtime hands to a shell or a command: shell text, pipelines, env values,
// workflow_args and stdin templates. Only spellings copied verbatim from the
// source are returned (an escape inside the name has no single span).
func (an *analysis) argEnvOccurrences() []argEnvOcc {
	an.envOnce.Do(func() {
		if !strings.Contains(string(an.file.Src.Content), argEnvPrefix) || an.file.Doc == nil {
			return
		}
		ast.Inspect(an.file.Doc, func(n ast.Node) bool {
			if n == nil {
				return false
			}
			sc := ast.EmbeddedScalar(n)
			if sc == nil {
				return true
			}
			text := sc.Text
			for i := 0; ; {
				k := strings.Index(text[i:], argEnvPrefix)
				if k < 0 {
					break
				}
				start := i + k
				end := start + len(argEnvPrefix)
				for end < len(text) && parser.IsWordByte(text[end]) {
					end++
				}
				i = end
				if start > 0 && parser.IsWordByte(text[start-1]) {
					continue
				}
				if src, ok := sc.Map.VerbatimAt(start, end); ok {
					an.envOccs = append(an.envOccs, argEnvOcc{name: text[start:end], span: source.Span{Start: src, End: src + end - start}})
				}
			}
			return true
		})
		sort.Slice(an.envOccs, func(i, j int) bool { return an.envOccs[i].span.Start < an.envOccs[j].span.Start })
	})
	return an.envOccs
}

// textSpan is the span of a scalar's text without its quotes, when it is
// copied verbatim; otherwise the whole scalar.
func textSpan(sc *ast.Scalar) source.Span {
	if src, ok := sc.Map.VerbatimAt(0, len(sc.Text)); ok {
		return source.Span{Start: src, End: src + len(sc.Text)}
	}
	return ast.SpanOf(sc)
}

// objectContext names the schema definition of a typed mapping node: the
// section of the JSON Schema that documents its keys.
func objectContext(n ast.Node) string {
	switch n := n.(type) {
	case *ast.Workflow:
		return "Workflow"
	case *ast.Step:
		switch n.Context {
		case ast.BranchStep:
			return "Branch"
		case ast.SubStep:
			return "SubStep"
		}
		return "Step"
	case *ast.ArgDef:
		return "Arg"
	case *ast.Approval:
		return "Approval"
	case *ast.Input:
		return "Input"
	case *ast.Retry:
		return "Retry"
	case *ast.Parallel:
		return "Parallel"
	case *ast.CostLimit:
		return "CostLimit"
	}
	return ""
}
