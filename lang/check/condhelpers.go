package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/source"
)

// Helpers shared by the condition rules.

// condField is the when/condition field the runtime evaluates for a step
// (`when ?? condition`), or nil. Parallel branches ignore both,
// so they have none.
func condField(s *ast.Step) *ast.Field {
	if s.Context == ast.BranchStep {
		return nil
	}
	if s.When != nil && !condIsNull(s.When.Value) {
		return s.When
	}
	if s.Condition != nil {
		return s.Condition
	}
	return s.When
}

// condIsNull reports whether a value is YAML null (absent values included).
func condIsNull(v ast.Value) bool {
	sc, ok := ast.Resolve(v).(*ast.Scalar)
	return ok && sc.Kind == ast.Null
}

// condExprOf is the parsed expression of a step's evaluated condition, or nil.
func condExprOf(s *ast.Step) (*ast.Condition, *ast.Field) {
	f := condField(s)
	if f == nil {
		return nil, nil
	}
	c, ok := ast.Resolve(f.Value).(*ast.Condition)
	if !ok || c.Expr == nil {
		return nil, f
	}
	return c, f
}

// condEachExpr calls fn for every parsed condition the runtime evaluates.
func condEachExpr(p *Pass, fn func(si *StepInfo, c *ast.Condition)) {
	for _, si := range p.Info.Steps {
		if c, _ := condExprOf(si.Step); c != nil {
			fn(si, c)
		}
	}
}

// condWalk calls fn for e and every expression under it, in source order,
// without allocating.
func condWalk(e ast.Expr, fn func(ast.Expr)) {
	if e == nil {
		return
	}
	fn(e)
	switch e := e.(type) {
	case *ast.BinaryExpr:
		condWalk(e.X, fn)
		condWalk(e.Y, fn)
	case *ast.UnaryExpr:
		condWalk(e.X, fn)
	case *ast.ParenExpr:
		condWalk(e.X, fn)
	}
}

// condIsEquality reports whether op is == or !=.
func condIsEquality(op string) bool { return op == "==" || op == "!=" }

// condEachEquality calls fn for every == or != of an evaluated condition that
// compares a step reference with a literal (in either order).
func condEachEquality(p *Pass, fn func(si *StepInfo, c *ast.Condition, b *ast.BinaryExpr, r *ast.StepRef, l *ast.Literal)) {
	condEachExpr(p, func(si *StepInfo, c *ast.Condition) {
		condWalk(c.Expr, func(e ast.Expr) {
			b, ok := e.(*ast.BinaryExpr)
			if !ok || !condIsEquality(b.Op) {
				return
			}
			if r, l := condRefAndLit(b); r != nil {
				fn(si, c, b, r, l)
			}
		})
	})
}

// condIsOrdering reports whether op is <, <=, > or >=.
func condIsOrdering(op string) bool {
	switch op {
	case "<", "<=", ">", ">=":
		return true
	}
	return false
}

// condRefField is the first path segment of a step reference and whether
// the path has exactly one segment.
func condRefField(r *ast.StepRef) (string, bool) {
	if len(r.Path) == 0 {
		return "", false
	}
	return r.Path[0].Name, len(r.Path) == 1
}

// condBoolField reports whether a reference reads approved, skipped or
// error: fields that are true when set and absent otherwise.
func condBoolField(r *ast.StepRef) bool {
	name, single := condRefField(r)
	return single && (name == "approved" || name == "skipped" || name == "error")
}

// condStringField reports whether a reference reads a field that is always a
// string when present: stdout, errorMessage or id.
func condStringField(r *ast.StepRef) bool {
	name, single := condRefField(r)
	return single && (name == "stdout" || name == "errorMessage" || name == "id")
}

// condDataPath reports whether a reference walks into data whose shape is
// not known statically: json, response or subject.
func condDataPath(r *ast.StepRef) bool {
	name, _ := condRefField(r)
	return name == "json" || name == "response" || name == "subject"
}

// condLoopIndex reports whether a reference is `$<index_var>.json` of an
// enclosing loop, which is always a number.
func condLoopIndex(in *Info, site *StepInfo, r *ast.StepRef) bool {
	name, single := condRefField(r)
	if !single || name != "json" {
		return false
	}
	res := in.Resolve(site, r.ID)
	return res.LoopVar && res.Visibility == Visible && res.Target != nil && r.ID == res.Target.IndexVar
}

