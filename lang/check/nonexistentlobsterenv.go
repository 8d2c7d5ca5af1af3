package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// NonexistentLobsterEnv reports reads of LOBSTER_* variables that the
// runtime never sets, and of loop variables as environment variables.
var NonexistentLobsterEnv = &Analyzer{
	Name:     "nonexistent-lobster-env",
	Severity: source.Error,
	Summary:  "shell text reads a LOBSTER_* variable (or a loop variable) that the runtime never sets",
	Doc: `The runtime sets exactly two kinds of variables for a step: LOBSTER_ARGS_JSON, and
LOBSTER_ARG_<N> for every resolved arg. There are no LOBSTER_STEP_* or LOBSTER_WORKFLOW_*
variables, no variables for step outputs, and none for loop items or indexes: a command that
reads one gets an empty value.

Reads are "$X", "${X}" and "${X:-…}" in run/command text, and accessors such as env.X (jq),
process.env.X, os.environ["X"] or getenv("X") anywhere in run, command or pipeline text.

- LOBSTER_STEP_*, LOBSTER_WORKFLOW_*, and "$item"/"$index" inside a for_each loop: error (always
  empty).
- LOBSTER_ARG_<N> where no declared arg maps to N: warning, because a caller may pass an
  undeclared arg or a parent workflow may have set it; a near declared name
  is suggested.
- Other LOBSTER_* names the runtime does not set: warning (they are set only if you export them).
  LOBSTER_STATE_DIR, which the runtime reads but does not pass on, is info. The other variables
  the runtime reads (LOBSTER_SHELL, LOBSTER_LLM_*, LOBSTER_APPROVAL_*, LOBSTER_CACHE_DIR…) are
  configuration you export, and are not reported.

A name that an env block visible to the step sets, that the script assigns itself, or that the
project's configuration declares the host sets (env:), is not reported. A read with a default ("${LOBSTER_ARG_X:-y}") expects the variable to be missing and is
reported only for LOBSTER_STEP_* and LOBSTER_WORKFLOW_*.`,
	Bad:  "steps:\n  - id: fetch\n    run: curl -s https://example.com\n  - id: save\n    run: echo \"$LOBSTER_STEP_FETCH_STDOUT\" > out.html",
	Good: "steps:\n  - id: fetch\n    run: curl -s https://example.com\n  - id: save\n    run: cat > out.html\n    stdin: $fetch.stdout",
	Fix:  "replace a misspelt LOBSTER_ARG_ name with the declared arg's variable",
	Run:  runNonexistentLobsterEnv,
}

// aeRuntimeReadEnv are the LOBSTER_* variables the runtime reads from the
// process or step environment: configuration a user
// exports, which a script may read as well.
var aeRuntimeReadEnv = map[string]bool{
	"LOBSTER_SHELL": true, "LOBSTER_STATE_DIR": true,
	"LOBSTER_APPROVAL_INITIATED_BY": true, "LOBSTER_APPROVAL_REQUIRED_APPROVER": true,
	"LOBSTER_APPROVAL_REQUIRE_DIFFERENT_APPROVER": true, "LOBSTER_APPROVAL_APPROVED_BY": true,
	"LOBSTER_APPROVAL_INPUT_TIMEOUT_MS": true, "LOBSTER_MAX_TOOL_ENVELOPE_BYTES": true,
	"LOBSTER_LLM_PRICING_JSON": true, "LOBSTER_LLM_PROVIDER": true, "LOBSTER_LLM_ADAPTER_URL": true,
	"LOBSTER_LLM_ADAPTER_TOKEN": true, "LOBSTER_PI_LLM_ADAPTER_URL": true, "LOBSTER_PI_LLM_ADAPTER_TOKEN": true,
	"LOBSTER_LLM_MODEL": true, "LOBSTER_CACHE_DIR": true, "LOBSTER_RUN_STATE_KEY": true,
	"LOBSTER_LLM_FORCE_REFRESH": true, "LOBSTER_LLM_VALIDATION_RETRIES": true, "LOBSTER_LLM_SCHEMA_VERSION": true,
	"LOBSTER_OPENCLAW_BIN": true,
}

