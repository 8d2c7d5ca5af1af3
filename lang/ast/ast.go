// Package ast declares the syntax tree of Lobster workflow files.
//
// One tree holds the whole file: the YAML (or JSON) structure, typed nodes for
// every field the reference reads, unknown keys, and the tokens of the
// languages embedded in strings (step and arg references, conditions,
// pipelines, shell parameter expansions).
//
// Invariants, checked by the parser's tests and fuzz test:
//   - every node has 0 <= Pos().Offset <= End().Offset <= len(source);
//   - children lie inside their parent, except values reached through a YAML
//     alias, which keep the range of the anchored value they stand for;
//   - slices are in source order;
//   - for every token node (references, shell variables, condition and
//     pipeline tokens) the source bytes in its range spell the token as
//     written, escapes included.
package ast

import "github.com/lobsterdev/lobster/lang/source"

// Node is implemented by every node of the tree. Positions are byte offsets
// into the file's source; File.Src turns them into lines and columns.
type Node interface {
	Pos() int // offset of the first byte of the node
	End() int // offset of the first byte after the node
}

// Loc is embedded in every node and holds its span.
type Loc struct {
	Span source.Span
}

// Pos is the offset of the node's first byte.
func (l Loc) Pos() int { return l.Span.Start }

// End is the offset just after the node.
func (l Loc) End() int { return l.Span.End }

// SpanOf is the byte range of a node.
func SpanOf(n Node) source.Span { return source.Span{Start: n.Pos(), End: n.End()} }

// File is a parsed workflow file.
type File struct {
	Loc
	Src      *source.File
	JSON     bool       // parsed as strict JSON (.json extension)
	Doc      Value      // the document's root: a *Workflow when it is a mapping; nil when empty
	Workflow *Workflow  // Doc as a workflow, or nil
	Comments []*Comment // YAML comments, in source order
	Anchors  []*Anchor  // YAML anchors, in source order
	// Broken are the spans of text that YAML syntax errors kept from being
	// read as written, in source order: each error's own text and what the
	// reader skipped after it to recover. Nodes near them may hold what
	// recovery made of the text (keys cut short or moved to another level);
	// the checker reports nothing that depends on them.
	Broken []source.Span
}

// Anchor is a YAML anchor (&name). Its span is the anchored value's; values
// reached through an alias of it keep these spans.
type Anchor struct {
	Loc
	Name     string
	NameSpan source.Span // the name, without '&'
	Value    Value       // the anchored generic value
}

// Comment is a YAML comment, from '#' to the end of the line.
type Comment struct {
	Loc
	Text string // including the '#'
}

// Value is a YAML value: a generic *Scalar, *Mapping, *Sequence or *Alias, or
// a typed node that stands for one (a *Template, an *Approval, a *StepList…).
type Value interface {
	Node
	value()
}

// ScalarKind is the type a scalar resolves to under the YAML 1.2 core schema,
// which is what the reference's YAML parser uses.
type ScalarKind uint8

// Scalar kinds.
const (
	Null ScalarKind = iota
	Bool
	Int
	Float
	String
)

var scalarKindNames = [...]string{"null", "bool", "int", "float", "string"}

func (k ScalarKind) String() string { return scalarKindNames[k] }

// Style is how a scalar is written.
type Style uint8

// Scalar styles.
const (
	Plain Style = iota
	SingleQuoted
	DoubleQuoted // also JSON strings
	LiteralBlock // |
	FoldedBlock  // >
)

var styleNames = [...]string{"plain", "single-quoted", "double-quoted", "literal", "folded"}

func (s Style) String() string { return styleNames[s] }

// Scalar is a YAML scalar. Its span covers the scalar as written: quotes,
// block header and body included (not a trailing comment).
type Scalar struct {
	Loc
	Kind  ScalarKind
	Style Style
	Bool  bool           // the value when Kind is Bool
	Text  string         // the decoded value; for non-strings the text as written
	Num   float64        // the value when Kind is Int or Float (numbers are JavaScript numbers)
	Props *Props         // an explicit tag or anchor, or nil (most scalars have neither)
	Map   source.TextMap // decoded Text → source bytes
}

// Props are the node properties written before a scalar.
type Props struct {
	Tag    string // an explicit tag such as "!!str", or ""
	Anchor string // the anchor name defined on this node, or ""
	// Key is set on the name of a mapping key that is not a string
	// (Field.Key): the key as written (see Field.KeyNode).
	Key Value
}

// Primitive is the scalar's value as a JSON decoder or the reference's
// YAML loader gives it: nil, a bool, a float64 (numbers are JavaScript
// numbers) or a string.
func (s *Scalar) Primitive() any {
	switch s.Kind {
	case Null:
		return nil
	case Bool:
		return s.Bool
	case Int, Float:
		return s.Num
	}
	return s.Text
}

// Tag is the scalar's explicit tag, or "".
func (s *Scalar) Tag() string {
	if s.Props == nil {
		return ""
	}
	return s.Props.Tag
}

// Mapping is a YAML mapping. The typed node built from it (a *Workflow, a
// *Step…) shares its fields: building replaces each field's value with its
// typed node.
type Mapping struct {
	Loc
	Flow   bool
	Anchor string
	Fields []*Field
}

// Sequence is a YAML sequence.
type Sequence struct {
	Loc
	Flow   bool
	Anchor string
	Items  []Value
}

// Alias is a YAML alias (*name). Target is the anchored value, or nil when no
// anchor of that name was defined before it.
type Alias struct {
	Loc
	Name   string
	Target Value
}

func (*Scalar) value()   {}
func (*Mapping) value()  {}
func (*Sequence) value() {}
func (*Alias) value()    {}

// Resolve follows aliases to the value they stand for (nil for an undefined alias).
func Resolve(v Value) Value {
	for i := 0; i < 64; i++ {
		a, ok := v.(*Alias)
		if !ok {
			return v
		}
		v = a.Target
	}
	return nil
}
