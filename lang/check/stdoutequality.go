package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// StdoutEquality reports $shell.stdout == "text".
var StdoutEquality = &Analyzer{
	Name:     "stdout-equality",
	Severity: source.Warning,
	Summary:  "a shell step's stdout is compared with a string, but it keeps its trailing newline",
	Doc: `A shell step's stdout is stored untrimmed: after ` + "`run: echo ok`" + `, ` + "`$check.stdout`" + ` is
"ok\n", so ` + "`$check.stdout == \"ok\"`" + ` is never true (conditions compare with ` + "`Object.is`" + `).
Print JSON and compare ` + "`$check.json`" + ` (parsed from the trimmed output), or print without a
newline (` + "`printf`" + `). A comparison with "" (is there any output?) works and is not reported. Commands that visibly print without a newline (` + "`printf`" + `, ` + "`echo -n`" + `,
` + "`tr -d`" + `, ` + "`jq -j`" + `) are not reported.`,
	Bad:  "- id: check\n  run: echo ok\n- id: go\n  when: '$check.stdout == \"ok\"'\n  run: ./go.sh",
	Good: "- id: check\n  run: echo '\"ok\"'\n- id: go\n  when: '$check.json == \"ok\"'\n  run: ./go.sh",
	Run:  runStdoutEquality,
}

func runStdoutEquality(p *Pass) {
	condEachEquality(p, func(si *StepInfo, c *ast.Condition, b *ast.BinaryExpr, r *ast.StepRef, l *ast.Literal) {
		if !condLitIsString(l) || l.Value == "" || strings.HasSuffix(l.Value, "\n") {
			return
		}
		if name, single := condRefField(r); !single || name != "stdout" {
			return
		}
		res := p.Info.Resolve(si, r.ID)
		if res.Visibility != Visible || res.LoopVar || res.Target == nil {
			return
		}
		text, ok := cgShellText(res.Target.Step)
		if !ok || cgPrintsWithoutNewline(text) {
			return
		}
		outcome := "never equals"
		if b.Op == "!=" {
			outcome = "always differs from"
		}
		d := p.Finding(ast.SpanOf(b), "%q keeps the trailing newline (%q), so it %s %s. print JSON and compare \"$%s.json\", or print without a newline (printf)",
			ast.RefText(r), l.Value+"\n", outcome, condLitText(l), r.ID)
		d.Related = []source.Related{p.Related(ast.SpanOf(cgShellField(res.Target.Step).Value), "the command that prints it")}
		p.Report(d)
	})
}

// cgShellField is the shell field the runtime runs for a step: run when it
// is a string, else command, or nil.
func cgShellField(s *ast.Step) *ast.Field {
	if s.Run != nil {
		if _, ok := s.Run.Value.(*ast.Shell); ok {
			return s.Run
		}
	}
	if s.Command != nil {
		if _, ok := s.Command.Value.(*ast.Shell); ok {
			return s.Command
		}
	}
	return nil
}

// cgShellText is the non-blank shell text a step runs, if it is a shell step.
func cgShellText(s *ast.Step) (string, bool) {
	f := cgShellField(s)
	if f == nil {
		return "", false
	}
	text := f.Value.(*ast.Shell).Scalar.Text
	return text, strings.TrimSpace(text) != ""
}

// cgNoNewlineHints are signs that a command prints without a trailing newline.
var cgNoNewlineHints = []string{"printf", "echo -n", "echo -en", "echo -ne", "tr -d", "jq -j", "-jr", "-rj", "--join-output", ".write(", "end=", "head -c", "print -n"}

// cgPrintsWithoutNewline reports whether a shell text visibly prints without
// a trailing newline.
func cgPrintsWithoutNewline(text string) bool {
	for _, h := range cgNoNewlineHints {
		if strings.Contains(text, h) {
			return true
		}
	}
	return false
}
