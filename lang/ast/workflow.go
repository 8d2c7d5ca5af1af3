package ast

import "github.com/lobsterdev/lobster/lang/source"

// Field is one entry of a mapping: a key and its value. Value is never nil
// (an absent value is a null *Scalar with an empty range). In a typed node it
// is the most typed node the parser could build: a *Shell for a string `run`,
// a *Template for a string `env` value, an *Approval for a mapping
// `approval`, and the generic *Scalar, *Mapping or *Sequence when the value
// has another type (the parser then reports it).
type Field struct {
	Loc
	Key   *Scalar // the key's name: the key itself when it is a string (see KeyNode)
	Value Value
}

// KeyNode is the key as written when it is not a string scalar (a number, a
// boolean, null, an alias or a collection), else nil. The reference's
// objects have string keys: Key then holds the name the reference gives it
// ("16" for 0x10, "" for null, "[ a, b ]" for a collection), spanning the
// node, and keeps the node in its Props.
func (f *Field) KeyNode() Value {
	if f.Key != nil && f.Key.Props != nil {
		return f.Key.Props.Key
	}
	return nil
}

// Name is the key's text.
func (f *Field) Name() string { return f.Key.Text }

// Object is embedded in every typed mapping node.
type Object struct {
	Loc
	Flow    bool
	Fields  []*Field // every key in source order, known or unknown
	Unknown []*Field // the keys the reference does not read (a subset of Fields)
}

// Obj returns the object itself; every typed mapping node has it.
func (o *Object) Obj() *Object { return o }

// ObjectOf returns the typed object a value is, or nil.
func ObjectOf(v Value) *Object {
	if o, ok := v.(interface{ Obj() *Object }); ok {
		return o.Obj()
	}
	return nil
}

// Lookup returns the last field named name, or nil.
func (o *Object) Lookup(name string) *Field {
	for i := len(o.Fields) - 1; i >= 0; i-- {
		if o.Fields[i].Key.Text == name {
			return o.Fields[i]
		}
	}
	return nil
}

// Workflow is the top-level mapping of a workflow file.
type Workflow struct {
	Object
	Name, Description, Args, Env, Cwd, Steps, CostLimit *Field
}

// Args is the `args` mapping. Each field's value is an *ArgDef when it is a mapping.
type Args struct {
	Object
}

// ArgDef is one arg definition.
type ArgDef struct {
	Object
	Default, Description *Field
}

// CostLimit is the `cost_limit` mapping.
type CostLimit struct {
	Object
	MaxUSD, Action *Field
}

// TemplateMap is an `env` or `workflow_args` mapping: string values are
// *Template nodes.
type TemplateMap struct {
	Object
}

// StepList is a list of steps: top-level `steps`, a loop's `steps` or a
// parallel step's `branches`. Items that are not mappings stay generic values.
type StepList struct {
	Loc
	Flow  bool
	Items []Value
}

// Steps returns the items that are steps.
func (l *StepList) Steps() []*Step {
	steps := make([]*Step, 0, len(l.Items))
	for _, it := range l.Items {
		if s, ok := it.(*Step); ok {
			steps = append(steps, s)
		}
	}
	return steps
}

// StepContext says where a step stands.
type StepContext int

// Step contexts.
const (
	TopStep    StepContext = iota // an entry of the top-level steps list
	BranchStep                    // a parallel branch
	SubStep                       // a for_each sub-step
)

var stepContextNames = [...]string{"step", "branch", "sub-step"}

func (c StepContext) String() string { return stepContextNames[c] }

// Step is a step, a parallel branch or a for_each sub-step.
type Step struct {
	Object
	Context StepContext
	ID      *Field
	// Execution fields.
	Run, Command, Pipeline, Workflow, WorkflowArgs, Parallel, ForEach *Field
	// Loop fields.
	Steps, ItemVar, IndexVar, BatchSize, PauseMs *Field
	// Gates.
	Approval, Input *Field
	// Modifiers.
	Stdin, Env, Cwd, When, Condition, Retry, TimeoutMs, OnError *Field
}

// IDText is the step's id when it is a string, else "".
func (s *Step) IDText() string {
	if s.ID == nil {
		return ""
	}
	if sc, ok := s.ID.Value.(*Scalar); ok && sc.Kind == String {
		return sc.Text
	}
	return ""
}

// Anchor is where a finding about the step as a whole points: its id value,
// or its first key, or the step.
func (s *Step) Anchor() source.Span {
	if s.ID != nil {
		return SpanOf(s.ID.Value)
	}
	if len(s.Fields) > 0 {
		return s.Fields[0].Key.Span
	}
	return s.Span
}

// Approval is an `approval` mapping. The other forms (true, a prompt string)
// stay *Scalar values.
type Approval struct {
	Object
	Prompt, Items, Preview                                        *Field
	InitiatedBy, RequiredApprover, RequireDifferentApprover       *Field // snake_case spellings
	InitiatedByCC, RequiredApproverCC, RequireDifferentApproverCC *Field // camelCase spellings
}

// Input is an `input` mapping.
type Input struct {
	Object
	Prompt, ResponseSchema, Defaults *Field
}

// Retry is a `retry` mapping.
type Retry struct {
	Object
	Max, Backoff, DelayMs, MaxDelayMs, Jitter *Field
}

// Parallel is a `parallel` mapping.
type Parallel struct {
	Object
	Wait, TimeoutMs, Branches *Field
}

func (*Workflow) value()    {}
func (*Args) value()        {}
func (*ArgDef) value()      {}
func (*CostLimit) value()   {}
func (*TemplateMap) value() {}
func (*StepList) value()    {}
func (*Step) value()        {}
func (*Approval) value()    {}
func (*Input) value()       {}
func (*Retry) value()       {}
func (*Parallel) value()    {}