// aeKnownLobsterNames is every LOBSTER_* name the runtime sets or reads, for
// did-you-mean.
var aeKnownLobsterNames = func() []string {
	names := []string{"LOBSTER_ARGS_JSON"}
	for n := range aeRuntimeReadEnv {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}()

// aeStepFieldSuffixes map the tail of an invented LOBSTER_STEP_<ID>_<FIELD>
// variable to the result field meant.
var aeStepFieldSuffixes = []struct{ suffix, field string }{
	{"_STDOUT", "stdout"}, {"_OUTPUT", "stdout"}, {"_RESULT", "stdout"}, {"_OUT", "stdout"},
	{"_JSON", "json"}, {"_APPROVED", "approved"}, {"_RESPONSE", "response"},
}

type aeLobsterEnvPass struct {
	p        *Pass
	seen     map[int]bool
	byVar    map[string]*ast.Field
	stepVars map[string]string // mangled step id → id
}

func runNonexistentLobsterEnv(p *Pass) {
	x := &aeLobsterEnvPass{p: p, seen: map[int]bool{}}
	for _, vs := range p.Info.Vars {
		v := vs.Var
		if strings.HasPrefix(v.Name, "LOBSTER_") {
			x.check(vs.Step, vs.Field, v.NameSpan, v.Name, v.Op)
			continue
		}
		if loop := aeLoopOf(vs.Step, v.Name); loop != nil && loop != vs.Step {
			x.loopVar(vs, loop)
		}
	}
	for i := range p.Info.Refs {
		rs := &p.Info.Refs[i]
		r, ok := rs.Ref.(*ast.ArgRef)
		if !ok || (rs.Context != InShell && rs.Context != InPipeline) || !strings.HasPrefix(r.Name, "LOBSTER_") {
			continue
		}
		if p.Info.ArgBy[r.Name] != nil {
			continue // an arg of that name: substituted
		}
		x.check(rs.Step, rs.Field, r.NameSpan, r.Name, "")
	}
	// Accessors in programs (jq env.X, process.env.X, os.environ["X"]…),
	// which the shell parser does not see inside quotes.
	for _, si := range p.Info.Steps {
		for _, f := range []*ast.Field{si.Step.Run, si.Step.Command, si.Step.Pipeline} {
			s := ast.StringOf(fieldValue(f))
			if s == nil || !strings.Contains(s.Text, "LOBSTER_") {
				continue
			}
			aeLobsterAccessors(s.Text, func(i, j int) {
				// ${NAME:-x} and friends: the operator decides.
				op := ""
				if i >= 2 && s.Text[i-2:i] == "${" && j < len(s.Text) {
					switch c := s.Text[j]; c {
					case ':':
						if j+1 < len(s.Text) {
							op = s.Text[j : j+2]
						}
					case '-', '=', '?', '+':
						op = string(c)
					}
				}
				if !x.fine(s.Text[i:j], op) {
					x.check(si, f, s.Map.Span(i, j), s.Text[i:j], op)
				}
			})
		}
	}
}

// aeLobsterAccessors finds the LOBSTER_* names of a text that are read:
// after "$", "${", or an environment accessor.
func aeLobsterAccessors(text string, fn func(i, j int)) {
	for i := 0; ; {
		k := strings.Index(text[i:], "LOBSTER_")
		if k < 0 {
			return
		}
		at := i + k
		end := aeIdentEnd(text, at)
		i = end
		if at > 0 && parser.IsWordByte(text[at-1]) {
			continue
		}
		before := text[max(0, at-24):at]
		read := strings.HasSuffix(before, "$") || strings.HasSuffix(before, "${") || strings.HasSuffix(before, "env.") ||
			strings.HasSuffix(before, "ENV.")
		if !read && len(before) > 0 && strings.ContainsRune("[('\"{", rune(before[len(before)-1])) {
			b := strings.TrimRight(before, "[('\"{ ")
			lower := strings.ToLower(b)
			read = strings.HasSuffix(lower, "env") || strings.HasSuffix(lower, "environ") || strings.HasSuffix(lower, "getenv") ||
				strings.HasSuffix(lower, "environ.get") || strings.HasSuffix(lower, "env.get") || strings.HasSuffix(lower, "env.fetch")
		}
		if read {
			fn(at, end)
		}
	}
}

// fine reports whether a read is certainly not reported: the common case,
// decided before the costlier checks.
func (x *aeLobsterEnvPass) fine(name, op string) bool {
	defaulted := aeDefaultOp(op)
	if name == "LOBSTER_ARGS_JSON" {
		return true
	}
	if n, ok := strings.CutPrefix(name, "LOBSTER_ARG_"); ok {
		if x.byVar == nil {
			x.byVar = aeArgByVar(x.p.Info)
		}
		return n == "" || x.byVar[n] != nil || defaulted || op == ":?" || op == "?"
	}
	return defaulted && !strings.HasPrefix(name, "LOBSTER_STEP") && !strings.HasPrefix(name, "LOBSTER_WORKFLOW") ||
		aeRuntimeReadEnv[name] && name != "LOBSTER_STATE_DIR"
}

// aeDefaultOp reports whether a shell expansion operator supplies a value
// for an unset variable.
func aeDefaultOp(op string) bool {
	return op == ":-" || op == "-" || op == ":=" || op == "=" || op == ":+" || op == "+"
}

func (x *aeLobsterEnvPass) check(si *StepInfo, f *ast.Field, span source.Span, name, op string) {
	p := x.p
	if x.fine(name, op) {
		return
	}
	defaulted := aeDefaultOp(op)
	if x.seen[span.Start] {
		return
	}
	x.seen[span.Start] = true
	if aeEnvSets(p.Info, si, name) || aeAssigns(aeShellText(f), name) || p.Options.envDeclared(name) {
		return // set by an env block, the script, or the host (Options.Env)
	}
	switch {
	case strings.HasPrefix(name, "LOBSTER_STEP_") || name == "LOBSTER_STEP" || strings.HasPrefix(name, "LOBSTER_WORKFLOW_") || name == "LOBSTER_WORKFLOW":
		kind := "LOBSTER_STEP_*"
		if strings.HasPrefix(name, "LOBSTER_WORKFLOW") {
			kind = "LOBSTER_WORKFLOW_*"
		}
		msg := fmt.Sprintf("the runtime never sets %s (there are no %s variables), so it is always empty", name, kind)
		if id, field := x.stepOf(name); id != "" {
			msg += fmt.Sprintf("; pass the output of step %q with stdin: $%s.%s, or set the variable yourself: env: {%s: \"$%s.%s\"}", id, id, field, name, id, field)
		} else if kind == "LOBSTER_STEP_*" {
			msg += "; read step results with stdin: $<id>.stdout, or map them in env: {NAME: \"$<id>.json\"}"
		}
		p.Reportf(span, "%s", msg)
	case strings.HasPrefix(name, "LOBSTER_ARG_"):
		n := name[len("LOBSTER_ARG_"):]
		d := p.Finding(span, "no declared arg maps to %s; it is set only if the caller passes such an arg, and is empty otherwise", name)
		d.Severity = source.Warning
		if near, arg := x.suggestArgVar(name); near != "" {
			if arg != "" {
				d.Message += fmt.Sprintf("; did you mean %s (arg %q)?", near, arg)
			} else {
				d.Message += fmt.Sprintf("; did you mean %s?", near)
			}
			d.Fixes = []source.Fix{{Message: "Change to " + near, Edits: []source.Edit{p.Edit(span, near)}}}
		} else {
			d.Message += fmt.Sprintf("; declare the arg (args: {%s: {default: \"\"}})", strings.ToLower(n))
		}
		p.Report(d)
	case name == "LOBSTER_STATE_DIR":
		if defaulted {
			return
		}
		d := p.Finding(span, "the runtime reads LOBSTER_STATE_DIR from its own environment but does not set it for steps; it is empty here unless you export it")
		d.Severity = source.Info
		p.Report(d)
	default:
		d := p.Finding(span, "the runtime never sets %s; it is empty unless you export it yourself", name)
		d.Severity = source.Warning
		if near := Suggest(name, aeKnownLobsterNames); near != "" {
			d.Message += fmt.Sprintf("; did you mean %s?", near)
			d.Fixes = []source.Fix{{Message: "Change to " + near, Edits: []source.Edit{p.Edit(span, near)}}}
		}
		p.Report(d)
	}
}

// suggestArgVar proposes a declared arg's variable (or LOBSTER_ARGS_JSON)
// close to an unknown LOBSTER_ARG_ name.
func (x *aeLobsterEnvPass) suggestArgVar(name string) (string, string) {
	n := name[len("LOBSTER_ARG_"):]
	if fd := x.byVar[ArgEnvName(n)]; fd != nil {
		return "LOBSTER_ARG_" + ArgEnvName(n), fd.Name()
	}
	cands := make([]string, 0, len(x.byVar)+1)
	for m := range x.byVar {
		cands = append(cands, "LOBSTER_ARG_"+m)
	}
	sort.Strings(cands)
	cands = append(cands, "LOBSTER_ARGS_JSON")
	near := Suggest(name, cands)
	if near == "" || near == "LOBSTER_ARGS_JSON" {
		return near, ""
	}
	return near, x.byVar[near[len("LOBSTER_ARG_"):]].Name()
}

// stepOf finds the step (and result field) an invented
// LOBSTER_STEP_<ID>_<FIELD> variable means.
func (x *aeLobsterEnvPass) stepOf(name string) (string, string) {
	rest, ok := strings.CutPrefix(name, "LOBSTER_STEP_")
	if !ok {
		return "", ""
	}
	if x.stepVars == nil {
		x.stepVars = map[string]string{}
		for _, si := range x.p.Info.Steps {
			if si.ID == "" {
				continue
			}
			if m := ArgEnvName(si.ID); m != "" {
				if _, dup := x.stepVars[m]; !dup {
					x.stepVars[m] = si.ID
				}
			}
		}
	}
	for _, s := range aeStepFieldSuffixes {
		if id, ok := strings.CutSuffix(rest, s.suffix); ok {
			if step := x.stepVars[id]; step != "" {
				return step, s.field
			}
		}
	}
	if step := x.stepVars[rest]; step != "" {
		return step, "stdout"
	}
	return "", ""
}

// loopVar reports "$item" or "$index" read as an environment variable in a
// for_each sub-step.
func (x *aeLobsterEnvPass) loopVar(vs VarSite, loop *StepInfo) {
	p := x.p
	v := vs.Var
	if x.seen[v.NameSpan.Start] || aeEnvSets(p.Info, vs.Step, v.Name) || aeAssigns(aeShellText(vs.Field), v.Name) {
		return
	}
	x.seen[v.NameSpan.Start] = true
	field := "json"
	if v.Name == loop.ItemVar {
		field = "stdout"
	}
	up := ArgEnvName(v.Name)
	if up == "" {
		up = "VALUE"
	}
	d := p.Finding(ast.SpanOf(v), "%q is always empty: the loop variable %q of %q is not an environment variable; map it in env: {%s: \"$%s.%s\"} and read \"$%s\"",
		p.Text(ast.SpanOf(v)), v.Name, loop.ID, up, v.Name, field, up)
	d.Related = []source.Related{p.Related(ast.SpanOf(loop.Step.ForEach.Key), "the loop is here")}
	p.Report(d)
}