// condLitIsString reports whether a literal is a string (quoted or a bare word).
func condLitIsString(l *ast.Literal) bool { return l.Kind == ast.LitString || l.Kind == ast.LitWord }

// condLitIsBool reports whether a literal is true or false.
func condLitIsBool(l *ast.Literal) bool { return l.Kind == ast.LitTrue || l.Kind == ast.LitFalse }

// condRefAndLit splits a comparison into its step reference and literal
// operands, in either order.
func condRefAndLit(b *ast.BinaryExpr) (*ast.StepRef, *ast.Literal) {
	if r, ok := b.X.(*ast.StepRef); ok {
		if l, ok := b.Y.(*ast.Literal); ok {
			return r, l
		}
	}
	if r, ok := b.Y.(*ast.StepRef); ok {
		if l, ok := b.X.(*ast.Literal); ok {
			return r, l
		}
	}
	return nil, nil
}

// condLitText spells a literal for a message: strings quoted, others as written.
func condLitText(l *ast.Literal) string {
	if condLitIsString(l) {
		return strconv.Quote(l.Value)
	}
	return l.Value
}

// jsNumericRx matches what JavaScript's Number() parses as a finite or
// infinite number once the string is trimmed (decimal with an optional
// exponent, or 0x/0o/0b integers, or Infinity).
var jsNumericRx = lazyRE(`^(?:[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|Infinity)|0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+)$`)

// condStrictlyNumeric reports whether a literal is "strictly numeric" for
// the ordering operators: a number, or a non-blank string that
// Number() parses.
func condStrictlyNumeric(l *ast.Literal) bool {
	switch l.Kind {
	case ast.LitNumber:
		return true
	case ast.LitString, ast.LitWord:
		t := js.Trim(l.Value)
		return t != "" && jsNumericRx().MatchString(t)
	}
	return false
}

// condEdit replaces the source of span, which lies inside the condition's
// scalar, with newText (made of characters that need no escaping in any
// scalar style). A plain scalar cannot start with "!" (a YAML tag), so
// there the whole scalar is rewritten in single quotes.
func condEdit(p *Pass, c *ast.Condition, sp source.Span, newText string) source.Edit {
	s := c.Scalar
	if s.Style == ast.Plain && strings.HasPrefix(newText, "!") && sp.Start == s.Pos() {
		rest := p.Text(source.Span{Start: sp.End, End: s.End()})
		return p.Edit(s.Span, "'"+strings.ReplaceAll(newText+rest, "'", "''")+"'")
	}
	return p.Edit(sp, newText)
}

// condSkippable reports whether a step's evaluated condition can be false:
// any condition except an absent one, null, true or "true".
func condSkippable(s *ast.Step) (*ast.Field, bool) {
	f := condField(s)
	if f == nil {
		return nil, false
	}
	switch v := ast.Resolve(f.Value).(type) {
	case *ast.Scalar:
		if v.Kind == ast.Null || v.Kind == ast.Bool && v.Bool {
			return f, false
		}
	case *ast.Condition:
		if l, ok := v.Expr.(*ast.Literal); ok && l.Kind == ast.LitTrue {
			return f, false
		}
	}
	return f, true
}

// reportTruthinessRewrite reports `A == lit` or `A != lit` (b, with A the
// step reference r) that should test A's truthiness instead, with the fix
// that rewrites it to `!A` or `A`. eqMsg and neMsg format the reference's
// text and the suggested expression; fixNote is appended to the fix's title.
func reportTruthinessRewrite(p *Pass, c *ast.Condition, b *ast.BinaryExpr, r *ast.StepRef, eqMsg, neMsg, fixNote string) {
	ref := ast.RefText(r)
	repl := p.Text(ast.SpanOf(r))
	var d source.Diagnostic
	if b.Op == "==" {
		repl = "!" + repl
		d = p.Finding(ast.SpanOf(b), eqMsg, ref, "!"+ref)
	} else {
		d = p.Finding(ast.SpanOf(b), neMsg, ref, ref)
	}
	d.Fixes = []source.Fix{{Message: fmt.Sprintf("Replace with %q", repl) + fixNote, Edits: []source.Edit{condEdit(p, c, ast.SpanOf(b), repl)}}}
	p.Report(d)
}
