package pipeline

import (
	"math"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/js"
)

// Args are a stage's arguments as the reference's commands see them: the
// positionals, and each flag's value, a string or (for a bare flag) true.
// A repeated flag keeps its last value.
type Args struct {
	Positional []string
	names      []string // flags in order of first appearance
	values     map[string]Value
}

// Value is a flag's value: Text, or true when Bare.
type Value struct {
	Text string
	Bare bool
}

// ArgsOf converts the arguments of a parsed stage. A Standalone flag of
// the stage's command (exec --json) does not take the next word: that word
// is a positional.
func ArgsOf(st *ast.Stage) *Args {
	a := &Args{values: map[string]Value{}}
	spec, _ := commands.Lookup(st.Name.Text)
	for _, arg := range st.Args {
		switch arg := arg.(type) {
		case *ast.Word:
			a.Positional = append(a.Positional, arg.Text)
		case *ast.Flag:
			if arg.Name == "_" {
				continue // reserved for the positionals; ReservedFlag reports it
			}
			standalone := false
			if spec != nil {
				if f := spec.Flag(arg.Name); f != nil && f.Standalone {
					standalone = true
				}
			}
			switch {
			case arg.Value == nil:
				a.set(arg.Name, Value{Bare: true})
			case standalone && !arg.Eq:
				a.set(arg.Name, Value{Bare: true})
				a.Positional = append(a.Positional, arg.Value.Text)
			default:
				a.set(arg.Name, Value{Text: arg.Value.Text})
			}
		}
	}
	return a
}

// ReservedFlag returns the first flag of the stages spelled "--_", which
// would stand for the positionals (the reference fails on it with an
// internal JavaScript error), or nil.
func ReservedFlag(stages []*ast.Stage) *ast.Flag {
	for _, st := range stages {
		for _, arg := range st.Args {
			if f, ok := arg.(*ast.Flag); ok && f.Name == "_" {
				return f
			}
		}
	}
	return nil
}

// NewArgs builds arguments from positionals and name, value pairs (a bool
// true value is a bare flag), for tests and callers that build stages.
func NewArgs(positional []string, flags ...any) *Args {
	a := &Args{Positional: positional, values: map[string]Value{}}
	for i := 0; i+1 < len(flags); i += 2 {
		name, _ := flags[i].(string)
		switch v := flags[i+1].(type) {
		case string:
			a.set(name, Value{Text: v})
		default:
			a.set(name, Value{Bare: true})
		}
	}
	return a
}

func (a *Args) set(name string, v Value) {
	if _, ok := a.values[name]; !ok {
		a.names = append(a.names, name)
	}
	a.values[name] = v
}

// Get is the value of the first of names that is given.
func (a *Args) Get(names ...string) (Value, bool) {
	for _, n := range names {
		if v, ok := a.values[n]; ok {
			return v, true
		}
	}
	return Value{}, false
}

// Names are the flags given, in order of first appearance.
func (a *Args) Names() []string { return a.names }

// String is the flag's text when it was given a value; a bare flag or a
// missing one gives ok false.
func (a *Args) String(names ...string) (string, bool) {
	v, ok := a.Get(names...)
	if !ok || v.Bare {
		return "", false
	}
	return v.Text, true
}

// Truthy is JavaScript's Boolean() of the flag: a bare flag and any
// non-empty text ("false" included) are true.
func (a *Args) Truthy(names ...string) bool {
	v, ok := a.Get(names...)
	return ok && (v.Bare || v.Text != "")
}

// Number is JavaScript's Number() of the flag (a bare flag is 1); given is
// false when the flag is absent. A value Number() cannot read is NaN.
func (a *Args) Number(names ...string) (f float64, given bool) {
	v, ok := a.Get(names...)
	if !ok {
		return 0, false
	}
	if v.Bare {
		return 1, true
	}
	f, ok = js.Number(v.Text)
	if !ok {
		return math.NaN(), true
	}
	return f, true
}

// JSString is String() of the flag's value ("true" for a bare flag), and
// whether it was given.
func (a *Args) JSString(names ...string) (string, bool) {
	v, ok := a.Get(names...)
	if !ok {
		return "", false
	}
	if v.Bare {
		return "true", true
	}
	return v.Text, true
}

// Describe writes the arguments as the reference's dry run lists them.
func (a *Args) Describe() string {
	var parts []string
	parts = append(parts, a.Positional...)
	for _, n := range a.names {
		v := a.values[n]
		if v.Bare {
			parts = append(parts, n+"=true")
		} else {
			parts = append(parts, n+"="+v.Text)
		}
	}
	return strings.Join(parts, ", ")
}
