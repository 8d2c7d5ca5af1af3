package ast

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/source"
)

// Fprint writes an indented dump of the tree rooted at n, one node a line
// with its type, range (line:col-line:col, resolved in f) and key facts.
// Goldens use it.
func Fprint(w io.Writer, f *source.File, n Node) error {
	var err error
	depth := 0
	Inspect(n, func(n Node) bool {
		if n == nil {
			depth--
			return false
		}
		if err == nil {
			_, err = fmt.Fprintf(w, "%s%s %s%s\n", strings.Repeat("  ", depth), typeName(n), f.RangeOf(SpanOf(n)), facts(f, n))
		}
		depth++
		return true
	})
	return err
}

func typeName(n Node) string {
	t := fmt.Sprintf("%T", n)
	return strings.TrimPrefix(t, "*ast.")
}

func facts(f *source.File, n Node) string {
	q := strconv.Quote
	switch n := n.(type) {
	case *Scalar:
		s := " " + n.Kind.String() + " " + n.Style.String() + " " + q(n.Text)
		if n.Props != nil && n.Props.Tag != "" {
			s += " tag=" + n.Props.Tag
		}
		if n.Props != nil && n.Props.Anchor != "" {
			s += " &" + n.Props.Anchor
		}
		return s
	case *Mapping:
		return flowFact(n.Flow) + anchorFact(n.Anchor)
	case *Sequence:
		return flowFact(n.Flow) + anchorFact(n.Anchor)
	case *Alias:
		if n.Target == nil {
			return " *" + n.Name + " (undefined)"
		}
		return " *" + n.Name
	case *Field:
		return " " + q(n.Key.Text)
	case *Step:
		return " " + n.Context.String() + " " + q(n.IDText())
	case Ref:
		return " " + RefText(n)
	case *Ident:
		return " " + n.Name
	case *ShellVar:
		s := " " + n.Name
		if n.Braced {
			s += " braced"
		}
		if n.Op != "" {
			s += " op=" + q(n.Op)
		}
		return s
	case *Shell:
		if n.Err != nil {
			return " error=" + q(n.Err.Msg) + "@" + f.RangeOf(n.Err.Span).String()
		}
	case *Condition:
		if n.Err != nil {
			return " error=" + q(n.Err.Msg) + "@" + f.RangeOf(n.Err.Span).String()
		}
	case *Pipeline:
		if n.Err != nil {
			return " error=" + q(n.Err.Msg) + "@" + f.RangeOf(n.Err.Span).String()
		}
	case *BinaryExpr:
		return " " + n.Op
	case *UnaryExpr:
		return " " + n.Op
	case *Literal:
		return " " + n.Kind.String() + " " + q(n.Value)
	case *Word:
		return " " + q(n.Text)
	case *Flag:
		s := " --" + n.Name
		if n.Eq {
			s += "="
		}
		return s
	}
	return ""
}

func flowFact(flow bool) string {
	if flow {
		return " flow"
	}
	return ""
}

func anchorFact(a string) string {
	if a != "" {
		return " &" + a
	}
	return ""
}
