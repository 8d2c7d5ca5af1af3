package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
	"mvdan.cc/sh/v3/syntax"
)

// BashismInSh reports bash-only syntax in run/command text, which runs
// under /bin/sh.
var BashismInSh = &Analyzer{
	Name:     "bashism-in-sh",
	Severity: source.Warning,
	Summary:  "run or command text uses bash syntax, but runs under /bin/sh",
	Doc: `Shell steps run with /bin/sh -lc; $SHELL is ignored. On Debian, Ubuntu and their
containers /bin/sh is dash, which rejects bash syntax: [[ ]], arrays, $'…', <<<, ${x/a/b},
"function f", and fails at run time on "source" ("source: not found") and on == inside [ ]
("unexpected operator"). macOS runs bash as /bin/sh, so the step works there and fails elsewhere.
Use POSIX syntax, or set LOBSTER_SHELL: bash in the workflow's or the step's env (then this rule
is quiet).`,
	Bad:  "- id: check\n  run: if [[ -f out.json ]]; then cat out.json; fi",
	Good: "- id: check\n  run: if [ -f out.json ]; then cat out.json; fi",
	Run:  runBashismInSh,
}

func runBashismInSh(p *Pass) {
	if w := p.Info.File.Workflow; w == nil || plLobsterShellSet(w.Env) {
		return
	}
	plShellFields(p.Info, func(si *StepInfo, f *ast.Field, sh *ast.Shell) {
		bashStep := func() bool {
			for s := si; s != nil; s = s.Parent {
				if plLobsterShellSet(s.Step.Env) {
					return true
				}
			}
			return false
		}
		if sh.Err != nil {
			if feature, ok := plBashFeature(sh.Err.Msg); ok && !bashStep() {
				p.Reportf(sh.Err.Span, "%s: /bin/sh is dash on Debian and Ubuntu, where the step fails with a syntax error; use POSIX syntax or set LOBSTER_SHELL: bash in env", feature)
			}
			return
		}
		text := sh.Scalar.Text
		if !strings.Contains(text, "source") && !strings.Contains(text, "==") && !strings.Contains(text, "[[") {
			return
		}
		if bashStep() {
			return
		}
		file := plParseShell(text)
		if file == nil {
			return
		}
		syntax.Walk(file, func(n syntax.Node) bool {
			if tc, ok := n.(*syntax.TestClause); ok {
				p.Reportf(sh.Scalar.Map.Span(int(tc.Left.Offset()), int(tc.Left.Offset())+2),
					"[[ ]] is a bash feature: dash (/bin/sh on Debian and Ubuntu) fails with \"[[: not found\"; use [ ] or set LOBSTER_SHELL: bash in env")
				return true
			}
			call, ok := n.(*syntax.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			switch name := call.Args[0].Lit(); name {
			case "source":
				w := call.Args[0]
				p.Reportf(sh.Scalar.Map.Span(int(w.Pos().Offset()), int(w.End().Offset())),
					"\"source\" is a bash builtin: dash (/bin/sh on Debian and Ubuntu) fails with \"source: not found\"; use \". file\" or set LOBSTER_SHELL: bash in env")
			case "[", "test":
				for _, a := range call.Args[1:] {
					if a.Lit() == "==" {
						p.Reportf(sh.Scalar.Map.Span(int(a.Pos().Offset()), int(a.End().Offset())),
							"\"==\" in %s is a bash extension: dash (/bin/sh on Debian and Ubuntu) fails with \"unexpected operator\"; use \"=\"", plTestName(name))
					}
				}
			}
			return true
		})
	})
}

func plTestName(name string) string {
	if name == "[" {
		return "[ ]"
	}
	return name
}
