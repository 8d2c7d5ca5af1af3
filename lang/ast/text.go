package ast

import "github.com/lobsterdev/lobster/lang/source"

// Template is a string field that gets `${arg}` and `$id.path` substitution
// (env values, workflow paths, workflow_args strings, stdin, for_each, cwd).
type Template struct {
	Loc
	Scalar *Scalar
	Refs   []Ref // in source order
}

// Shell is the shell text of `run` or `command`. Besides the Lobster
// references it holds the shell's own parameter expansions, found with a real
// POSIX shell parser.
type Shell struct {
	Loc
	Scalar *Scalar
	Refs   []Ref
	Vars   []*ShellVar  // parameter expansions that are not Lobster references
	Err    *SyntaxError // the shell parser's error, if the text is not valid shell
}

// Condition is a string `when` or `condition`. Boolean and null conditions
// stay *Scalar values.
type Condition struct {
	Loc
	Scalar *Scalar
	Expr   Expr         // nil when the text does not parse; "true" and "false" are *Literal
	Err    *SyntaxError // why the text does not parse
}

// Pipeline is the text of a `pipeline` field.
type Pipeline struct {
	Loc
	Scalar *Scalar
	Refs   []Ref    // substituted before the text is parsed
	Stages []*Stage // nil when Err is set
	Err    *SyntaxError
}

// SyntaxError is a syntax error in an embedded language.
type SyntaxError struct {
	Span source.Span
	Msg  string
}

// ScalarOf returns the scalar a value is or was built from: the scalar under
// a *Shell, *Template, *Condition or *Pipeline, or the value itself when it is
// a *Scalar; otherwise nil.
func ScalarOf(v Value) *Scalar {
	if s, ok := v.(*Scalar); ok {
		return s
	}
	return EmbeddedScalar(v)
}

// StringOf is the string scalar behind a value (see ScalarOf), or nil when
// the value is not a string. It does not follow aliases: StringOf(Resolve(v))
// does.
func StringOf(v Value) *Scalar {
	if s := ScalarOf(v); s != nil && s.Kind == String {
		return s
	}
	return nil
}

// TypeName names the YAML type of a value for messages: "null",
// "a boolean", "a number", "a string", "a list", "a mapping" or "an
// undefined alias". It follows aliases, and typed nodes count as what they
// were written as (a shell text is a string, a step list a list).
func TypeName(v Value) string {
	v = Resolve(v)
	if s := ScalarOf(v); s != nil {
		switch s.Kind {
		case Null:
			return "null"
		case Bool:
			return "a boolean"
		case Int, Float:
			return "a number"
		}
		return "a string"
	}
	switch v.(type) {
	case *Sequence, *StepList:
		return "a list"
	case nil:
		return "an undefined alias"
	}
	return "a mapping"
}

// EmbeddedScalar is the string scalar that holds the text of a shell,
// template, condition or pipeline node, or nil for any other node.
func EmbeddedScalar(n Node) *Scalar {
	switch v := n.(type) {
	case *Shell:
		return v.Scalar
	case *Template:
		return v.Scalar
	case *Condition:
		return v.Scalar
	case *Pipeline:
		return v.Scalar
	}
	return nil
}

func (*Template) value()  {}
func (*Shell) value()     {}
func (*Condition) value() {}
func (*Pipeline) value()  {}

// Ref is a reference token inside a string: a *StepRef, *ArgRef or *BracedRef.
type Ref interface {
	Node
	ref()
}

// StepRef is `$id.path`, in templates and in conditions.
type StepRef struct {
	Loc
	ID     string
	IDSpan source.Span // the id, without '$'
	Path   []*Ident    // at least one segment
}

// ArgRef is `${name}`.
type ArgRef struct {
	Loc
	Name     string
	NameSpan source.Span
}

// BracedRef is `${id.field…}`: a step reference written with braces, which is
// not Lobster syntax (the shell rejects it as a bad substitution).
type BracedRef struct {
	Loc
	ID     string
	IDSpan source.Span
	Path   []*Ident
}

// Ident is one path segment of a reference.
type Ident struct {
	Loc
	Name string
}

func (*StepRef) ref()   {}
func (*ArgRef) ref()    {}
func (*BracedRef) ref() {}

// RefText spells a reference as its decoded text: "$id.a.b", "${name}",
// "${id.a}".
func RefText(r Ref) string {
	switch r := r.(type) {
	case *StepRef:
		return "$" + r.ID + pathText(r.Path)
	case *BracedRef:
		return "${" + r.ID + pathText(r.Path) + "}"
	case *ArgRef:
		return "${" + r.Name + "}"
	}
	return ""
}

// pathText spells path segments, each after a ".".
func pathText(p []*Ident) string {
	n := 0
	for _, s := range p {
		n += 1 + len(s.Name)
	}
	b := make([]byte, 0, n)
	for _, s := range p {
		b = append(b, '.')
		b = append(b, s.Name...)
	}
	return string(b)
}

// ShellVar is a shell parameter expansion: `$NAME`, `${NAME}`, `${NAME:-x}`….
type ShellVar struct {
	Loc
	Name     string
	NameSpan source.Span
	Braced   bool
	Op       string // the expansion operator after the name (":-", "#", "%%", …), or ""
}

// Expr is a condition expression: *BinaryExpr, *UnaryExpr, *ParenExpr,
// *Literal or *StepRef.
type Expr interface {
	Node
	expr()
}

// BinaryExpr is `X op Y` for && || == != < <= > >=.
type BinaryExpr struct {
	Loc
	X      Expr
	Op     string
	OpSpan source.Span
	Y      Expr
}

// UnaryExpr is `!X`.
type UnaryExpr struct {
	Loc
	Op string
	X  Expr
}

// ParenExpr is `(X)`.
type ParenExpr struct {
	Loc
	X Expr
}

// LiteralKind is the kind of a condition literal.
type LiteralKind int

// Literal kinds.
const (
	LitString LiteralKind = iota // "…" or '…'
	LitNumber
	LitTrue
	LitFalse
	LitNull
	LitWord // a bare word, a string literal allowed on the right of a comparison
)

var literalKindNames = [...]string{"string", "number", "true", "false", "null", "word"}

func (k LiteralKind) String() string { return literalKindNames[k] }

// Literal is a constant in a condition.
type Literal struct {
	Loc
	Kind  LiteralKind
	Value string // decoded: quotes and escapes removed
}

func (*BinaryExpr) expr() {}
func (*UnaryExpr) expr()  {}
func (*ParenExpr) expr()  {}
func (*Literal) expr()    {}
func (*StepRef) expr()    {}

// Stage is one command of a pipeline.
type Stage struct {
	Loc
	Name *Word
	Args []Arg // flags and positionals in source order
}

// Arg is a stage argument: a *Flag or a positional *Word.
type Arg interface {
	Node
	arg()
}

// Word is one shell-style word of a pipeline stage, quotes included in its range.
type Word struct {
	Loc
	Text string // after quote removal
}

// Flag is `--name`, `--name value` or `--name=value`.
type Flag struct {
	Loc
	Name     string
	NameSpan source.Span // the name without "--"
	Value    *Word       // nil for a bare flag (true); for --k=v, the text after '='
	Eq       bool        // written --name=value
}

func (*Word) arg() {}
func (*Flag) arg() {}
