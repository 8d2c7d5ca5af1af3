package check

import (
	"fmt"
	"path"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// LobsterShellOverride reports LOBSTER_SHELL set in an env block.
var LobsterShellOverride = &Analyzer{
	Name:     "lobster-shell-override",
	Severity: source.Info,
	Summary:  "LOBSTER_SHELL is set in env and changes the interpreter of shell steps",
	Doc: `The shell of run/command steps (and exec --shell) is read from LOBSTER_SHELL in the merged
step env: setting it in the workflow env changes the interpreter of every step, and in
a step env, that step's (and the sub-steps or branches under it). A name ending in pwsh or
powershell gets -NoProfile -Command, one ending in cmd gets /d /s /c (also "mycmd"), anything
else -lc. Scripts written for /bin/sh may then behave differently, and a value taken from a step
or an arg lets data choose the interpreter.`,
	Bad:  "env:\n  LOBSTER_SHELL: bash\nsteps:\n  - id: build\n    run: make",
	Good: "steps:\n  - id: build\n    run: bash -c 'make'",
	Run:  runLobsterShellOverride,
}

func runLobsterShellOverride(p *Pass) {
	for b := range aeEnvBlocks(p.Info) {
		m, ok := b.Field.Value.(*ast.TemplateMap)
		if !ok {
			continue
		}
		e := m.Lookup("LOBSTER_SHELL")
		if e == nil {
			continue
		}
		scope := "all steps"
		if si := b.Step; si != nil {
			switch {
			case si.IsLoop():
				scope = fmt.Sprintf("the sub-steps of %q", si.ID)
			case si.Step.Parallel != nil:
				scope = fmt.Sprintf("the branches of %q", si.ID)
			default:
				scope = fmt.Sprintf("step %q", si.ID)
			}
		}
		how := ""
		if t, ok := e.Value.(*ast.Template); ok && t.Scalar != nil && len(t.Refs) == 0 {
			sh := strings.TrimSpace(t.Scalar.Text)
			if sh == "" {
				continue // an empty value keeps the default shell
			}
			base := strings.ToLower(path.Base(strings.ReplaceAll(sh, `\`, "/")))
			switch {
			case strings.HasSuffix(base, "powershell") || strings.HasSuffix(base, "powershell.exe") || strings.HasSuffix(base, "pwsh") || strings.HasSuffix(base, "pwsh.exe"):
				how = fmt.Sprintf(": the text is run as %s -NoProfile -Command <text>", sh)
			case strings.HasSuffix(base, "cmd") || strings.HasSuffix(base, "cmd.exe"):
				how = fmt.Sprintf(": the text is run as %s /d /s /c <text>", sh)
			default:
				how = fmt.Sprintf(": the text is run as %s -lc <text>", sh)
			}
		} else if ok {
			how = ": the value comes from a reference, so data chooses the interpreter"
		}
		p.Reportf(e.Key.Span, "LOBSTER_SHELL changes the interpreter for every step that sees this env (here: %s)%s", scope, how)
	}
}
