package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// ConditionArgRef reports ${arg} in a when/condition.
var ConditionArgRef = &Analyzer{
	Name:     "condition-arg-ref",
	Severity: source.Error,
	Summary:  "an ${arg} is used in a condition, where args are not substituted",
	Doc: `Conditions have their own grammar and get no ` + "`${arg}`" + ` substitution: a "$"
must start a step reference ` + "`$id.path`" + `, so the run fails with "Unsupported condition" before the
step runs (outside retry and on_error, also in a dry run). To branch on an arg, add a step that prints it
and test that step's output: ` + "`printf '%s' \"$LOBSTER_ARG_MODE\"`" + ` prints the text without a newline,
so ` + "`$mode.stdout`" + ` equals it exactly, and ` + "`$mode.json`" + ` is the parsed number or boolean.

Inside a quoted string of a condition, ` + "`\"${mode}\"`" + ` parses but is compared literally (the text
` + "`${mode}`" + `); that case is reported as a warning.`,
	Bad: `- id: build
  when: '${mode} == "full"'
  run: make all`,
	Good: `- id: mode
  run: printf '%s' "$LOBSTER_ARG_MODE"
- id: build
  when: '$mode.stdout == "full"'
  run: make all`,
	Supersedes: []string{"condition-syntax"},
	Run:        runConditionArgRef,
}

func runConditionArgRef(p *Pass) {
	for _, si := range p.Info.Steps {
		f := condField(si.Step)
		if f == nil {
			continue
		}
		c, ok := ast.Resolve(f.Value).(*ast.Condition)
		if !ok || !strings.Contains(c.Scalar.Text, "${") {
			continue
		}
		condScanArgRefs(c.Scalar.Text, func(i, j int, name string, quoted bool) {
			sp := c.Scalar.Map.Span(i, j)
			if quoted {
				d := p.Finding(sp, "%q inside a quoted string is compared as literal text: conditions get no arg substitution; test the output of a step that prints the arg instead", "${"+name+"}")
				d.Severity = source.Warning
				p.Report(d)
				return
			}
			expr := strings.TrimSpace(c.Scalar.Text)
			if p.Info.ArgBy[name] == nil {
				p.Reportf(sp, "%q cannot be used in a condition: conditions get no arg or variable substitution, so the run fails with %q", "${"+name+"}", "Unsupported condition: "+expr)
				return
			}
			id := condArgStepID(p.Info, name)
			env := condArgEnvName(name)
			msg := fmt.Sprintf("args cannot be used in conditions: the run fails with %q", "Unsupported condition: "+expr)
			if env != "" {
				msg += fmt.Sprintf("; add a step that prints the arg, e.g. {id: %s, run: printf '%%s' \"$%s\"}, and test \"$%s.stdout\" (text) or \"$%s.json\" (numbers and booleans)", id, env, id, id)
			}
			p.Reportf(sp, "%s", msg)
		})
	}
}

// condScanArgRefs finds the ${name} tokens of a condition's text and whether
// each stands inside a quoted string (where a backslash escapes the next
// character, as in the condition lexer).
func condScanArgRefs(text string, fn func(i, j int, name string, quoted bool)) {
	var q byte
	for i := 0; i < len(text); i++ {
		c := text[i]
		if q != 0 {
			switch c {
			case '\\':
				i++
				continue
			case q:
				q = 0
				continue
			}
		} else if c == '"' || c == '\'' {
			q = c
			continue
		}
		if c != '$' || i+1 >= len(text) || text[i+1] != '{' {
			continue
		}
		j := i + 2
		for j < len(text) && parser.IsNameByte(text[j]) {
			j++
		}
		if j == i+2 || j >= len(text) || text[j] != '}' {
			continue
		}
		fn(i, j+1, text[i+2:j], q != 0)
		i = j
	}
}

// condArgStepID proposes an id for a step that prints an arg: the arg name,
// unless a step already has it.
func condArgStepID(in *Info, name string) string {
	if len(in.ByID[name]) == 0 {
		return name
	}
	return name + "_arg"
}

// condArgEnvName is the LOBSTER_ARG_<N> variable of an arg, or ""
// when the name mangles to nothing.
func condArgEnvName(name string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToUpper(strings.TrimSpace(name)) {
		if 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(r)
		} else {
			under = true
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "LOBSTER_ARG_" + b.String()
}
