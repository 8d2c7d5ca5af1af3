package check

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file holds what the pipeline rules share: reading
// a parsed stage against the command registry (lang/commands), the
// JavaScript conversions the commands apply to flag values, the grammar of
// where expressions, and quoting text for a fix inside a YAML scalar.
//
// Pipeline text is substituted (${arg}, $id.path) before it is parsed:
// a word that holds a reference is only known at run time, so
// the rules defer on it.

// plStage is one pipeline stage read against the registry. A rule receives
// a plStage that is reused for the next stage: it must not keep it.
type plStage struct {
	Step  *StepInfo
	Field *ast.Field
	Pipe  *ast.Pipeline
	Stage *ast.Stage
	Index int // the stage's index in the pipeline
	Name  string
	Cmd   *commands.Command // nil when the name is unknown or deferred
	// NameRef: the stage name holds a reference; nothing is checked.
	NameRef bool
	// HasRef: some word of the stage holds a reference, so the number of
	// words and the flags given are only known at run time.
	HasRef bool
	Flags  []plFlag
	// Pos are the positionals as the command sees them, in order: the
	// parser's positional words and the words a Standalone flag does not
	// take.
	Pos []*ast.Word
}

// plFlag is a flag of a stage.
type plFlag struct {
	Flag *ast.Flag
	Def  *commands.Flag // nil when the command has no such flag
	// Value is the value the command reads: nil for a bare flag (true),
	// including a Standalone flag whose following word is a positional.
	Value *ast.Word
	// Freed is the word the parser bound to a Standalone flag, which the
	// command reads as a positional, or nil.
	Freed    *ast.Word
	NameRef  bool // the flag name holds a reference
	ValueRef bool // the value holds a reference
}

// Given reports whether the command sees the flag as set: a non-empty
// value, or a bare flag that the command reads as true.
func (f *plFlag) Given() bool {
	if f.Value == nil {
		return f.Def == nil || !f.Def.IgnoresBare
	}
	return f.Value.Text != "" || f.ValueRef
}

// plEachStage calls fn for every stage of every parsed pipeline, in source
// order.
func plEachStage(in *Info, fn func(st *plStage)) {
	var st plStage
	for _, si := range in.Steps {
		f := si.Step.Pipeline
		if f == nil {
			continue
		}
		pipe, ok := f.Value.(*ast.Pipeline)
		if !ok || pipe.Err != nil {
			continue
		}
		for i, stage := range pipe.Stages {
			plReadStage(in.Commands, &st, si, f, pipe, stage)
			st.Index = i
			fn(&st)
		}
	}
}

// plEachSwitch calls fn for every switch (a Bool flag of a known command)
// of every stage, but for those whose value is a reference.
func plEachSwitch(in *Info, fn func(st *plStage, f *plFlag)) {
	plEachStage(in, func(st *plStage) {
		if st.Cmd == nil {
			return
		}
		for i := range st.Flags {
			if f := &st.Flags[i]; f.Def != nil && f.Def.Type == commands.Bool && !f.ValueRef {
				fn(st, f)
			}
		}
	})
}

// plReadStage fills st for one stage.
func plReadStage(reg *commands.Registry, st *plStage, si *StepInfo, f *ast.Field, pipe *ast.Pipeline, stage *ast.Stage) {
	*st = plStage{Step: si, Field: f, Pipe: pipe, Stage: stage, Flags: st.Flags[:0], Pos: st.Pos[:0]}
	if stage.Name != nil {
		st.Name = stage.Name.Text
		st.NameRef = plHasRef(pipe.Refs, ast.SpanOf(stage.Name))
	}
	st.HasRef = st.NameRef || len(pipe.Refs) > 0 && plHasRef(pipe.Refs, ast.SpanOf(stage))
	if !st.NameRef {
		st.Cmd, _ = reg.Lookup(st.Name)
	}
	for _, a := range stage.Args {
		switch a := a.(type) {
		case *ast.Word:
			st.Pos = append(st.Pos, a)
		case *ast.Flag:
			pf := plFlag{Flag: a, Value: a.Value}
			if st.HasRef {
				pf.NameRef = plHasRef(pipe.Refs, a.NameSpan)
				pf.ValueRef = a.Value != nil && plHasRef(pipe.Refs, ast.SpanOf(a.Value))
			}
			if st.Cmd != nil && !pf.NameRef {
				pf.Def = st.Cmd.Flag(a.Name)
			}
			if pf.Def != nil && pf.Def.Standalone && !a.Eq && a.Value != nil {
				pf.Freed, pf.Value, pf.ValueRef = a.Value, nil, false
			}
			st.Flags = append(st.Flags, pf)
			if pf.Freed != nil {
				st.Pos = append(st.Pos, pf.Freed)
			}
		}
	}
}

