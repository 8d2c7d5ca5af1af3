package check

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// JSONOfNonJSON reports $x.json where x is a shell step that plainly does
// not print JSON.
var JSONOfNonJSON = &Analyzer{
	Name:     "json-of-non-json",
	Severity: source.Info,
	Summary:  "a reference reads .json of a shell step that does not print JSON",
	Doc: "A shell step's `json` is the JSON parse of its trimmed stdout, or undefined when that is not " +
		"JSON. A step that only runs `echo` with plain words, `date`, `pwd`, `ls`, `whoami`, " +
		"`hostname` or `uname`, or a command that prints nothing (`mkdir`, `cp`, `touch`, `sleep`…), has " +
		"no `json`: the reference is empty in text and undefined in conditions. Use `$x.stdout`. The " +
		"inference looks only at one-line commands without variables, pipes or redirections, so it " +
		"is informational.",
	Bad:  "- id: stamp\n  run: date -u\n- id: log\n  run: echo \"started at $stamp.json\"",
	Good: "- id: stamp\n  run: date -u\n- id: log\n  run: echo \"started at $stamp.stdout\"",
	Fix:  "change `$x.json` to `$x.stdout`",
	Run:  runJSONOfNonJSON,
}

// refSilentCommands print nothing when they succeed.
var refSilentCommands = map[string]bool{
	"mkdir": true, "touch": true, "cp": true, "mv": true, "rm": true, "sleep": true, "true": true, ":": true,
	"chmod": true, "ln": true,
}

// refTextCommands print text that is not JSON.
var refTextCommands = map[string]bool{
	"pwd": true, "whoami": true, "hostname": true, "uname": true, "ls": true,
}

// refNonJSONCommand returns the command when a shell text plainly prints no
// JSON, else "".
func refNonJSONCommand(text string) string {
	t := strings.TrimSpace(text)
	if t == "" || strings.ContainsAny(t, "\n;&|<>`$(){}*?[]~\\#=") {
		return ""
	}
	fields := strings.Fields(t)
	cmd := fields[0]
	switch {
	case refSilentCommands[cmd]:
		for _, f := range fields[1:] {
			if f == "-v" || strings.HasPrefix(f, "--verbose") {
				return ""
			}
		}
		return t
	case refTextCommands[cmd]:
		return t
	case cmd == "date":
		for _, f := range fields[1:] {
			if strings.HasPrefix(f, "+") || strings.HasPrefix(f, "'+") || strings.HasPrefix(f, "\"+") {
				return "" // a format may print a number
			}
		}
		return t
	case cmd == "echo":
		rest := fields[1:]
		for len(rest) > 0 && (rest[0] == "-n" || rest[0] == "-e" || rest[0] == "-E") {
			rest = rest[1:]
		}
		words := strings.Join(rest, " ")
		words = strings.TrimSpace(refUnquoteWords(words))
		if words != "" && json.Valid([]byte(words)) {
			return ""
		}
		if strings.ContainsAny(words, "\"'") {
			return "" // quotes inside quotes: leave it alone
		}
		return t
	}
	return ""
}

// refUnquoteWords removes one level of shell quotes from simple text.
func refUnquoteWords(s string) string {
	var b strings.Builder
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q == 0 && (c == '\'' || c == '"'):
			q = c
		case q != 0 && c == q:
			q = 0
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// refShellText is the text of a step's run (or command) when it is a string.
func refShellText(s *ast.Step) (string, bool) {
	f := s.Run
	if f == nil {
		f = s.Command
	}
	if f == nil {
		return "", false
	}
	sh, ok := f.Value.(*ast.Shell)
	if !ok || sh.Scalar == nil {
		return "", false
	}
	return sh.Scalar.Text, true
}

func runJSONOfNonJSON(p *Pass) {
	forEachResolvedStepRef(p.Info, func(_ *RefSite, r *ast.StepRef) bool { return r.Path[0].Name == "json" }, func(rs *RefSite, r *ast.StepRef, res Resolution) {
		if res.LoopVar || r.Path[0].Name != "json" {
			return
		}
		t := res.Target
		if t.Step.Pipeline != nil || t.Step.Workflow != nil || t.Step.Parallel != nil || t.Step.ForEach != nil {
			return
		}
		text, ok := refShellText(t.Step)
		if !ok {
			return
		}
		cmd := refNonJSONCommand(text)
		if cmd == "" {
			return
		}
		d := p.Finding(ast.SpanOf(r.Path[0]), "%q does not appear to print JSON (it runs %q), so %q %s; use \"$%s.stdout\"",
			r.ID, cmd, ast.RefText(r), refUndefinedEffect(rs, res), r.ID)
		if len(r.Path) == 1 {
			d.Fixes = []source.Fix{{Message: fmt.Sprintf("Change %q to %q", "$"+r.ID+".json", "$"+r.ID+".stdout"), Edits: []source.Edit{p.Edit(ast.SpanOf(r.Path[0]), "stdout")}}}
		}
		p.Report(d)
	})
}
