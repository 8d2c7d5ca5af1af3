package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// StepOutputSplicedIntoShell reports $id.json and $id.stdout pasted into
// quoted shell text.
var StepOutputSplicedIntoShell = &Analyzer{
	Name:     "step-output-spliced-into-shell",
	Severity: source.Warning,
	Summary:  "a step's output is pasted into quoted shell text as raw text",
	Doc: `"$id.json…" and "$id.stdout" are replaced by the data as plain text before the shell parses
the script, also inside quotes, heredocs and programs given to jq, node or python.
Inside "…" a JSON value loses its quotes ("echo \"json=$gate.json\"" printed json={x:1}), and a
quote, "$(…)" or a backtick in the data (model output, issue titles, web pages) breaks the
command or runs as shell code; inside '…' a single "'" does. Step output is untrusted. Pass the
data on stdin (stdin: $id.json), or map it to an env value (env: {DATA: "$id.json"}), which is
substituted without any shell parsing, and read "$DATA".

The rule reports references to stdout and json (and paths below json) in single quotes, double
quotes and unquoted heredoc bodies of run/command text. Unquoted references (typically numbers,
"count=$x.json.count") and those in quoted heredocs (<<'EOF', whose body the shell does not
parse) are not reported.`,
	Bad:  "steps:\n  - id: fetch\n    run: curl -s https://example.com/item.json\n  - id: show\n    run: node -e 'const d = $fetch.json; console.log(d.title)'",
	Good: "steps:\n  - id: fetch\n    run: curl -s https://example.com/item.json\n  - id: show\n    run: node -e 'const d = JSON.parse(process.env.DATA); console.log(d.title)'\n    env:\n      DATA: $fetch.json",
	Run:  runStepOutputSplicedIntoShell,
}

func runStepOutputSplicedIntoShell(p *Pass) {
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
				var where, risk string
				switch at.Quote {
				case aeDouble:
					where = "inside \"…\""
					risk = "a quote, \"$(…)\" or a backtick in the data breaks the command or runs as shell code"
					if r.Path[0].Name == "json" {
						risk = "JSON loses its quotes there, and " + risk
					}
				case aeSingle:
					where = "inside '…'"
					risk = "a \"'\" in the data ends the quotes and the rest runs as shell code"
				case aeHeredoc:
					where = "in a heredoc body"
					risk = "\"$(…)\" or a backtick in the data runs as shell code"
				default:
					continue
				}
				res := p.Info.Resolve(si, r.ID)
				if res.Visibility != Visible && res.Visibility != WorkflowLevel {
					continue
				}
				text := ast.RefText(r)
				env := ArgEnvName(r.ID + "_" + r.Path[0].Name)
				if env == "" {
					env = "DATA"
				}
				p.Report(p.Finding(ast.SpanOf(r), "%q is pasted into the script as raw text %s: %s. pass it with stdin: %s, or map it to an env value (env: {%s: \"%s\"}) and read \"$%s\"",
					text, where, risk, text, env, text, env))
			}
		}
	}
}
