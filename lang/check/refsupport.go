package check

import (
	"sort"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file holds helpers shared by the reference rules:
// what a reference's id names, what a step kind sets in its result, the
// decoded text around a reference, and which steps a condition mentions.

// refTarget resolves the id of a step reference site and reports whether it
// names a step (not a loop variable) whose result the reference reads: every
// resolution but Unknown. Loop variables have their own record ({json,
// stdout}) and are told apart by res.LoopVar.
func refTarget(in *Info, rs *RefSite, id string) (Resolution, bool) {
	res := in.ResolveSite(rs, id)
	if res.Visibility == Unknown || res.Target == nil {
		return res, false
	}
	return res, true
}

// forEachResolvedStepRef calls f for the step reference sites of the file with their resolution,
// skipping unknown ids and cwd (where nothing is substituted). A rule passes
// a cheap filter (or nil) so that only the references it may report are
// resolved.
func forEachResolvedStepRef(in *Info, want func(rs *RefSite, r *ast.StepRef) bool, f func(rs *RefSite, r *ast.StepRef, res Resolution)) {
	for i := range in.Refs {
		rs := &in.Refs[i]
		r, ok := rs.Ref.(*ast.StepRef)
		if !ok || rs.Context == InCwd || len(r.Path) == 0 || want != nil && !want(rs, r) {
			continue
		}
		res, ok := refTarget(in, rs, r.ID)
		if !ok || res.LoopVar && res.Visibility != Visible {
			continue // out-of-scope-ref reports loop variables outside their loop
		}
		f(rs, r, res)
	}
}

// refHasExecution reports whether a step has an execution field:
// run/command, pipeline, workflow, parallel or for_each.
func refHasExecution(s *ast.Step) bool {
	return s.Run != nil || s.Command != nil || s.Pipeline != nil || s.Workflow != nil || s.Parallel != nil || s.ForEach != nil
}

// refIsNoneStep reports whether a step runs nothing of its own: an approval-only
// step, whose result is synthesised from its stdin.
func refIsNoneStep(si *StepInfo) bool {
	return !refHasExecution(si.Step) && si.Step.Input == nil
}

// refHasStdin reports whether a step has a stdin that is not null.
func refHasStdin(s *ast.Step) bool {
	if s.Stdin == nil {
		return false
	}
	if sc, ok := ast.Resolve(s.Stdin.Value).(*ast.Scalar); ok && sc.Kind == ast.Null {
		return false
	}
	return true
}

// refOnErrorPolicy is the step's on_error value when it is a string, else "".
func refOnErrorPolicy(s *ast.Step) string {
	if s.OnError == nil {
		return ""
	}
	if sc, ok := ast.Resolve(s.OnError.Value).(*ast.Scalar); ok && sc.Kind == ast.String {
		return sc.Text
	}
	return ""
}

// refOnErrorIgnoredKind says why on_error does not apply to a step (loop
// sub-steps, input steps and parallel branches ignore it; 2026.9.13 applies
// it to a for_each loop itself, which its documentation says ignores it),
// or "".
func refOnErrorIgnoredKind(si *StepInfo) string {
	switch {
	case si.Step.Context == ast.BranchStep:
		return "a parallel branch"
	case si.Step.Context == ast.SubStep:
		return "a for_each sub-step"
	case si.Step.Input != nil:
		return "an input step"
	}
	return ""
}

// refCanStoreError reports whether a failure of the step can be stored as
// {error, errorMessage} (on_error: continue or skip_rest, where it applies).
func refCanStoreError(si *StepInfo) bool {
	switch refOnErrorPolicy(si.Step) {
	case "continue", "skip_rest":
		return refOnErrorIgnoredKind(si) == ""
	}
	return false
}

// refIsGate reports whether a step's approval gate is read: a top-level
// step with a gate value (branches never read approval).
func refIsGate(si *StepInfo) bool {
	return si.Step.Context == ast.TopStep && si.HasGate()
}

// refFieldScalar is the scalar a reference-bearing field value was built from.
func refFieldScalar(f *ast.Field) *ast.Scalar {
	if f == nil {
		return nil
	}
	return ast.ScalarOf(f.Value)
}

// refDecodedOffset maps a source offset that starts or ends a token of the
// scalar back to its decoded offset, or -1.
func refDecodedOffset(s *ast.Scalar, src int) int {
	m := &s.Map
	if m.Segs == nil {
		d := src - m.Start(0)
		if d < 0 || d > len(s.Text) {
			return -1
		}
		return d
	}
	segs := m.Segs
	k := sort.Search(len(segs), func(k int) bool { return segs[k].Src+segs[k].SrcLen >= src })
	for ; k < len(segs); k++ {
		sg := segs[k]
		if src < sg.Src {
			return -1
		}
		if sg.Verbatim && src <= sg.Src+sg.SrcLen {
			return sg.Dec + src - sg.Src
		}
		if src == sg.Src {
			return sg.Dec
		}
		if src == sg.Src+sg.SrcLen {
			return sg.Dec + sg.DecLen
		}
	}
	return -1
}

// refTextAfter is the decoded text of the site's string after the reference,
// and the decoded offset where it starts; ok is false when it cannot be told.
func refTextAfter(rs *RefSite) (s *ast.Scalar, rest string, at int, ok bool) {
	s = refFieldScalar(rs.Field)
	if s == nil || s.Kind != ast.String {
		return nil, "", 0, false
	}
	at = refDecodedOffset(s, rs.Ref.End())
	if at < 0 || at > len(s.Text) {
		return nil, "", 0, false
	}
	return s, s.Text[at:], at, true
}

// refExprMentions reports whether a condition expression holds a reference to id.
func refExprMentions(e ast.Expr, id string) bool {
	switch e := e.(type) {
	case *ast.StepRef:
		return e.ID == id
	case *ast.BinaryExpr:
		return refExprMentions(e.X, id) || refExprMentions(e.Y, id)
	case *ast.UnaryExpr:
		return refExprMentions(e.X, id)
	case *ast.ParenExpr:
		return refExprMentions(e.X, id)
	}
	return false
}

// refStepCondition is the condition the runtime evaluates for a step: when wins
// over condition. It is nil for an absent or non-string one.
func refStepCondition(s *ast.Step) *ast.Condition {
	f := s.When
	if f == nil {
		f = s.Condition
	}
	if f == nil {
		return nil
	}
	c, _ := f.Value.(*ast.Condition)
	return c
}

// refIsConditional reports whether a step may be skipped: it has a string
// condition that is not the literal true. Branch conditions are ignored.
func refIsConditional(si *StepInfo) (*ast.Condition, bool) {
	if si.Step.Context == ast.BranchStep {
		return nil, false
	}
	c := refStepCondition(si.Step)
	if c == nil || c.Expr == nil {
		return nil, false
	}
	if lit, ok := c.Expr.(*ast.Literal); ok && lit.Kind == ast.LitTrue {
		return nil, false
	}
	return c, true
}

// refGuardedBy reports whether the condition of the step holding a site, or of
// a step enclosing it (the loop of a sub-step, the parallel step of a
// branch), mentions one of ids: the author handles the case there.
func refGuardedBy(site *StepInfo, ids ...string) bool {
	for s := site; s != nil; s = s.Parent {
		c := refStepCondition(s.Step)
		if c == nil || c.Expr == nil || s.Step.Context == ast.BranchStep {
			continue
		}
		for _, id := range ids {
			if refExprMentions(c.Expr, id) {
				return true
			}
		}
	}
	return false
}

// refIsNegated reports whether a condition reference stands under a "!".
func refIsNegated(rs *RefSite) bool {
	c, ok := rs.Field.Value.(*ast.Condition)
	if !ok || c.Expr == nil {
		return false
	}
	return refNegatedIn(c.Expr, rs.Ref, false)
}

func refNegatedIn(e ast.Expr, ref ast.Ref, neg bool) bool {
	switch e := e.(type) {
	case *ast.StepRef:
		return neg && ast.Ref(e) == ref
	case *ast.BinaryExpr:
		// A comparison operand is not a truth test.
		if e.Op != "&&" && e.Op != "||" {
			neg = false
		}
		return refNegatedIn(e.X, ref, neg) || refNegatedIn(e.Y, ref, neg)
	case *ast.UnaryExpr:
		return refNegatedIn(e.X, ref, !neg)
	case *ast.ParenExpr:
		return refNegatedIn(e.X, ref, neg)
	}
	return false
}

// refIDSpan is the span of a step's id value, for related information.
func refIDSpan(si *StepInfo) (source.Span, bool) {
	if si == nil || si.Step.ID == nil {
		return source.Span{}, false
	}
	return ast.SpanOf(si.Step.ID.Value), true
}

// refTested is a set of (step, id) pairs: the step holds a reference to the
// id's result field of interest somewhere in its fields (a shell test such
// as `[ "$render.skipped" = true ]` counts as handling the case).
type refTested map[refTestedKey]bool

type refTestedKey struct {
	site *StepInfo
	id   string
}

// refStepsTesting collects, over every reference of the file, the steps that
// read $id.<one of fields> (for any id), with their enclosing steps.
func refStepsTesting(in *Info, fields ...string) refTested {
	var set refTested
	for i := range in.Refs {
		rs := &in.Refs[i]
		r, ok := rs.Ref.(*ast.StepRef)
		if !ok || rs.Step == nil || len(r.Path) == 0 {
			continue
		}
		for _, f := range fields {
			if r.Path[0].Name == f {
				if set == nil {
					set = refTested{}
				}
				set[refTestedKey{rs.Step, r.ID}] = true
			}
		}
	}
	return set
}

// has reports whether site (or a step enclosing it) reads one of the ids.
func (t refTested) has(site *StepInfo, ids ...string) bool {
	if t == nil {
		return false
	}
	for s := site; s != nil; s = s.Parent {
		for _, id := range ids {
			if t[refTestedKey{s, id}] {
				return true
			}
		}
	}
	return false
}

// wellKnownEnv are environment variables a shell script commonly reads;
// "$HOME.json" in shell text is far more likely one of them than a step.
var wellKnownEnv = map[string]bool{
	"HOME": true, "PATH": true, "USER": true, "PWD": true, "OLDPWD": true, "SHELL": true, "TMPDIR": true,
	"TMP": true, "TEMP": true, "LANG": true, "LC_ALL": true, "TERM": true, "HOSTNAME": true, "LOGNAME": true,
	"EDITOR": true, "CI": true, "GITHUB_WORKSPACE": true, "XDG_CONFIG_HOME": true, "XDG_CACHE_HOME": true,
}

// refIsStructuredField reports whether a result field holds JSON that a path
// can walk into.
func refIsStructuredField(name string) bool {
	return name == "json" || name == "response" || name == "subject"
}

// loopVarFields are the fields of a loop variable's record.
func refIsLoopVarField(name string) bool { return name == "json" || name == "stdout" }

// refUndefinedEffect says what an undefined reference gives where it stands.
// A reference to a step that has no result yet where it stands (a later
// step, a sub-step outside its loop) is left in the text as written, and
// forward-step-ref or out-of-scope-ref report that; the field itself is then
// simply never set.
func refUndefinedEffect(rs *RefSite, res Resolution) string {
	if v := res.Visibility; v != Visible && v != WorkflowLevel {
		return "is never set"
	}
	switch rs.Context {
	case InCondition:
		return "is always undefined in the condition (a false test)"
	case InWhole:
		if rs.Field != nil && rs.Field.Name() == "for_each" {
			return "is always undefined and the loop fails with \"expected array, got undefined\""
		}
		return "is always undefined and stdin gets no input"
	}
	return "always renders as an empty string"
}

func refIsFileExtension(name string) bool { return refFileExtensions[name] }

// refFileExtensions are suffixes that read as a file extension, not a key.
var refFileExtensions = map[string]bool{
	"gz": true, "bak": true, "txt": true, "tmp": true, "log": true, "md": true, "tgz": true, "zip": true,
	"tar": true, "csv": true, "tsv": true, "yaml": true, "yml": true, "jsonl": true, "png": true, "jpg": true,
	"jpeg": true, "pdf": true, "html": true, "xml": true, "sh": true, "py": true, "orig": true, "patch": true,
	"lobster": true, "bz2": true, "xz": true, "zst": true,
}
