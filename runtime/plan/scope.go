package plan

import (
	"maps"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/render"
)

// scope holds the placeholder results a step is planned against (the
// package comment lists them). Build uses it for conditions and strict
// references; the dry-run text replays it to resolve $id.approved, so both
// read the same placeholders.
type scope struct {
	results render.Results
}

func newScope() *scope { return &scope{results: render.Results{}} }

// add records the placeholder of a planned top-level step (and of its
// branches, which later steps can name).
func (s *scope) add(st *Step) {
	s.results[st.ID] = placeholder(st)
	if !st.falseAtPlan && st.Parallel != nil {
		for _, b := range st.Parallel.Branches {
			s.results[b.ID] = jsvalue.Obj("id", b.ID)
		}
	}
}

// addSub records the placeholder of a planned loop sub-step.
func (s *scope) addSub(st *Step) { s.results[st.ID] = placeholder(st) }

// loop is the scope of one iteration of l: the results so far, then the
// loop variables.
func (s *scope) loop(l *Loop) *scope {
	inner := &scope{results: maps.Clone(s.results)}
	inner.results[l.ItemVar] = jsvalue.Obj("json", jsvalue.Obj("_placeholder", true))
	inner.results[l.IndexVar] = jsvalue.Obj("json", 0.0)
	return inner
}

// placeholder is a planned step's result at plan time.
func placeholder(st *Step) *jsvalue.Object {
	switch {
	case st.falseAtPlan:
		return jsvalue.Obj("id", st.ID, "skipped", true)
	case st.Kind == Input:
		return jsvalue.Obj("id", st.ID, "response", jsvalue.Obj("pending", true))
	case st.Approval != nil:
		return jsvalue.Obj("id", st.ID, "approved", true)
	}
	return jsvalue.Obj("id", st.ID)
}

// resolveApproved replaces each "$id.approved" whose id has a placeholder
// with "true" or "false", as the reference's dry-run does: the text after
// "approved" stays ("$g.approvedx" becomes "truex"), every other reference
// stays as written.
func (s *scope) resolveApproved(text string) string {
	const suffix = ".approved"
	var out []byte
	last := 0
	for i := 0; i < len(text); i++ {
		if text[i] != '$' {
			continue
		}
		j := i + 1
		for j < len(text) && parser.IsNameByte(text[j]) {
			j++
		}
		if j == i+1 || len(text)-j < len(suffix) || text[j:j+len(suffix)] != suffix {
			continue
		}
		record, ok := s.results[text[i+1:j]]
		if !ok {
			continue
		}
		v, _ := record.Get("approved")
		value := "false"
		if v == true {
			value = "true"
		}
		out = append(out, text[last:i]...)
		out = append(out, value...)
		last = j + len(suffix)
		i = last - 1
	}
	if out == nil {
		return text
	}
	return string(append(out, text[last:]...))
}

// hasOutputRef reports whether text holds a reference to a step's output,
// "$id.stdout…" or "$id.json…", which a plan cannot know.
func hasOutputRef(text string) bool {
	for i := 0; i < len(text); i++ {
		if text[i] != '$' {
			continue
		}
		j := i + 1
		for j < len(text) && parser.IsNameByte(text[j]) {
			j++
		}
		if j > i+1 && j < len(text) && text[j] == '.' {
			rest := text[j+1:]
			if hasPrefix(rest, "stdout") || hasPrefix(rest, "json") {
				return true
			}
		}
	}
	return false
}

// isOutputRef reports whether text (trimmed) is exactly "$id.stdout" or
// "$id.json".
func isOutputRef(text string) bool {
	if len(text) < 2 || text[0] != '$' {
		return false
	}
	j := 1
	for j < len(text) && parser.IsNameByte(text[j]) {
		j++
	}
	if j == 1 || j >= len(text) || text[j] != '.' {
		return false
	}
	rest := text[j+1:]
	return rest == "stdout" || rest == "json"
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }
