package check

import (
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// StructuredArgInTemplate reports ${x} where the arg's default is a list or
// a mapping.
var StructuredArgInTemplate = &Analyzer{
	Name:     "structured-arg-in-template",
	Severity: source.Warning,
	Summary:  "an arg whose default is a list or mapping is substituted as text",
	Doc: `"${x}" is replaced by String(value): a list renders as its elements joined with
commas ("1,2"), a mapping as "[object Object]", and LOBSTER_ARG_X gets the same text. Only
LOBSTER_ARGS_JSON, the JSON of all resolved args, carries structured values faithfully: read it
with jq (printf '%s' "$LOBSTER_ARGS_JSON" | jq -r '.x[]') or from the program.`,
	Bad:  "args:\n  hosts: {default: [web1, web2]}\nsteps:\n  - id: ping\n    run: ./ping.sh\n    env:\n      HOSTS: ${hosts}",
	Good: "args:\n  hosts: {default: [web1, web2]}\nsteps:\n  - id: ping\n    run: printf '%s' \"$LOBSTER_ARGS_JSON\" | jq -r '.hosts[]' | xargs ./ping.sh",
	Run:  runStructuredArgInTemplate,
}

func runStructuredArgInTemplate(p *Pass) {
	if len(p.Info.Args) == 0 {
		return
	}
	for i := range p.Info.Refs {
		r, ok := p.Info.Refs[i].Ref.(*ast.ArgRef)
		if !ok {
			continue
		}
		fd := p.Info.ArgBy[r.Name]
		if fd == nil {
			continue
		}
		def, ok := fd.Value.(*ast.ArgDef)
		if !ok || def.Default == nil {
			continue
		}
		var d source.Diagnostic
		switch v := ast.Resolve(def.Default.Value).(type) {
		case *ast.Sequence:
			d = p.Finding(ast.SpanOf(r), "arg %q is a list; \"${%s}\" renders as %q (a mapping would render as \"[object Object]\"). read it from LOBSTER_ARGS_JSON instead",
				r.Name, r.Name, aeShorten(aeJSString(v, 0), 60))
		case *ast.Mapping:
			d = p.Finding(ast.SpanOf(r), "arg %q is a mapping; \"${%s}\" renders as \"[object Object]\". read it from LOBSTER_ARGS_JSON instead", r.Name, r.Name)
		default:
			continue
		}
		d.Related = []source.Related{p.Related(ast.SpanOf(def.Default.Value), "the default is here")}
		p.Report(d)
	}
}

// aeJSString is JavaScript's String(value) of a YAML value.
func aeJSString(v ast.Value, depth int) string {
	switch v := ast.Resolve(v).(type) {
	case *ast.Scalar:
		switch v.Kind {
		case ast.Null:
			return "null"
		case ast.Bool:
			return strconv.FormatBool(v.Bool)
		case ast.Int, ast.Float:
			return strconv.FormatFloat(v.Num, 'f', -1, 64)
		}
		return v.Text
	case *ast.Sequence:
		if depth > 8 {
			return ""
		}
		parts := make([]string, len(v.Items))
		for i, it := range v.Items {
			// Array.prototype.join renders null and undefined as "".
			if s, ok := ast.Resolve(it).(*ast.Scalar); ok && s.Kind == ast.Null {
				continue
			}
			parts[i] = aeJSString(it, depth+1)
		}
		return strings.Join(parts, ",")
	case nil:
		return ""
	}
	return "[object Object]"
}
