package check

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ShellVarStepOutput reports a shell variable that is never set but spells
// a step's output, such as "$fetch_json" for a step fetch.
var ShellVarStepOutput = &Analyzer{
	Name:     "shell-var-step-output",
	Severity: source.Warning,
	Summary:  "a shell variable named like a step's output is never set",
	Doc: `A step's output is not exported to later steps as a shell variable: "$fetch_json" or
"$build_stdout" is empty unless the workflow sets it [verified: "[$fetch_json]" printed "[]"
after a step fetch]. Lobster pastes "$fetch.json" or "$fetch.stdout" into the text instead, or,
safer, an env value maps the output to the variable: env: {fetch_json: "$fetch.json"} makes
"$fetch_json" hold the data without any shell parsing of it. The rule reports variables whose
name is a step id (or a loop's item variable) followed by _json or _stdout, in any case, that
no env block sets, the script does not assign and the host does not set (the project
configuration's env).`,
	Bad:  "steps:\n  - id: fetch\n    run: curl -s https://example.com/item.json\n  - id: show\n    run: echo \"$fetch_json\" | jq .title",
	Good: "steps:\n  - id: fetch\n    run: curl -s https://example.com/item.json\n  - id: show\n    run: echo \"$fetch_json\" | jq .title\n    env:\n      fetch_json: $fetch.json",
	Fix:  "add the env value that sets the variable to the step's output",
	Run:  runShellVarStepOutput,
}

func runShellVarStepOutput(p *Pass) {
	var byName map[string]string // lower-case mangled id → id
	for _, vs := range p.Info.Vars {
		v := vs.Var
		if v.Op == "arith" || vs.Step == nil {
			continue
		}
		lower := strings.ToLower(v.Name)
		var field string
		for _, suffix := range []string{"_json", "_stdout"} {
			if strings.HasSuffix(lower, suffix) && len(lower) > len(suffix) {
				field = suffix[1:]
			}
		}
		if field == "" {
			continue
		}
		if byName == nil {
			byName = map[string]string{}
			for id := range p.Info.ByID {
				byName[strings.ToLower(svMangle(id))] = id
			}
			for _, si := range p.Info.Steps {
				if si.IsLoop() {
					byName[strings.ToLower(svMangle(si.ItemVar))] = si.ItemVar
				}
			}
		}
		id, ok := byName[lower[:len(lower)-len(field)-1]]
		if !ok || p.Info.EnvNames()[v.Name] || p.Options.envDeclared(v.Name) {
			continue
		}
		res := p.Info.Resolve(vs.Step, id)
		if res.Visibility != Visible && res.Visibility != WorkflowLevel {
			continue
		}
		sh, _ := fieldValue(vs.Field).(*ast.Shell)
		if sh == nil || sh.Scalar == nil || svAssigned(sh.Scalar.Text, v.Name) {
			continue
		}
		ref := "$" + id + "." + field
		d := p.Finding(ast.SpanOf(v), "%q is never set: a step's output is not a shell variable, so it is empty; map it with env: {%s: \"%s\"}, or read %q", "$"+v.Name, v.Name, ref, ref)
		if e, ok := envAddEdit(p, vs.Step, v.Name+": \""+ref+"\""); ok {
			d.Fixes = []source.Fix{{Message: fmt.Sprintf("Set %s from %s in the step's env", v.Name, ref), Edits: []source.Edit{e}}}
		}
		p.Report(d)
	}
}

// svMangle spells an id as a shell variable name would: "-" and "." as "_".
func svMangle(id string) string {
	return strings.NewReplacer("-", "_", ".", "_").Replace(id)
}

// svAssigned reports whether shell text assigns a variable: NAME=…,
// export/local/readonly NAME, read … NAME, for NAME in.
func svAssigned(text, name string) bool {
	q := regexp.QuoteMeta(name)
	return regexp.MustCompile(`(?:^|[\s;&|(])` + q + `=|\b(?:export|local|readonly|declare|typeset)\s+(?:-\w+\s+)*` + q + `\b|\bread\b[^\n;|&]*\s` + q + `\b|\bfor\s+` + q + `\s`).MatchString(text)
}