// plHasRef reports whether a reference overlaps the span; refs are in
// source order.
func plHasRef(refs []ast.Ref, sp source.Span) bool {
	k := sort.Search(len(refs), func(k int) bool { return refs[k].End() > sp.Start })
	return k < len(refs) && refs[k].Pos() < sp.End
}

// FlagNamed returns the last flag the command reads under the canonical
// name (any spelling), or nil. Like the reference, the last value wins.
func (st *plStage) FlagNamed(name string) *plFlag {
	for i := len(st.Flags) - 1; i >= 0; i-- {
		if d := st.Flags[i].Def; d != nil && d.Name == name {
			return &st.Flags[i]
		}
	}
	return nil
}

// AnyFlagRef reports whether some flag name holds a reference.
func (st *plStage) AnyFlagRef() bool {
	for i := range st.Flags {
		if st.Flags[i].NameRef {
			return true
		}
	}
	return false
}

// WordRef reports whether a word of the stage holds a reference.
func (st *plStage) WordRef(w *ast.Word) bool {
	return st.HasRef && plHasRef(st.Pipe.Refs, ast.SpanOf(w))
}

// UsedPositionals is how many positionals the command reads given the flags
// of the stage, or -1 when it reads all of them.
func (st *plStage) UsedPositionals() int {
	n := 0
	for _, p := range st.Cmd.Positionals {
		ignored := false
		for _, u := range p.Unless {
			if f := st.FlagNamed(u); f != nil && f.Given() {
				ignored = true
			}
		}
		if ignored {
			// The positionals it would take are ignored; the ones after
			// it are not shifted (none of the table's commands has any).
			return n
		}
		if p.Variadic {
			return -1
		}
		n++
	}
	return n
}

// plFlagList spells the flags of a command for a message: --a, --b and --c.
func plFlagList(c *commands.Command) string {
	var b strings.Builder
	for i, f := range c.Flags {
		switch {
		case i == 0:
		case i == len(c.Flags)-1:
			b.WriteString(" and ")
		default:
			b.WriteString(", ")
		}
		b.WriteString("--" + f.Name)
	}
	return b.String()
}

// plMessage fills the {name} and {value} placeholders of a reference error.
func plMessage(msg, name, value string) string {
	return strings.NewReplacer("{name}", name, "{value}", value).Replace(msg)
}

// plWhere is a where expression split as the reference's regular expression
// ^([a-zA-Z0-9_.]+)\s*(==|=|!=|<=|>=|<|>)\s*(.+)$ splits it.
type plWhere struct {
	Path, Op, Value string
}

// plWhereOps are the operators in the order the regular expression tries
// them.
var plWhereOps = [...]string{"==", "=", "!=", "<=", ">=", "<", ">"}

// plParseWhere splits a where expression; ok is false when the reference
// rejects it with "Invalid where expression".
func plParseWhere(expr string) (w plWhere, ok bool) {
	i := 0
	for i < len(expr) && plWherePathByte(expr[i]) {
		i++
	}
	if i == 0 {
		return w, false
	}
	w.Path = expr[:i]
	rest := strings.TrimLeftFunc(expr[i:], js.IsSpace)
	for _, op := range plWhereOps {
		if !strings.HasPrefix(rest, op) {
			continue
		}
		if v, ok := plWhereValue(rest[len(op):]); ok {
			w.Op, w.Value = op, v
			return w, true
		}
	}
	return w, false
}

func plWherePathByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.'
}

// plWhereValue matches \s*(.+)$ against r: the greedy \s* gives back one
// white-space character when nothing else is left. "." matches anything but
// a line terminator.
func plWhereValue(r string) (string, bool) {
	v := strings.TrimLeftFunc(r, js.IsSpace)
	if v == "" && r != "" {
		// All white space: the last character is given back.
		_, size := utf8.DecodeLastRuneInString(r)
		v = r[len(r)-size:]
	}
	if v == "" || strings.ContainsAny(v, "\n\r\u2028\u2029") {
		return "", false
	}
	return v, true
}

