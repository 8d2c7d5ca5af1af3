package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/source"
	"mvdan.cc/sh/v3/syntax"
)

// LobsterCommandInRun reports pipeline commands called from shell text.
var LobsterCommandInRun = &Analyzer{
	Name:     "lobster-command-in-run",
	Severity: source.Error,
	Summary:  "a run or command text calls a Lobster pipeline command, which is not a program",
	Doc: `run and command text is handed to /bin/sh -lc. Pipeline commands such as
llm.invoke, state.set, diff.last or approve exist only inside the pipeline runtime: the shell
looks them up on PATH and fails with "llm.invoke: not found" (only the openclaw.invoke
and clawd.invoke shims are installed as executables, see shim-in-run). Commands that share their
name with a program or shell builtin (exec, head, sort, json, table, map, template) are reported
only with a flag that exists in Lobster alone, such as "head --n" or "exec --json". Every simple
command of the script is checked, not only the first; functions defined in the script are not.`,
	Bad:  "- id: remember\n  run: state.set last-report\n  stdin: $report.json",
	Good: "- id: remember\n  pipeline: state.set last-report\n  stdin: $report.json",
	Fix:  "rename run/command to pipeline when the whole text is one pipeline of Lobster commands (unsafe: a pipeline receives stdin as items, a shell as text)",
	Run:  runLobsterCommandInRun,
}

func runLobsterCommandInRun(p *Pass) {
	plShellFields(p.Info, func(si *StepInfo, f *ast.Field, sh *ast.Shell) {
		text := sh.Scalar.Text
		if !plMentionsCommand(text) {
			return
		}
		calls, file, ok := plShellCommands(text)
		if !ok {
			calls = plShellCommandsLex(text)
		}
		fixed := false
		for _, c := range calls {
			if c.Cmd.Shim || c.Cmd.Program && c.LobsterFlag == "" {
				continue
			}
			line := plCallText(text, c)
			var d source.Diagnostic
			if c.Cmd.Program {
				d = p.Finding(sh.Scalar.Map.Span(c.Start, c.End),
					"%q is Lobster pipeline syntax, but in shell text %q is the program or builtin of that name, which has no %s option; use pipeline: %q",
					c.Name+" "+c.LobsterFlag, c.Name, c.LobsterFlag, line)
			} else {
				d = p.Finding(sh.Scalar.Map.Span(c.Start, c.End),
					"%q is a Lobster pipeline command, not a program: the shell fails with \"%s: not found\"; use pipeline: %q",
					c.Name, c.Name, line)
			}
			if !fixed && file != nil && plPipelineOnly(file, sh) && plCanRenameToPipeline(si, f) {
				fixed = true
				d.Fixes = []source.Fix{{
					Message: "Move the command to pipeline: (unsafe: a pipeline receives stdin as items, a shell as text)",
					Edits:   []source.Edit{p.Edit(ast.SpanOf(f.Key), "pipeline")},
					Unsafe:  true,
				}}
			}
			p.Report(d)
		}
	})
}

// plPipelineOnly reports whether a script is one pipeline of pipeline
// commands with no shell feature in it (no redirection, expansion or list),
// so that it means the same as pipeline text.
func plPipelineOnly(file *syntax.File, sh *ast.Shell) bool {
	if len(file.Stmts) != 1 {
		return false
	}
	// Every '$' must start a Lobster reference, which a pipeline
	// substitutes too.
	if strings.Count(sh.Scalar.Text, "$") != len(sh.Refs) {
		return false
	}
	var ok func(s *syntax.Stmt) bool
	ok = func(s *syntax.Stmt) bool {
		if s.Negated || s.Background || s.Coprocess || len(s.Redirs) > 0 {
			return false
		}
		switch c := s.Cmd.(type) {
		case *syntax.CallExpr:
			if len(c.Assigns) > 0 || len(c.Args) == 0 {
				return false
			}
			_, found := commands.Lookup(c.Args[0].Lit())
			return found
		case *syntax.BinaryCmd:
			return c.Op == syntax.Pipe && ok(c.X) && ok(c.Y)
		}
		return false
	}
	return ok(file.Stmts[0])
}

// plCanRenameToPipeline reports whether renaming the field's key to
// pipeline gives a valid step.
func plCanRenameToPipeline(si *StepInfo, f *ast.Field) bool {
	s := si.Step
	if s.Pipeline != nil || s.Run != nil && s.Command != nil || f.Key.Style != ast.Plain {
		return false
	}
	return true
}
