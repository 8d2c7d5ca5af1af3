package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// ApprovalBypassable reports a gate that its own condition can skip while
// later side effects still run.
var ApprovalBypassable = &Analyzer{
	Name:     "approval-bypassable",
	Severity: source.Warning,
	Summary:  "an approval gate can be skipped by its condition, and later steps with side effects then run without approval",
	Doc: `A gate guards everything after it only because a rejection stops the run. A gate
step with a ` + "`when`" + `/` + "`condition`" + ` that is false is skipped: it stores ` + "`{skipped: true}`" + ` and the run
continues, so the later steps run without anyone approving them.

The rule reports such a gate when no later step tests it in its condition (for example
` + "`when: $confirm.approved`" + `) and a later step has side effects: a shell command that does more than
print (` + "`echo`" + `, ` + "`cat`" + `, ` + "`jq`" + `… are not side effects), a ` + "`workflow:`" + `, or a pipeline with a stage
that writes or acts (` + "`exec`" + `, ` + "`state.set`" + `, ` + "`openclaw.invoke`" + `, ` + "`gog.gmail.send`" + `…; filters,
formatters, reads and LLM calls are not side effects). A later step with exactly the same condition as the gate
is skipped with it and does not count, and the steps after a later unconditional gate are guarded
by that gate. When some later step already tests the gate, the author has
said which steps it guards, and the rule stays silent.`,
	Bad: `- id: confirm
  when: $plan.json.risky
  approval: "Apply the risky plan?"
- id: apply
  run: ./apply.sh`,
	Good: `- id: confirm
  when: $plan.json.risky
  approval: "Apply the risky plan?"
- id: apply
  when: "!$plan.json.risky || $confirm.approved"
  run: ./apply.sh`,
	Run: runApprovalBypassable,
}

func runApprovalBypassable(p *Pass) {
	top := p.Info.Top
	var tested map[string]int // id → the last top-level step whose condition names it
	var effects []int8        // per top-level step: 0 unknown, 1 side effects, 2 none
	for gi, g := range top {
		if !gateStep(g) || !g.HasGate() || g.ID == "" {
			continue
		}
		cf, skippable := condSkippable(g.Step)
		if !skippable {
			continue
		}
		if tested == nil {
			tested = map[string]int{}
			for i := range p.Info.Refs {
				rs := &p.Info.Refs[i]
				if r, ok := rs.Ref.(*ast.StepRef); ok && rs.Context == InCondition && rs.Step != nil {
					tested[r.ID] = max(tested[r.ID], rs.Step.Top)
				}
			}
			// Conditions that do not parse still show which gate they
			// were meant to test.
			for _, si := range p.Info.Steps {
				if f := condField(si.Step); f != nil {
					if c, ok := ast.Resolve(f.Value).(*ast.Condition); ok && c.Expr == nil {
						gateScanRefIDs(c.Scalar.Text, func(id string) { tested[id] = max(tested[id], si.Top) })
					}
				}
			}
			effects = make([]int8, len(top))
		}
		if last, ok := tested[g.ID]; ok && last > gi {
			continue
		}
		gateCond := gateCondText(cf)
		for j := gi + 1; j < len(top); j++ {
			if t := top[j]; gateStep(t) && t.HasGate() {
				if _, skip := condSkippable(t.Step); !skip {
					break // an unconditional gate guards what follows it
				}
			}
			if effects[j] == 0 {
				effects[j] = 2
				if gateSideEffects(p.Info.Commands, top[j]) {
					effects[j] = 1
				}
			}
			if effects[j] != 1 {
				continue
			}
			if gateCond != "" && gateCondText(condField(top[j].Step)) == gateCond {
				continue
			}
			name := top[j].ID
			if name == "" {
				name = "the next step"
			}
			d := p.Finding(ast.SpanOf(cf.Value), "gate %q can be skipped by its %q; %q then runs without approval. add when: \"$%s.approved\" to %q if the gate must always guard it",
				g.ID, cf.Name(), name, g.ID, name)
			d.Related = []source.Related{p.Related(top[j].Step.Anchor(), "this step has side effects and does not test the gate")}
			p.Report(d)
			break
		}
	}
}

// gateCondText is the trimmed text of a condition field, or "" when it is not
// a string.
func gateCondText(f *ast.Field) string {
	if f == nil {
		return ""
	}
	if s := ast.StringOf(ast.Resolve(f.Value)); s != nil {
		return strings.TrimSpace(s.Text)
	}
	return ""
}

// gateScanRefIDs calls fn with the id of every "$id." in a text.
func gateScanRefIDs(text string, fn func(id string)) {
	for i := 0; i < len(text); i++ {
		if text[i] != '$' {
			continue
		}
		j := i + 1
		for j < len(text) && parser.IsNameByte(text[j]) {
			j++
		}
		if j > i+1 && j < len(text) && text[j] == '.' {
			fn(text[i+1 : j])
		}
		i = j - 1
	}
}