// plYAMLText encodes text for insertion inside the scalar s, so that the
// scalar decodes to it; ok is false when that cannot be done safely (a plain
// scalar that would get a comment or a key separator).
func plYAMLText(s *ast.Scalar, text string) (string, bool) {
	switch s.Style {
	case ast.SingleQuoted:
		return strings.ReplaceAll(text, "'", "''"), true
	case ast.DoubleQuoted:
		return strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(text), true
	case ast.LiteralBlock, ast.FoldedBlock:
		return text, !strings.Contains(text, "\n")
	}
	if strings.Contains(text, ": ") || strings.Contains(text, " #") || strings.ContainsAny(text, "\n") || strings.HasSuffix(text, ":") {
		return "", false
	}
	return text, true
}

// plPlainWord reports whether a word is written as its text: no quotes and
// no escapes, so that its text can be moved as is.
func plPlainWord(p *Pass, w *ast.Word) bool {
	return p.Text(ast.SpanOf(w)) == w.Text && !strings.ContainsAny(w.Text, `'"\`)
}

// plEachPipeline calls fn for every pipeline field, parsed or not.
func plEachPipeline(in *Info, fn func(si *StepInfo, f *ast.Field, pipe *ast.Pipeline)) {
	for _, si := range in.Steps {
		f := si.Step.Pipeline
		if f == nil {
			continue
		}
		if pipe, ok := f.Value.(*ast.Pipeline); ok && pipe.Scalar != nil {
			fn(si, f, pipe)
		}
	}
}

// plBoolWord reads a word as a boolean: false, 0, no, off, n and true, 1,
// yes, on, y (any case). ok is false for any other word.
func plBoolWord(w string) (value, ok bool) {
	switch strings.ToLower(strings.TrimSpace(w)) {
	case "false", "0", "no", "off", "n":
		return false, true
	case "true", "1", "yes", "on", "y":
		return true, true
	}
	return false, false
}

// plWordList says which words are ignored: "x" is ignored, "x" and "y" are
// ignored.
func plWordList(ws []*ast.Word) string {
	if len(ws) == 1 {
		return plQuotedList(ws) + " is ignored"
	}
	return plQuotedList(ws) + " are ignored"
}

// plSatisfied reports whether a stage gives one of a requirement's
// alternatives.
func plSatisfied(st *plStage, r commands.Requirement) bool {
	for _, a := range r.Any {
		if a == commands.PositionalArgs {
			for _, w := range st.Pos {
				if w.Text != "" {
					return true
				}
			}
			continue
		}
		if f := st.FlagNamed(a); f != nil && f.Given() {
			return true
		}
	}
	return false
}

// plRequirementText spells what a requirement asks for: --key, or a <key>
// argument, joined with "or".
func plRequirementText(c *commands.Command, r commands.Requirement) string {
	parts := make([]string, 0, len(r.Any))
	for _, a := range r.Any {
		if a == commands.PositionalArgs {
			name := "argument"
			if len(c.Positionals) > 0 {
				name = c.Positionals[0].Name
			}
			parts = append(parts, fmt.Sprintf("a <%s> argument", name))
			continue
		}
		parts = append(parts, "--"+a)
	}
	return strings.Join(parts, " or ")
}

// plLooseKey folds case and drops the separators "-" and "_", so that
// group_by, GroupBy and group-by meet groupBy.
func plLooseKey(s string) string {
	s = strings.ToLower(s)
	if strings.ContainsAny(s, "-_") {
		s = strings.NewReplacer("-", "", "_", "").Replace(s)
	}
	return s
}

// plQuotedList quotes the texts of words: "x", "y" and "z".
func plQuotedList(ws []*ast.Word) string {
	parts := make([]string, 0, len(ws))
	for i, w := range ws {
		if i == 4 && len(ws) > 5 {
			parts = append(parts, fmt.Sprintf("%d more", len(ws)-4))
			break
		}
		parts = append(parts, fmt.Sprintf("%q", w.Text))
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
