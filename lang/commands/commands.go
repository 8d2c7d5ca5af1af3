// Package commands describes the built-in pipeline commands of the reference
// as data: their names, flags, positional
// arguments, what they read and produce, and their side effects. It holds no
// execution code; the checker validates pipeline stages against it, and the
// runtime, the LSP (completion, hover) and `lobster commands` read it.
//
// The table follows release 2026.9.13 where it differs from the documents:
// `exec --json` never takes the next word as its value (Flag.Standalone), and
// empty quotes are kept as empty arguments.
package commands

import (
	"sort"
	"sync"
)

// Type is the type of a flag's value.
type Type uint8

// Flag types.
const (
	String Type = iota + 1 // any text
	Bool                   // a switch; see Flag.Truth for how a written value is read
	Int                    // an integer, converted with JavaScript Number()
	Number                 // a number, converted with JavaScript Number()
	JSON                   // JSON text; see Flag.Shape
	Enum                   // one of Flag.Values
)

var typeNames = [...]string{"", "string", "bool", "int", "number", "json", "enum"}

func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "invalid"
}

// Truth is how a Bool flag reads the value written after it.
type Truth uint8

// Ways of reading a boolean flag.
const (
	// Truthy is JavaScript Boolean(value): the bare flag and every
	// non-empty value, "false" and "0" included, turn it on.
	Truthy Truth = iota
	// Parsed maps false/0/no (trimmed, any case) to off and true/1/yes to
	// on; the bare flag and any other non-empty value turn it on
	// (llm.invoke's flag parser).
	Parsed
	// BareOnly turns the flag on only when it is written bare; any written
	// value, "true" included, leaves it off (openclaw.agent --local).
	BareOnly
)

var truthNames = [...]string{"truthy", "parsed", "bare-only"}

func (t Truth) String() string { return truthNames[t] }

// Shape is the JSON type a JSON flag must decode to.
type Shape uint8

// JSON shapes.
const (
	AnyJSON Shape = iota
	Object
	Array
)

var shapeNames = [...]string{"any", "object", "array"}

func (s Shape) String() string { return shapeNames[s] }

// Effect is the side-effect class of a command.
type Effect uint8

// Side-effect classes, from harmless to irreversible.
const (
	None         Effect = iota // computes on its input only
	Read                       // reads local state, files or a mailbox
	Write                      // writes local state (the state directory)
	External                   // runs programs or calls remote services
	Irreversible               // does something that cannot be taken back (sends email)
)

var effectNames = [...]string{"none", "read", "write", "external", "irreversible"}

func (e Effect) String() string { return effectNames[e] }

// Input is how a command treats the items of the previous stage.
type Input uint8

// Ways of treating the input.
const (
	Unread  Input = iota // never reads it; the upstream is closed unread
	Drained              // reads all of it and discards it
	Items                // the items are its data
)

var inputNames = [...]string{"unread", "drained", "items"}

func (i Input) String() string { return inputNames[i] }

// PositionalArgs stands for "at least one positional argument" in
// Requirement.Any.
const PositionalArgs = "_"

// Flag is a flag a command reads: --name value, --name=value or a bare
// --name (the value true).
type Flag struct {
	Name    string   // canonical spelling, without "--"
	Aliases []string // other spellings read as the same flag
	Type    Type
	Values  []string // allowed values of an Enum
	// FoldCase compares an Enum's value with Values case-insensitively:
	// the value is lowercased as JavaScript's toLowerCase does, and that
	// is the value an error message names.
	FoldCase bool
	// Trim removes the white space around an Enum's value (JavaScript's
	// trim) before it is compared.
	Trim bool
	// Default is the value used when the flag is absent, written as text
	// of the flag's type; HasDefault tells an empty default from none.
	Default    string
	HasDefault bool
	// Required: the command fails without the flag (it is then also the
	// only entry of one of the command's Requirements).
	Required bool
	// Repeatable: giving the flag several times is meaningful. No
	// built-in flag is: the last value wins.
	Repeatable bool
	// Standalone: the flag never takes the next word as its value, so a
	// following word is a positional (exec --json since 2026.9.13). The
	// parser of this module binds the next word to every flag; checks
	// must treat that word as a positional for a Standalone flag.
	Standalone bool
	Truth      Truth // how a Bool reads a written value
	Shape      Shape // what a JSON value must decode to
	// ShapeIf names another flag: Shape applies only when it is given
	// (openclaw.invoke --args-json must be an object with --each).
	ShapeIf string
	// NonNegative: a number below zero is rejected (or replaced).
	NonNegative bool
	// Format is a constraint on a String's text: "http-url" (an absolute
	// http or https URL).
	Format string
	// Unused: the command accepts the flag and ignores it.
	Unused bool
	// IgnoresBare: the command reads only a written value, so a bare flag
	// (the value true) is ignored. Other flags read a bare flag as true:
	// the text "true", the number 1, or a truthy switch.
	IgnoresBare bool
	// Invalid is the reference's error for a value of the wrong type,
	// range or format; "" when such a value is silently replaced by the
	// default. {name} stands for the command name as written, {value} for
	// the value.
	Invalid string
	// InvalidShape is the error for valid JSON of the wrong Shape.
	InvalidShape string
	Description  string
}

// Names is the flag's canonical name followed by its aliases.
func (f *Flag) Names() []string {
	return append([]string{f.Name}, f.Aliases...)
}

