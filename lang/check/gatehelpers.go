package check

import (
	"iter"
	"slices"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/source"
	"mvdan.cc/sh/v3/syntax"
)

// Helpers shared by the approval and input rules.

// gateStep reports whether a step is a top-level, non-loop step whose
// approval the runtime reads (branches and sub-steps never reach a gate; a
// loop's approval is rejected at load).
func gateStep(si *StepInfo) bool {
	return si.Parent == nil && si.Step.Context == ast.TopStep && si.Step.Approval != nil && !si.IsLoop()
}

// promptTexts yields the string fields of every step's gates that are
// shown to a person as written, with their step: the approval (its string
// form), its prompt and preview, and an input's prompt.
func promptTexts(info *Info) iter.Seq2[*StepInfo, *ast.Scalar] {
	return func(yield func(*StepInfo, *ast.Scalar) bool) {
		for _, si := range info.Steps {
			s := si.Step
			var fields []*ast.Field
			if s.Approval != nil {
				fields = append(fields, s.Approval)
				if a := gateApproval(s); a != nil {
					fields = append(fields, a.Prompt, a.Preview)
				}
			}
			if s.Input != nil {
				if in, ok := ast.Resolve(s.Input.Value).(*ast.Input); ok {
					fields = append(fields, in.Prompt)
				}
			}
			for _, f := range fields {
				if f == nil {
					continue
				}
				if sc := ast.StringOf(ast.Resolve(f.Value)); sc != nil && !yield(si, sc) {
					return
				}
			}
		}
	}
}

// gateApproval is a step's approval mapping, or nil for the other forms.
func gateApproval(s *ast.Step) *ast.Approval {
	if s.Approval == nil {
		return nil
	}
	a, _ := ast.Resolve(s.Approval.Value).(*ast.Approval)
	return a
}

// gateApprovals yields the gate steps (see gateStep) whose approval is a
// mapping, with that mapping.
func gateApprovals(info *Info) iter.Seq2[*StepInfo, *ast.Approval] {
	return func(yield func(*StepInfo, *ast.Approval) bool) {
		for _, si := range info.Steps {
			if !gateStep(si) {
				continue
			}
			if a := gateApproval(si.Step); a != nil && !yield(si, a) {
				return
			}
		}
	}
}

// gatePick is the spelling of an identity key the runtime uses: camelCase
// wins when both are given.
func gatePick(snake, camel *ast.Field) *ast.Field {
	if camel != nil {
		return camel
	}
	return snake
}

// gateTrue reports whether a field is the boolean true.
func gateTrue(f *ast.Field) bool {
	if f == nil {
		return false
	}
	s, ok := ast.Resolve(f.Value).(*ast.Scalar)
	return ok && s.Kind == ast.Bool && s.Bool
}

// gateTextLabel is a short label of a command for messages: its first
// non-blank line, cut to 40 characters.
func gateTextLabel(text string) string {
	text = strings.TrimSpace(text)
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = strings.TrimSpace(text[:i]) + " …"
	}
	if r := []rune(text); len(r) > 40 {
		text = string(r[:39]) + "…"
	}
	return text
}

// gateReadOnlyCommands only print, read or reformat data: a command made of
// them shows what is being approved and changes nothing.
var gateReadOnlyCommands = map[string]bool{
	"echo": true, "printf": true, "cat": true, "jq": true, "head": true, "tail": true, "tr": true,
	"cut": true, "sort": true, "uniq": true, "wc": true, "column": true, "fold": true, "fmt": true,
	"grep": true, "egrep": true, "fgrep": true, "sed": true, "awk": true, "nl": true, "rev": true,
	"date": true, "true": true, "false": true, ":": true, "test": true, "[": true, "basename": true,
	"dirname": true, "seq": true, "ls": true, "pwd": true, "base64": true, "diff": true, "realpath": true,
	"read": true, "exit": true, "return": true, "printenv": true, "stat": true, "file": true,
}

// gateShellReadOnly reports whether a shell text only prints or reads: every
// command is in gateReadOnlyCommands (sed without -i), and output goes
// nowhere but stdout, stderr or /dev/null. Text that does not parse is not
// read-only.
func gateShellReadOnly(text string) bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(text), "")
	if err != nil {
		return false
	}
	ok := true
	syntax.Walk(f, func(n syntax.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				return true // assignments only
			}
			name := n.Args[0].Lit()
			if !gateReadOnlyCommands[name] {
				ok = false
				return false
			}
			if name == "sed" || name == "awk" {
				for _, a := range n.Args[1:] {
					if lit := a.Lit(); strings.HasPrefix(lit, "-i") || strings.Contains(lit, "system(") {
						ok = false
						return false
					}
				}
			}
		case *syntax.Redirect:
			switch n.Op {
			case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob:
				if n.Word == nil || n.Word.Lit() != "/dev/null" {
					ok = false
					return false
				}
			}
		case *syntax.FuncDecl, *syntax.CoprocClause:
			ok = false
			return false
		}
		return true
	})
	return ok
}

// gateReadOnlyPipeline reports whether every stage of a pipeline only
// computes, reads or asks a model: its command's side-effect class
// (lang/commands) is none or read, or it calls an LLM.
func gateReadOnlyPipeline(reg *commands.Registry, pl *ast.Pipeline) bool {
	if pl == nil || pl.Err != nil || len(pl.Stages) == 0 {
		return false
	}
	for _, st := range pl.Stages {
		if st.Name == nil {
			return false
		}
		cmd, ok := reg.Lookup(st.Name.Text)
		if !ok {
			return false
		}
		if cmd.Effect > commands.Read && !slices.Contains(cmd.EffectTags, "calls_llm") {
			return false
		}
	}
	return true
}

// gateReadOnlyExec reports whether a step's execution only prints, reads or
// computes (a read-only shell text or a pipeline of pure stages).
func gateReadOnlyExec(reg *commands.Registry, f *ast.Field) bool {
	switch v := f.Value.(type) {
	case *ast.Shell:
		return gateShellReadOnly(v.Scalar.Text)
	case *ast.Pipeline:
		return gateReadOnlyPipeline(reg, v)
	}
	return false
}

// gateSideEffects reports whether a top-level step (with its branches or
// sub-steps) may change something: a shell text that is not read-only, a
// workflow, or a pipeline with a stage that is not pure.
func gateSideEffects(reg *commands.Registry, si *StepInfo) bool {
	s := si.Step
	if si.IsLoop() || s.Parallel != nil {
		for _, c := range si.Children {
			if gateSideEffects(reg, c) {
				return true
			}
		}
		return false
	}
	f := executes(s) // branches and sub-steps: run, command or pipeline
	if f == nil {
		return false // approval-only and input steps
	}
	if f == s.Workflow {
		return true
	}
	return !gateReadOnlyExec(reg, f)
}

// gateDeleteLine is an edit that deletes a field standing alone on its
// lines (block style), with its line break; false for a field that shares a
// line with other keys (a flow mapping).
func gateDeleteLine(p *Pass, f *ast.Field) (source.Edit, bool) {
	src := p.File.Src
	start, end := f.Pos(), f.End()
	ls := src.LineStart(src.Pos(start).Line)
	if strings.TrimSpace(src.TextOf(source.Span{Start: ls, End: start})) != "" {
		return source.Edit{}, false
	}
	next := src.LineStart(src.Pos(max(end-1, start)).Line + 1)
	if next < end {
		next = end
	}
	if t := strings.TrimSpace(src.TextOf(source.Span{Start: end, End: next})); t != "" && !strings.HasPrefix(t, "#") {
		return source.Edit{}, false
	}
	return p.Edit(source.Span{Start: ls, End: next}, ""), true
}

// gatePreparesRequest reports whether a shell text looks like it prepares
// the approval request: it mentions requiresApproval, or has a word such as
// "approve", "plan" or "--dry-run".
func gatePreparesRequest(f *ast.Field) bool {
	sh, ok := f.Value.(*ast.Shell)
	if !ok {
		return false
	}
	text := sh.Scalar.Text
	if strings.Contains(text, "requiresApproval") {
		return true
	}
	for _, w := range strings.Fields(text) {
		if gatePrepWords[strings.Trim(w, "\"';")] {
			return true
		}
	}
	return false
}

// gatePrepWords are words of a command that builds the approval request or
// a preview rather than acting: "workctl approve --prompt …", "terraform plan".
var gatePrepWords = map[string]bool{
	"approve": true, "approval": true, "preview": true, "plan": true,
	"--prompt": true, "--preview": true, "--dry-run": true, "--dryrun": true,
}
