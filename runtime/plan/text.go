package plan

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/source"
)

// Text renders the plan for people and for diffs: one line per fact, steps
// numbered in order, nested parts (sub-steps, branches, composed
// workflows) indented by two more spaces. It leaves out line numbers, so
// that moving text in the file does not change the plan. Multi-line values
// are quoted as JSON strings. The text ends with a newline.
func (p *Plan) Text() string {
	var b strings.Builder
	writePlan(&b, p, "", true)
	return b.String()
}

// writePlan writes p at indent, with its "workflow FILE" line unless
// header is false.
func writePlan(b *strings.Builder, p *Plan, indent string, header bool) {
	line := func(parts ...string) {
		b.WriteString(indent)
		for _, s := range parts {
			b.WriteString(s)
		}
		b.WriteByte('\n')
	}
	if header {
		line("workflow ", p.File)
	}
	if len(p.Args) > 0 && string(p.Args) != "{}" {
		line("args: ", string(p.Args))
	}
	for _, v := range p.Env {
		line("env: ", v.Name, "=", quote(v.Value))
	}
	if p.Cwd != "" {
		line("cwd: ", quote(p.Cwd))
	}
	for i, st := range p.Steps {
		writeStep(b, st, strconv.Itoa(i+1)+". ", indent)
	}
	for _, e := range p.Errors {
		line("error: ", e.Msg)
	}
}

// writeStep writes a step's line, "indent number id [kind]", then its
// facts, indented under the id (or by two spaces for a branch, whose
// "number" is a word).
// textKind names what st does for a reader: as Kind, except for a step
// with nothing to execute, which is an approval gate or does nothing (the
// dry run's word).
func textKind(st *Step) string {
	switch {
	case st.Kind != None:
		return string(st.Kind)
	case st.Approval != nil:
		return "approval"
	}
	return "no-op"
}

func writeStep(b *strings.Builder, st *Step, number, indent string) {
	detail := indent + strings.Repeat(" ", len(number))
	if number == branchWord {
		detail = indent + "  "
	}
	line := func(parts ...string) {
		b.WriteString(detail)
		for _, s := range parts {
			b.WriteString(s)
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + number + st.ID + " [" + textKind(st) + "]")
	if st.Skipped {
		b.WriteString(" skipped")
	}
	b.WriteByte('\n')
	if c := st.When; c != nil {
		expr := c.Expr
		if expr == "" {
			expr = strconv.FormatBool(c.Value)
		} else {
			expr = quote(expr)
		}
		if c.Runtime {
			line(c.Field, ": ", expr, " (decided at run time)")
		} else {
			line(c.Field, ": ", expr, " (", strconv.FormatBool(c.Value), " at plan time)")
		}
	}
	switch st.Kind {
	case Shell:
		line("run: ", quote(st.Command))
	case Pipeline:
		line("pipeline: ", quote(st.Command))
		if st.Deferred {
			line("command lookup deferred: a stage name depends on step output")
		}
	case Input:
		if in := st.Input; in != nil {
			line("input: ", quote(in.Prompt))
			if len(in.ResponseSchema) > 0 {
				line("response schema: ", string(in.ResponseSchema))
			}
			if len(in.Defaults) > 0 {
				line("defaults: ", string(in.Defaults))
			}
		}
	case Workflow:
		c := st.Workflow
		line("workflow: ", quote(c.Path))
		if len(c.Args) > 0 {
			line("workflow_args: ", string(c.Args))
		}
		if c.Error != "" {
			line("not planned: ", c.Error)
		}
	}
	if s := st.Stdin; s != nil {
		switch {
		case s.Value != nil:
			line("stdin: ", string(s.Value))
		case s.Ref:
			line("stdin: ", strings.TrimSpace(s.Text), " (whole value)")
		default:
			line("stdin: ", quote(s.Text))
		}
	}
	for _, v := range st.Env {
		line("env: ", v.Name, "=", quote(v.Value))
	}
	if st.Cwd != "" {
		line("cwd: ", quote(st.Cwd))
	}
	if r := st.Retry; r != nil {
		jitter := ""
		if r.Jitter {
			jitter = ", jitter"
		}
		line("retry: ", num(r.Max), " attempts, ", r.Backoff, " backoff, delay ", num(r.DelayMs), "ms, max delay ", num(r.MaxDelayMs), "ms", jitter)
	}
	if st.TimeoutMs != 0 {
		line("timeout: ", num(st.TimeoutMs), "ms")
	}
	if st.OnError != "" {
		line("on_error: ", st.OnError)
	}
	if a := st.Approval; a != nil {
		gate := "approval: " + quote(a.Prompt)
		if a.RequiredApprover != "" {
			gate += ", required approver " + quote(a.RequiredApprover)
		}
		if a.InitiatedBy != "" {
			gate += ", initiated by " + quote(a.InitiatedBy)
		}
		if a.RequireDifferentApprover {
			gate += ", a different approver"
		}
		line(gate)
	}
	if l := st.Loop; l != nil {
		loop := "for_each: " + quote(l.Expr) + " as " + l.ItemVar + ", " + l.IndexVar
		if l.BatchSize != 0 {
			loop += ", batch_size " + num(l.BatchSize)
		}
		if l.PauseMs != 0 {
			loop += ", pause_ms " + num(l.PauseMs)
		}
		line(loop)
		for i, sub := range l.Steps {
			writeStep(b, sub, strconv.Itoa(i+1)+". ", detail+"  ")
		}
	}
	if par := st.Parallel; par != nil {
		head := "parallel: wait " + par.Wait
		if par.TimeoutMs != 0 {
			head += ", timeout " + num(par.TimeoutMs) + "ms"
		}
		line(head)
		for _, br := range par.Branches {
			writeStep(b, br, branchWord, detail+"  ")
		}
	}
	if c := st.Workflow; c != nil && c.Plan != nil {
		writePlan(b, c.Plan, detail+"  ", true)
	}
}

// branchWord opens the line of a parallel branch.
const branchWord = "branch "

// quote leaves single-line text as it is and quotes the rest (text with
// line breaks, quotes, leading or trailing blanks, or that is empty) as a Go
// string literal, so that each fact stays on one line.
func quote(s string) string {
	if s != "" && !strings.ContainsAny(s, "\n\r\"") && strings.TrimSpace(s) == s {
		return s
	}
	return strconv.Quote(s)
}

// Diff is a unified diff (3 lines of context, the format of diff -u) from
// the text of old to the text of new ([Plan.Text]) under the headers
// "--- old.File" and "+++ new.File", which name the files: the texts
// leave out their own "workflow FILE" line, which would always differ.
// It is "" when the plans read the same.
func Diff(old, new *Plan) string {
	if old == nil || new == nil {
		return ""
	}
	body := func(p *Plan) []byte {
		var b strings.Builder
		writePlan(&b, p, "", false)
		return []byte(b.String())
	}
	var b bytes.Buffer
	// Writing to a bytes.Buffer cannot fail.
	_ = source.WriteUnifiedDiff(&b, old.File, new.File, body(old), body(new))
	return b.String()
}
