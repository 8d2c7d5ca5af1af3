package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file holds what the loop and policy rules share: finding model calls
// in a step (llm-step-without-timeout, cost-limit-without-llm,
// cost-limit-unpriced-model), reading scalars, and the execution kind of a
// step.

// polIsLLMStage reports whether a pipeline stage calls a model: llm.invoke,
// llm_task.invoke, openclaw.agent, or email.triage in its
// --llm mode.
func polIsLLMStage(st *ast.Stage) bool {
	if st == nil || st.Name == nil {
		return false
	}
	switch st.Name.Text {
	case "llm.invoke", "llm_task.invoke", "openclaw.agent":
		return true
	case "email.triage":
		f := polStageFlag(st, "llm")
		return f != nil && (f.Value == nil || !polIsFalseWord(f.Value.Text))
	}
	return false
}

func polIsFalseWord(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "false", "0", "no", "":
		return true
	}
	return false
}

// polStageFlag is the last flag of a stage with one of the names, or nil.
func polStageFlag(st *ast.Stage, names ...string) *ast.Flag {
	var found *ast.Flag
	for _, a := range st.Args {
		f, ok := a.(*ast.Flag)
		if !ok {
			continue
		}
		for _, n := range names {
			if f.Name == n {
				found = f
			}
		}
	}
	return found
}

// polStages is the parsed stages of a step's pipeline, or nil.
func polStages(s *ast.Step) []*ast.Stage {
	if s.Pipeline == nil {
		return nil
	}
	if pl, ok := s.Pipeline.Value.(*ast.Pipeline); ok {
		return pl.Stages
	}
	return nil
}

// polShell is the shell text the step runs: run, else command, or nil.
func polShell(s *ast.Step) *ast.Shell {
	if s.Run != nil {
		if sh, ok := s.Run.Value.(*ast.Shell); ok {
			return sh
		}
	}
	if s.Command != nil {
		if sh, ok := s.Command.Value.(*ast.Shell); ok {
			return sh
		}
	}
	return nil
}

// polShellLLMPattern finds a model call in shell text: a pipeline command run
// through the lobster CLI or a shim ("lobster 'llm.invoke …'"), the
// llm-task tool through the openclaw.invoke / clawd.invoke shim, or the
// OpenClaw agent CLI.
var polShellLLMPattern = lazyRE(`\b(?:llm\.invoke|llm_task\.invoke|openclaw\.agent)\b|\b(?:openclaw|clawd)\.invoke\b[^|;&\n]*?--tool(?:=|\s+)['"]?llm-task\b|\bopenclaw\s+agent\b`)

// polShellLLMCall finds the first model call in shell text, outside comment
// lines, and returns its decoded offsets.
func polShellLLMCall(sh *ast.Shell) (i, j int, ok bool) {
	text := sh.Scalar.Text
	if !strings.Contains(text, "llm") && !strings.Contains(text, "agent") {
		return 0, 0, false
	}
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		line := text[start:end]
		if !strings.HasPrefix(strings.TrimLeft(line, " \t"), "#") {
			if m := polShellLLMPattern().FindStringIndex(line); m != nil {
				return start + m[0], start + m[1], true
			}
		}
		start = end + 1
	}
	return 0, 0, false
}

// polIsLLMTaskInvoke reports whether a stage calls the llm-task tool through
// openclaw.invoke or clawd.invoke.
func polIsLLMTaskInvoke(st *ast.Stage) bool {
	if st == nil || st.Name == nil || st.Name.Text != "openclaw.invoke" && st.Name.Text != "clawd.invoke" {
		return false
	}
	f := polStageFlag(st, "tool")
	return f != nil && f.Value != nil && f.Value.Text == "llm-task"
}

// polLLMCall finds the first model call of a step: a pipeline stage, or shell
// text. span is where to report it; stage is nil for shell text.
func polLLMCall(s *ast.Step) (span source.Span, name string, stage *ast.Stage, ok bool) {
	for _, st := range polStages(s) {
		if polIsLLMStage(st) || polIsLLMTaskInvoke(st) {
			return ast.SpanOf(st.Name), st.Name.Text, st, true
		}
	}
	if sh := polShell(s); sh != nil {
		if i, j, found := polShellLLMCall(sh); found {
			return sh.Scalar.Map.Span(i, j), sh.Scalar.Text[i:j], nil, true
		}
	}
	return source.Span{}, "", nil, false
}

// polScalar is the scalar a value is (through aliases), or nil.
func polScalar(v ast.Value) *ast.Scalar {
	s, _ := ast.Resolve(v).(*ast.Scalar)
	return s
}

// polNum is a field's numeric value, when it is a YAML number.
func polNum(f *ast.Field) (float64, bool) {
	if f == nil {
		return 0, false
	}
	s := polScalar(f.Value)
	if s == nil || s.Kind != ast.Int && s.Kind != ast.Float {
		return 0, false
	}
	return s.Num, true
}

// polString is a field's string value, when it is a YAML string.
func polString(f *ast.Field) (string, bool) {
	if f == nil {
		return "", false
	}
	if t, ok := f.Value.(*ast.Template); ok {
		return t.Scalar.Text, true
	}
	s := polScalar(f.Value)
	if s == nil || s.Kind != ast.String {
		return "", false
	}
	return s.Text, true
}

// polHasExecution reports whether a step runs something that retry, timeout_ms
// and on_error can apply to: shell, pipeline, workflow or parallel.
func polHasExecution(s *ast.Step) bool {
	return polShell(s) != nil || s.Pipeline != nil || s.Workflow != nil || s.Parallel != nil
}

// polParallel is a step's parallel mapping, or nil.
func polParallel(s *ast.Step) *ast.Parallel {
	if s.Parallel == nil {
		return nil
	}
	p, _ := s.Parallel.Value.(*ast.Parallel)
	return p
}

// polWaitsAny reports whether a parallel step takes the first branch to settle.
func polWaitsAny(s *ast.Step) bool {
	p := polParallel(s)
	if p == nil {
		return false
	}
	w, ok := polString(p.Wait)
	return ok && w == "any"
}