// Positional is a positional argument of a command.
type Positional struct {
	Name     string
	Required bool
	// Variadic: it takes every remaining positional.
	Variadic bool
	// Unless lists flags that take precedence: when one of them is given,
	// the command ignores the positional.
	Unless      []string
	Description string
}

// Requirement is something a stage must give, or the command fails.
type Requirement struct {
	// Any lists the flags (canonical names) and PositionalArgs of which at
	// least one must be given with a non-empty value.
	Any []string
	// Error is the reference's run-time error when none is given; {name}
	// stands for the command name as written.
	Error string
}

// Conflict is a combination of flags the command rejects.
type Conflict struct {
	Flags []string // canonical names; all of them given is an error
	Error string
}

// Command is a built-in pipeline command.
type Command struct {
	Name    string
	Aliases []string // other registered names of the same command
	Summary string   // one line, as commands.list reports it
	Help    string   // usage and notes

	Flags       []*Flag
	Positionals []*Positional // in order; the last may be Variadic. Others are ignored.
	Requires    []Requirement
	Conflicts   []Conflict

	Input    Input
	Consumes string // what it reads from its input
	Emits    string // what it outputs

	Effect     Effect
	EffectTags []string // the reference's meta.sideEffects tags
	// RetryableAfterDispatch: a workflow step's retry may run the command
	// again after it has started its effect. False for the commands that
	// mark a non-retryable side effect (a call that was sent is not sent
	// twice).
	RetryableAfterDispatch bool

	Renderer bool // writes to the output itself and outputs no items (json, table)
	Halts    bool // may stop the pipeline for a human (approve, ask)
	// RequestsInput: in tool mode it suspends the run with an input
	// request instead of halting (ask).
	RequestsInput bool

	// Program: the name is also a common program or shell builtin, so the
	// name alone in shell text proves nothing.
	Program bool
	// Shim: the package installs an executable of this name that runs the
	// command, so it also works in shell text where that executable is on
	// PATH.
	Shim bool
	// Host: not a built-in command but one the host that runs the
	// workflows registers, declared in the project's configuration. Its
	// flags and effects are as declared; lobster run cannot run it.
	Host bool
}

// Flag returns the flag named name (a canonical name or an alias), or nil.
func (c *Command) Flag(name string) *Flag {
	for _, f := range c.Flags {
		if f.Name == name {
			return f
		}
		for _, a := range f.Aliases {
			if a == name {
				return f
			}
		}
	}
	return nil
}

// FlagNames lists every spelling of every flag, canonical names first, in
// table order.
func (c *Command) FlagNames() []string {
	var names []string
	for _, f := range c.Flags {
		names = append(names, f.Name)
	}
	for _, f := range c.Flags {
		names = append(names, f.Aliases...)
	}
	return names
}

// ReadsPositionals reports whether the command reads any positional
// argument.
func (c *Command) ReadsPositionals() bool { return len(c.Positionals) > 0 }

// Registry is a set of commands by name: the built-in ones and, for a
// project, the host's commands its configuration declares ([Registry.With]).
// A Registry is never modified once built: share it freely.
type Registry struct {
	byName map[string]*Command
	names  []string
	sorted []*Command
}

func newRegistry(cmds []*Command) *Registry {
	r := &Registry{byName: make(map[string]*Command, len(cmds)+2)}
	for _, c := range cmds {
		r.byName[c.Name] = c
		r.names = append(r.names, c.Name)
		for _, a := range c.Aliases {
			r.byName[a] = c
			r.names = append(r.names, a)
		}
	}
	sort.Strings(r.names)
	r.sorted = append([]*Command(nil), cmds...)
	sort.Slice(r.sorted, func(i, j int) bool { return r.sorted[i].Name < r.sorted[j].Name })
	return r
}

// index is the registry of the built-in commands, built on first use.
var index = sync.OnceValue(func() *Registry { return newRegistry(table()) })

// Builtin is the registry of the built-in commands (the reference's
// default registry).
func Builtin() *Registry { return index() }

// With returns a registry holding r's commands and extra. A command of
// extra whose name or alias r has already is left out: the built-in
// commands cannot be redefined.
func (r *Registry) With(extra ...*Command) *Registry {
	cmds := append([]*Command(nil), r.sorted...)
	for _, c := range extra {
		if _, taken := r.byName[c.Name]; taken {
			continue
		}
		cmds = append(cmds, c)
	}
	return newRegistry(cmds)
}

// Lookup finds a command by its name or an alias. Names are case-sensitive,
// as in the reference's registry. A nil Registry is the built-in one.
func (r *Registry) Lookup(name string) (*Command, bool) {
	if r == nil {
		r = index()
	}
	c, ok := r.byName[name]
	return c, ok
}

// All returns every command once (aliases are not repeated), sorted by name.
// The slice is shared: do not modify it.
func (r *Registry) All() []*Command {
	if r == nil {
		r = index()
	}
	return r.sorted
}

// Names returns every registered name, aliases included, sorted as the
// reference's commands.list sorts them (byte order).
func (r *Registry) Names() []string {
	if r == nil {
		r = index()
	}
	return r.names
}

// Lookup finds a built-in command by its name or an alias. Names are
// case-sensitive, as in the reference's registry.
func Lookup(name string) (*Command, bool) { return index().Lookup(name) }

// All returns every built-in command once (aliases are not repeated),
// sorted by name. The slice is shared: do not modify it.
func All() []*Command { return index().All() }

// Names returns every built-in name, aliases included, sorted as the
// reference's commands.list sorts them (byte order).
func Names() []string { return index().Names() }
