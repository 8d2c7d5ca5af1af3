package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ShimInRun reports openclaw.invoke and clawd.invoke called from shell text.
var ShimInRun = &Analyzer{
	Name:     "shim-in-run",
	Severity: source.Info,
	Summary:  "a run or command text calls the openclaw.invoke or clawd.invoke shim",
	Doc: `The reference's package installs two executables, openclaw.invoke and clawd.invoke, that
start "lobster" with the same pipeline command, and so does ` + "`go install ./cmd/...`" + `
here; calling them from shell text works where they are on PATH (a login shell, which runs
` + "`run:`" + ` text, may reset PATH). Other machines (an OpenClaw gateway, a container, CI) often lack
them (openclaw/openclaw#50279), and each call starts a new lobster process. A pipeline step runs
the built-in command directly and gives its result as items.`,
	Bad:  "- id: notify\n  run: openclaw.invoke --tool message --action send --args-json '{\"text\":\"done\"}'",
	Good: "- id: notify\n  pipeline: openclaw.invoke --tool message --action send --args-json '{\"text\":\"done\"}'",
	Run:  runShimInRun,
}

func runShimInRun(p *Pass) {
	plShellFields(p.Info, func(si *StepInfo, f *ast.Field, sh *ast.Shell) {
		text := sh.Scalar.Text
		if !strings.Contains(text, ".invoke") || !plMentionsCommand(text) {
			return
		}
		calls, _, ok := plShellCommands(text)
		if !ok {
			calls = plShellCommandsLex(text)
		}
		for _, c := range calls {
			if !c.Cmd.Shim {
				continue
			}
			p.Reportf(sh.Scalar.Map.Span(c.Start, c.End),
				"this runs the %s shim from PATH, which is not installed everywhere; pipeline: %q runs the built-in command directly",
				c.Name, plCallText(text, c))
		}
	})
}
