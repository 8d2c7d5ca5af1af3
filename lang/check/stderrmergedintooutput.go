package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
	"mvdan.cc/sh/v3/syntax"
)

// StderrMergedIntoOutput reports 2>&1 in a shell step whose output a later
// step reads as JSON.
var StderrMergedIntoOutput = &Analyzer{
	Name:     "stderr-merged-into-output",
	Severity: source.Warning,
	Summary:  "2>&1 mixes stderr into output that a later step reads as JSON",
	Doc: `A shell step's result is its stdout; $id.json parses it as JSON, and is undefined (empty
text) when it does not parse. "2>&1" sends warnings, progress and log lines into that
output, so the JSON breaks as soon as the program writes to stderr. stderr of a
successful step is discarded anyway, and that of a failed step is shown in the error, so the
redirection is not needed. Redirections of the whole command to a file (">log 2>&1"), and
2>&1 inside $(…), are not reported.`,
	Bad:  "- id: build\n  run: ./build.sh --json 2>&1\n- id: next\n  run: echo \"$build.json.version\"",
	Good: "- id: build\n  run: ./build.sh --json\n- id: next\n  run: echo \"$build.json.version\"",
	Run:  runStderrMergedIntoOutput,
}

func runStderrMergedIntoOutput(p *Pass) {
	any := false
	plShellFields(p.Info, func(si *StepInfo, f *ast.Field, sh *ast.Shell) {
		any = any || strings.Contains(sh.Scalar.Text, "2>&1")
	})
	if !any {
		return
	}
	// The first $id.json reference to each shell step.
	var readers map[*StepInfo]*RefSite
	for i := range p.Info.Refs {
		rs := &p.Info.Refs[i]
		r, ok := rs.Ref.(*ast.StepRef)
		if !ok || rs.Context == InCwd || len(r.Path) == 0 || r.Path[0].Name != "json" {
			continue
		}
		res := p.Info.ResolveSite(rs, r.ID)
		if res.Visibility != Visible || res.LoopVar || res.Target == nil {
			continue
		}
		if readers == nil {
			readers = map[*StepInfo]*RefSite{}
		}
		if readers[res.Target] == nil {
			readers[res.Target] = rs
		}
	}
	if readers == nil {
		return
	}
	plShellFields(p.Info, func(si *StepInfo, f *ast.Field, sh *ast.Shell) {
		rs := readers[si]
		if rs == nil || !strings.Contains(sh.Scalar.Text, "2>&1") {
			return
		}
		file := plParseShell(sh.Scalar.Text)
		if file == nil {
			return
		}
		r := rs.Ref.(*ast.StepRef)
		for _, rd := range plMergedStderr(file) {
			d := p.Finding(sh.Scalar.Map.Span(int(rd.Pos().Offset()), int(rd.End().Offset())),
				"\"2>&1\" mixes stderr into the output that %q reads as %q; drop it (stderr of a successful step is discarded) or send it to a file", rs.Step.ID, ast.RefText(r))
			d.Related = []source.Related{p.Related(ast.SpanOf(r), "the output is read as JSON here")}
			p.Report(d)
		}
	})
}

// plMergedStderr finds the 2>&1 redirections that send stderr into the
// script's stdout: not inside a command substitution, and not after a
// redirection of stdout to a file on the same command or an enclosing one.
func plMergedStderr(file *syntax.File) []*syntax.Redirect {
	var found []*syntax.Redirect
	var stack []bool // for each node being walked: whether it sends stdout away
	away := 0        // how many of them do
	syntax.Walk(file, func(n syntax.Node) bool {
		if n == nil {
			if stack[len(stack)-1] {
				away--
			}
			stack = stack[:len(stack)-1]
			return true
		}
		sendsAway := false
		switch n := n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			return false
		case *syntax.Stmt:
			if away == 0 {
				stdoutAway := false
				for _, rd := range n.Redirs {
					if plIsStderrToStdout(rd) && !stdoutAway {
						found = append(found, rd)
					}
					stdoutAway = stdoutAway || plRedirectsStdout(rd)
				}
			}
			sendsAway = plStdoutToFile(n)
		}
		if sendsAway {
			away++
		}
		stack = append(stack, sendsAway)
		return true
	})
	return found
}

// plIsStderrToStdout reports whether a redirection is 2>&1.
func plIsStderrToStdout(rd *syntax.Redirect) bool {
	return rd.Op == syntax.DplOut && rd.N != nil && rd.N.Value == "2" && rd.Word != nil && rd.Word.Lit() == "1"
}

// plRedirectsStdout reports whether a redirection sends stdout elsewhere
// (>file, >>file, &>file, 1>&2).
func plRedirectsStdout(rd *syntax.Redirect) bool {
	fd := "1"
	if rd.N != nil {
		fd = rd.N.Value
	}
	switch rd.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob:
		return fd == "1"
	case syntax.RdrAll, syntax.AppAll, syntax.RdrAllClob, syntax.AppAllClob:
		return true
	case syntax.DplOut:
		return fd == "1" && rd.Word != nil && rd.Word.Lit() != "1"
	}
	return false
}

// plStdoutToFile reports whether a statement sends its stdout away, so
// that nothing inside it reaches the script's output.
func plStdoutToFile(s *syntax.Stmt) bool {
	for _, rd := range s.Redirs {
		if plRedirectsStdout(rd) {
			return true
		}
	}
	return false
}
