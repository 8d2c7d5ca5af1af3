package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// StepOutputUnquotedInShell reports $id.json and $id.stdout pasted into
// shell text outside quotes, where the data is parsed as shell code.
var StepOutputUnquotedInShell = &Analyzer{
	Name:     "step-output-unquoted-in-shell",
	Severity: source.Warning,
	Summary:  "a step's output is pasted unquoted into shell text, where it runs as shell code",
	Doc: `"$id.json…" and "$id.stdout" are replaced by the data as plain text before the shell parses
the script. Outside quotes the data is shell source: "git branch -D $list.stdout",
"eval $x.json.cmd" or "echo $item.json" in a loop run whatever ";", "$(…)", "|" or backtick the
data holds [verified: with output "x; touch pwned", "echo $list.stdout" created the file]. Step
output (model answers, issue titles, web pages, file names) is untrusted. Pass the data on stdin
(stdin: $id.json), or map it to an env value (env: {LIST_STDOUT: "$list.stdout"}), which is
substituted without any shell parsing, and read "$LIST_STDOUT".

The quick fix adds the env value to the step and reads "$NAME" in double quotes. That also stops
word splitting: if the output was meant to split into several words (a list of names), read it
as $NAME without quotes, or loop over the lines. References inside quotes are
step-output-spliced-into-shell; those in comments, in quoted heredocs and in arithmetic are not
reported.`,
	Bad:  "steps:\n  - id: list\n    run: git branch --merged | grep -v main\n  - id: prune\n    run: git branch -D $list.stdout",
	Good: "steps:\n  - id: list\n    run: git branch --merged | grep -v main\n  - id: prune\n    run: printf '%s\\n' \"$BRANCHES\" | xargs git branch -D\n    env:\n      BRANCHES: $list.stdout",
	Fix:  "map the output to an env value of the step and read \"$NAME\" instead (unsafe: the value no longer splits into words)",
	Run:  runStepOutputUnquotedInShell,
}

func runStepOutputUnquotedInShell(p *Pass) {
	for _, si := range p.Info.Steps {
		for _, f := range []*ast.Field{si.Step.Run, si.Step.Command} {
			sh, ok := fieldValue(f).(*ast.Shell)
			if !ok || sh.Scalar == nil || !aeHasOutputRef(sh.Refs) {
				continue
			}
			sc := sh.Scalar
			spans := aeRefSpans(sc, sh.Refs)
			places := aeShellPositions(sc.Text, spans)
			for k, ref := range sh.Refs {
				r, ok := ref.(*ast.StepRef)
				if !ok || !aeIsOutputPath(r) {
					continue
				}
				at := places[k]
				if at.Quote != aeUnquoted || at.Arith {
					continue
				}
				res := p.Info.Resolve(si, r.ID)
				if res.Visibility != Visible && res.Visibility != WorkflowLevel {
					continue
				}
				text := ast.RefText(r)
				var parts []string
				for _, seg := range r.Path {
					parts = append(parts, seg.Name)
				}
				env := ArgEnvName(r.ID + "_" + strings.Join(parts, "_"))
				if env == "" {
					env = "DATA"
				}
				d := p.Finding(ast.SpanOf(r), "%q is pasted into the script unquoted, so the data is shell code: a \";\", \"$(…)\", \"|\" or backtick in it runs as a command. pass it with stdin: %s, or map it to an env value (env: {%s: \"%s\"}) and read \"$%s\"",
					text, text, env, text, env)
				if edits, ok := soEnvFix(p, si, sc, spans[k], text, env); ok {
					d.Fixes = []source.Fix{{Message: fmt.Sprintf("Map %s to env %s and read \"$%s\" (unsafe: the value no longer splits into words)", text, env, env), Edits: edits, Unsafe: true}}
				}
				p.Report(d)
			}
		}
	}
}

// soEnvFix is the edits that add env NAME: "<ref>" to the step and read
// "$NAME" in place of the reference at decoded range r. It gives up where
// the result would not be plain to read: JSON files, a step whose env is
// not a mapping or already has NAME, a run key that does not start its line.
func soEnvFix(p *Pass, si *StepInfo, sc *ast.Scalar, r aeSpan, ref, name string) ([]source.Edit, bool) {
	if p.Info.EnvNames()[name] {
		return nil, false
	}
	repl := `"$` + name + `"`
	if r.J < len(sc.Text) && parser.IsWordByte(sc.Text[r.J]) {
		repl = `"${` + name + `}"`
	}
	sp := sc.Map.Span(r.I, r.J)
	if !aeEncodeInScalar(sc, sp, &repl) {
		return nil, false
	}
	add, ok := envAddEdit(p, si, name+": \""+ref+"\"")
	if !ok {
		return nil, false
	}
	return []source.Edit{p.Edit(sp, repl), add}, true
}
