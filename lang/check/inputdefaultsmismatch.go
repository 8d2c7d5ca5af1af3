package check

import (
	"encoding/json"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// InputDefaultsMismatch reports input.defaults that do not match input.responseSchema.
var InputDefaultsMismatch = &Analyzer{
	Name:     "input-defaults-mismatch",
	Severity: source.Warning,
	Summary:  "an input step's defaults do not validate against its responseSchema",
	Doc: `An input step passes ` + "`defaults`" + ` to the request unchecked, while the answer is
validated against ` + "`responseSchema`" + `. Defaults that do not match the schema suggest an answer that
would be rejected ("response failed schema validation").`,
	Bad: `- id: review
  input:
    prompt: Apply the labels?
    responseSchema:
      type: object
      properties:
        decision: {type: string, enum: [apply, skip]}
    defaults:
      decision: yes`,
	Good: `- id: review
  input:
    prompt: Apply the labels?
    responseSchema:
      type: object
      properties:
        decision: {type: string, enum: [apply, skip]}
    defaults:
      decision: apply`,
	Run: runInputDefaultsMismatch,
}

func runInputDefaultsMismatch(p *Pass) {
	for _, si := range p.Info.Steps {
		s := si.Step
		if s.Input == nil || si.Parent != nil {
			continue
		}
		in, ok := s.Input.Value.(*ast.Input)
		if !ok || in.ResponseSchema == nil || in.Defaults == nil {
			continue
		}
		if _, ok := ast.Resolve(in.ResponseSchema.Value).(*ast.Mapping); !ok {
			continue
		}
		data, err := json.Marshal(parser.JSONValue(in.ResponseSchema.Value))
		if err != nil {
			continue
		}
		var schema jsonschema.Schema
		if err := json.Unmarshal(data, &schema); err != nil {
			continue
		}
		rs, err := schema.Resolve(nil)
		if err != nil {
			continue // invalid-response-schema
		}
		if err := rs.Validate(parser.JSONValue(in.Defaults.Value)); err != nil {
			p.Reportf(ast.SpanOf(in.Defaults.Value), "input defaults do not match responseSchema %s", gateSchemaError(err))
		}
	}
}

// gateSchemaError turns a validator error into "at /path: message". The
// library wraps each level in "validating <schema path>: "; the path of the
// innermost level is turned into the path in the data (properties/K → /K,
// items → /*).
func gateSchemaError(err error) string {
	msg := err.Error()
	schemaPath := ""
	for strings.HasPrefix(msg, "validating ") {
		j := strings.Index(msg, ": ")
		if j < 0 {
			break
		}
		schemaPath = msg[len("validating "):j]
		msg = msg[j+2:]
	}
	var at strings.Builder
	segs := strings.Split(strings.TrimPrefix(schemaPath, "/"), "/")
	for k := 0; k < len(segs); k++ {
		switch segs[k] {
		case "properties":
			if k+1 < len(segs) {
				at.WriteString("/" + segs[k+1])
				k++
			}
		case "items", "additionalProperties":
			at.WriteString("/*")
		default:
			k = len(segs)
		}
	}
	path := at.String()
	if path == "" {
		path = "/"
	}
	return "at " + path + ": " + msg
}
