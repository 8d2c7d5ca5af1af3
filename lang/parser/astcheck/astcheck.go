// Package astcheck verifies the invariants of a parsed tree that every
// feature depends on: ranges inside the file, children inside parents, and
// token ranges that spell exactly the token as written. The golden tests, the
// corpus test and the fuzz test all run it.
package astcheck

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// Check returns every invariant violation in f (nil when it holds), with the
// parse's diagnostics checked too.
func Check(f *ast.File, diags []source.Diagnostic) []string {
	c := &checker{f: f, n: len(f.Src.Content)}
	for _, d := range diags {
		c.rangeOK(d.Range, "diagnostic "+d.Code)
		if d.Code == "" {
			c.errorf("diagnostic without a code: %s", d.Message)
		}
		if d.Severity < source.Error || d.Severity > source.Hint {
			c.errorf("diagnostic %s has severity %d", d.Code, d.Severity)
		}
		for _, fx := range d.Fixes {
			for _, e := range fx.Edits {
				c.rangeOK(e.Range, "fix edit of "+d.Code)
			}
		}
	}
	c.node(f, nil, nil)
	return c.errs
}

type checker struct {
	f    *ast.File
	n    int
	errs []string
}

func (c *checker) errorf(format string, args ...any) {
	if len(c.errs) < 20 {
		c.errs = append(c.errs, fmt.Sprintf(format, args...))
	}
}

func (c *checker) rangeOK(r source.Range, what string) bool {
	s, e := r.Start, r.End
	if s.Offset < 0 || s.Offset > e.Offset || e.Offset > c.n {
		c.errorf("%s: range %d-%d outside 0..%d", what, s.Offset, e.Offset, c.n)
		return false
	}
	for _, p := range []source.Pos{s, e} {
		if want := c.f.Src.Pos(p.Offset); want != p {
			c.errorf("%s: position %+v should be %+v", what, p, want)
			return false
		}
	}
	return true
}

// spanOK checks that a node's span lies in the file.
func (c *checker) spanOK(s source.Span, what string) bool {
	if s.Start < 0 || s.Start > s.End || s.End > c.n {
		c.errorf("%s: span %d-%d outside 0..%d", what, s.Start, s.End, c.n)
		return false
	}
	return true
}

// aliased reports whether s lies inside an anchored value: nodes built
// through an alias keep the anchor's spans.
func (c *checker) aliased(s source.Span) bool {
	for _, a := range c.f.Anchors {
		if a.Span.Covers(s) {
			return true
		}
	}
	return false
}

// node checks n and its subtree; parent is n's parent and scalar the
// enclosing string scalar of a token, if any.
func (c *checker) node(n, parent ast.Node, scalar *ast.Scalar) {
	sp := ast.SpanOf(n)
	what := fmt.Sprintf("%T at %d-%d", n, sp.Start, sp.End)
	if !c.spanOK(sp, what) {
		return
	}
	if parent != nil && !ast.SpanOf(parent).Covers(sp) && !c.aliased(sp) {
		c.errorf("%s lies outside its parent %T at %v", what, parent, ast.SpanOf(parent))
	}
	if s := ast.EmbeddedScalar(n); s != nil {
		scalar = s
	}
	if scalar != nil {
		if want, ok := spelling(n); ok {
			c.token(n, scalar, want)
		}
	}
	for _, ch := range ast.Children(n) {
		c.node(ch, n, scalar)
	}
}

// spelling is the decoded text a token node must cover, when it is fixed by
// the node's fields.
func spelling(n ast.Node) (string, bool) {
	switch n := n.(type) {
	case ast.Ref:
		return ast.RefText(n), true
	case *ast.Ident:
		return n.Name, true
	case *ast.ShellVar:
		if !n.Braced && n.Op == "" {
			return "$" + n.Name, true
		}
	case *ast.Literal:
		if n.Kind == ast.LitNumber || n.Kind == ast.LitWord || n.Kind == ast.LitTrue || n.Kind == ast.LitFalse || n.Kind == ast.LitNull {
			return n.Value, true
		}
	}
	return "", false
}

// token checks that the token's source range maps back, through the
// scalar's text map, to a decoded slice equal to want, and that where the
// map is verbatim the source bytes themselves equal want.
func (c *checker) token(n ast.Node, s *ast.Scalar, want string) {
	r := ast.SpanOf(n)
	m := &s.Map
	for i := 0; i+len(want) <= len(s.Text); i++ {
		if s.Text[i:i+len(want)] != want {
			continue
		}
		if m.Start(i) == r.Start && m.End(i+len(want)) == r.End {
			if _, ok := m.VerbatimAt(i, i+len(want)); ok && string(c.f.Src.Content[r.Start:r.End]) != want {
				c.errorf("%T %q: source bytes %q differ", n, want, c.f.Src.Content[r.Start:r.End])
			}
			return
		}
	}
	c.errorf("%T at %v: its source text %q does not spell %q", n, r, c.f.Src.Content[r.Start:r.End], want)
}
