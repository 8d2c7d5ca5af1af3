package plan

import (
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/jsvalue"
)

// Notes of the dry-run text (the dash is an em dash, as in the reference).
const (
	noteOutputRefs    = "[contains step output refs \u2014 unknown at plan time]"
	noteOutputUnknown = "[output unknown at plan time]"
	noteDeferred      = "[command validation deferred \u2014 stage name depends on step output]"
	noteSkipped       = "[skipped \u2014 condition: false]"
)

// knownCommand reports whether name is a command of the reference's
// pipeline registry.
func knownCommand(name string) bool {
	_, ok := commands.Lookup(name)
	return ok
}

// DryRun is the text the reference's `lobster run --dry-run` prints on
// standard error for this plan, byte for byte: a
// header, then each top-level step with its details. Composed workflows
// are not expanded, as in the reference. The text ends with a newline.
// When the plan has Errors, the dry-run fails with the first, as the
// reference's does, and the text is "".
func (p *Plan) DryRun() (string, error) {
	if len(p.Errors) > 0 {
		return "", p.Errors[0]
	}
	var lines []string
	add := func(parts ...string) { lines = append(lines, strings.Join(parts, "")) }
	s := "s"
	if len(p.Steps) == 1 {
		s = ""
	}
	add("[DRY RUN] Would execute ", strconv.Itoa(len(p.Steps)), " step", s, ":\n")
	sc := newScope()
	for i, st := range p.Steps {
		n := strconv.Itoa(i + 1)
		head := "  " + n + ". " + st.ID + "  "
		switch {
		case st.falseAtPlan:
			add(head, noteSkipped)
		case st.Kind == Input:
			add(head, "[input]")
			prompt := ""
			if st.Input != nil {
				prompt = st.Input.Prompt
			}
			add("     prompt: ", prompt)
			add("     [input required]")
		case st.Kind == ForEach:
			add(head, "[for_each]")
			l := st.Loop
			add("     for_each: ", l.Expr, refNote(l.Expr))
			add("     item_var: ", l.ItemVar, ", index_var: ", l.IndexVar)
			if l.BatchSize != 0 {
				add("     batch_size: ", num(l.BatchSize))
			}
			if l.PauseMs != 0 {
				add("     pause_ms: ", num(l.PauseMs))
			}
			add("     sub-steps: ", strconv.Itoa(len(l.Steps)))
			inner := sc.loop(l)
			for k, sub := range l.Steps {
				subHead := "       " + strconv.Itoa(k+1) + ". " + sub.ID + "  "
				switch {
				case sub.falseAtPlan:
					add(subHead, noteSkipped)
				case sub.Kind == Shell:
					add(subHead, "[shell] run: ", inner.resolveApproved(sub.Command))
				case sub.Kind == Pipeline:
					add(subHead, "[pipeline] pipeline: ", inner.resolveApproved(sub.Command))
				default:
					add(subHead, "[no-op]")
				}
				inner.addSub(sub)
			}
			lines = append(lines, trailing(st)...)
		case st.Kind == Parallel:
			add(head, "[parallel]")
			par := st.Parallel
			add("     wait: ", par.Wait)
			if par.TimeoutMs != 0 {
				add("     timeout: ", num(par.TimeoutMs), "ms")
			}
			for _, b := range par.Branches {
				text := sc.resolveApproved(b.Command)
				switch b.Kind {
				case Pipeline:
					add("     branch ", b.ID, ": [pipeline] ", text, refNote(text))
				case Shell:
					add("     branch ", b.ID, ": [shell] ", text, refNote(text))
				default:
					add("     branch ", b.ID, ": [no-op]")
				}
			}
			lines = append(lines, trailing(st)...)
		case st.Kind == Workflow:
			add(head, "[workflow]")
			path := sc.resolveApproved(st.Workflow.Path)
			add("     workflow: ", path, refNote(path))
			if keys := objectKeys(st.Workflow.Args); len(keys) > 0 {
				add("     args: ", strings.Join(keys, ", "))
			}
			lines = append(lines, trailing(st)...)
		case st.Kind == Shell:
			add(head, "[shell]")
			text := sc.resolveApproved(st.Command)
			add("     run: ", text, refNote(text))
			lines = append(lines, trailing(st)...)
		case st.Kind == Pipeline:
			add(head, "[pipeline]")
			text := sc.resolveApproved(st.Command)
			add("     pipeline: ", text, refNote(text))
			if st.Deferred {
				add("     ", noteDeferred)
			}
			lines = append(lines, trailing(st)...)
		default:
			add(head, "[no-op]")
			lines = append(lines, trailing(st)...)
		}
		sc.add(st)
	}
	return strings.Join(lines, "\n") + "\n", nil
}

// trailing are the detail lines every executing step ends with.
func trailing(st *Step) []string {
	var lines []string
	if st.Stdin != nil && st.Stdin.Value == nil {
		text := strings.TrimSpace(st.Stdin.Text)
		switch {
		case isOutputRef(text):
			lines = append(lines, "     stdin: "+text+"  "+noteOutputUnknown)
		case hasOutputRef(text):
			lines = append(lines, "     stdin: "+text+"  "+noteOutputRefs)
		}
	}
	if st.TimeoutMs != 0 {
		lines = append(lines, "     timeout: "+num(st.TimeoutMs)+"ms")
	}
	if st.OnError == "continue" || st.OnError == "skip_rest" {
		lines = append(lines, "     on_error: "+st.OnError)
	}
	if r := st.Retry; r != nil && r.Max > 1 {
		jitter := ""
		if r.Jitter {
			jitter = ", jitter"
		}
		lines = append(lines, "     retry: up to "+num(r.Max)+" attempts, "+r.Backoff+" backoff (base: "+num(r.DelayMs)+"ms"+jitter+")")
	}
	if st.Approval != nil {
		lines = append(lines, "     [approval required]")
	}
	return lines
}

// refNote is the note for text that depends on step output, with its
// two-space separator, or "".
func refNote(text string) string {
	if hasOutputRef(text) {
		return "  " + noteOutputRefs
	}
	return ""
}

// objectKeys are the keys of a JSON object, in order.
func objectKeys(data []byte) []string {
	if len(data) == 0 {
		return nil
	}
	v, err := jsvalue.Parse(data)
	if err != nil {
		return nil
	}
	if o, ok := v.(*jsvalue.Object); ok {
		return o.Keys()
	}
	return nil
}

// num prints a number as JavaScript's String() does.
func num(f float64) string { return jsvalue.FormatNumber(f) }
