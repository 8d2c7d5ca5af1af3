// Package schema describes the workflow format as Go types and generates its
// JSON Schema (draft 2020-12) from them with github.com/invopop/jsonschema:
// `lobster schema` prints it and schema/lobster.schema.json is the committed
// copy, for editors (yaml-language-server) and other tools. Reference writes
// docs/workflow-format.md, the reference of the format, from the same types.
//
// The schema checks the shape of a file: the keys the runtime reads, their
// types, enums and ranges, and the combinations the runtime rejects at load
// time (one execution per step, no approval, input or stdin on a loop, no
// input next to an execution, the execution of branches and sub-steps). It
// allows keys that the runtime ignores on the workflow, its args, steps,
// branches and sub-steps (real files carry metadata such as a step's
// description): reporting those is the job of lobster check. The closed
// objects (approval, input, retry, parallel, cost_limit) allow no other key.
// Where the runtime's rules depend on values (a blank run counts as absent,
// approval: false as no gate, duplicate ids), the schema is an
// approximation; lobster check is exact.
package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"

	"github.com/invopop/jsonschema"
)

// ID is the schema's $id: where the committed copy is published.
const ID = "https://raw.githubusercontent.com/lobsterdev/lobster/main/schema/lobster.schema.json"

//go:embed types.go
var typesSource string

// Generate returns the JSON Schema of workflow files, indented by two spaces,
// with a final newline.
func Generate() ([]byte, error) {
	return Reflect(&Workflow{}, typesSource, ID, "Lobster workflow file")
}

// Reflect returns the JSON Schema (draft 2020-12) of the type of v, a
// pointer to a struct, indented by two spaces, with a final newline: its
// $id is id, its title title, and its descriptions are the doc comments of
// the types and fields declared in src, the Go source of v's package that
// declares them (embedded by the caller). Other packages describe their
// own files with it (lang/config, the project configuration).
func Reflect(v any, src, id, title string) ([]byte, error) {
	comments, err := descriptions(src, reflect.TypeOf(v).Elem().PkgPath())
	if err != nil {
		return nil, err
	}
	r := &jsonschema.Reflector{
		ExpandedStruct:             true,
		RequiredFromJSONSchemaTags: true,
		CommentMap:                 comments,
	}
	s := r.Reflect(v)
	s.ID = jsonschema.ID(id)
	s.Title = title
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return unescapeHTML(buf.Bytes()), nil
}

// unescapeHTML undoes the \u003c, \u003e and \u0026 escapes that
// encoding/json puts into strings (the reflector's types marshal themselves
// with json.Marshal, whatever the encoder's setting), so that descriptions
// read "<id>" in the file.
func unescapeHTML(b []byte) []byte {
	out := make([]byte, 0, len(b))
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case !inString:
			inString = c == '"'
		case c == '"':
			inString = false
		case c == '\\' && i+1 < len(b):
			if i+5 < len(b) && b[i+1] == 'u' {
				switch string(b[i+2 : i+6]) {
				case "003c":
					out = append(out, '<')
					i += 5
					continue
				case "003e":
					out = append(out, '>')
					i += 5
					continue
				case "0026":
					out = append(out, '&')
					i += 5
					continue
				}
			}
			out = append(out, c, b[i+1])
			i++
			continue
		}
		out = append(out, c)
	}
	return out
}

// descriptions reads the doc comments of the types declared in src, Go
// source of the package pkg, into the reflector's comment map:
// "<pkg>.<Type>" and "<pkg>.<Type>.<Field>".
func descriptions(src, pkg string) (map[string]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "types.go", src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("schema: parsing the types of %s: %v", pkg, err)
	}
	m := map[string]string{}
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.TYPE {
			continue
		}
		for _, spec := range gd.Specs {
			ts := spec.(*ast.TypeSpec)
			doc := ts.Doc
			if doc == nil {
				doc = gd.Doc
			}
			m[pkg+"."+ts.Name.Name] = typeDescription(ts.Name.Name, doc.Text())
			st, ok := ts.Type.(*ast.StructType)
			if !ok {
				continue
			}
			for _, field := range st.Fields.List {
				text := field.Doc.Text()
				if text == "" {
					text = field.Comment.Text()
				}
				for _, name := range field.Names {
					m[pkg+"."+ts.Name.Name+"."+name.Name] = oneLine(text)
				}
			}
		}
	}
	return m, nil
}

// typeDescription is a type's doc comment as a description: "Step is one
// step of the workflow." becomes "One step of the workflow.", "Retry
// re-runs a failed step." becomes "Re-runs a failed step."
func typeDescription(name, doc string) string {
	d := oneLine(doc)
	rest, ok := strings.CutPrefix(d, name+" is ")
	if !ok {
		rest, ok = strings.CutPrefix(d, name+" ") // "Retry re-runs…"
	}
	if ok && rest != "" {
		d = strings.ToUpper(rest[:1]) + rest[1:]
	}
	return d
}

// oneLine joins the lines of a comment with spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// The methods below adjust the reflected schemas where struct tags cannot.

// open allows keys that the type does not list.
func open(s *jsonschema.Schema) { s.AdditionalProperties = jsonschema.TrueSchema }

// present is a condition on a key: a schema its value must match to count
// as set (nil: any value).
type present struct {
	key   string
	value *jsonschema.Schema
}

// requireOneOf requires at least one of the keys, with a value that counts.
func requireOneOf(s *jsonschema.Schema, keys ...present) {
	for _, k := range keys {
		alt := &jsonschema.Schema{Required: []string{k.key}}
		if k.value != nil {
			alt.Properties = jsonschema.NewProperties()
			alt.Properties.Set(k.key, k.value)
		}
		s.AnyOf = append(s.AnyOf, alt)
	}
}

var (
	one = uint64(1)
	// nonEmpty is a string that counts as set: "" does not (the runtime
	// tests the value's truth).
	nonEmpty = &jsonschema.Schema{Type: "string", MinLength: &one}
	// nonBlank is a string that counts as set in a for_each sub-step, whose
	// commands are trimmed first.
	nonBlank = &jsonschema.Schema{Type: "string", Pattern: `\S`}
	// gate is an approval that is a gate: false and "" are not.
	gate = &jsonschema.Schema{Not: &jsonschema.Schema{Enum: []any{false, ""}}}
)

// exclude says that a mapping with the key may not have any of the others.
func exclude(s *jsonschema.Schema, key, why string, others ...string) {
	if s.DependentSchemas == nil {
		s.DependentSchemas = map[string]*jsonschema.Schema{}
	}
	props := jsonschema.NewProperties()
	for _, o := range others {
		props.Set(o, jsonschema.FalseSchema)
	}
	s.DependentSchemas[key] = &jsonschema.Schema{Description: why, Properties: props}
}

// forbid adds properties that the runtime rejects, with the reason.
func forbid(s *jsonschema.Schema, why string, keys ...string) {
	for _, k := range keys {
		s.Properties.Set(k, &jsonschema.Schema{Description: why, Not: &jsonschema.Schema{}})
	}
}

// JSONSchemaExtend opens the workflow to metadata keys.
func (Workflow) JSONSchemaExtend(s *jsonschema.Schema) { open(s) }

// JSONSchemaExtend opens an arg definition to metadata keys.
func (Arg) JSONSchemaExtend(s *jsonschema.Schema) { open(s) }

// The execution fields of a step.
var executions = []string{"run", "command", "pipeline", "workflow", "parallel", "for_each"}

// without returns the keys less those named.
func without(keys []string, drop ...string) []string {
	var out []string
	for _, k := range keys {
		if !contains(drop, k) {
			out = append(out, k)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// JSONSchemaExtend adds a step's shape: at least one execution or gate, at
// most one execution (run and command count as one), steps with for_each,
// and what loops and input steps cannot have.
func (Step) JSONSchemaExtend(s *jsonschema.Schema) {
	open(s)
	requireOneOf(s, present{"run", nonEmpty}, present{"command", nonEmpty}, present{"pipeline", nonEmpty},
		present{"workflow", nil}, present{"parallel", nil}, present{"for_each", nil},
		present{"approval", gate}, present{"input", nil})
	s.DependentRequired = map[string][]string{"for_each": {"steps"}}
	const one = "A step can only define one of run (or command), pipeline, workflow, parallel or for_each."
	for _, k := range executions {
		others := without(executions, k)
		if k == "run" || k == "command" {
			others = without(others, "run", "command")
		}
		why := one
		if k == "for_each" {
			others = append(others, "approval", "input", "stdin")
			why = "A for_each loop cannot also define run, command, pipeline, workflow or parallel, nor approval, input or stdin (put a gate in a separate step after the loop; the loop's input is the for_each expression)."
		} else {
			others = append(others, "input")
		}
		exclude(s, k, why, others...)
	}
	exclude(s, "input", "An input step cannot define run, command, pipeline, workflow, parallel, for_each or approval.",
		append(executions, "approval")...)
	exclude(s, "approval", "A step cannot define both approval and input, and a for_each loop cannot have an approval.",
		"input", "for_each")
}

// JSONSchemaExtend adds a branch's shape: run (or command) or pipeline.
func (Branch) JSONSchemaExtend(s *jsonschema.Schema) {
	open(s)
	requireOneOf(s, present{"run", nonEmpty}, present{"command", nonEmpty}, present{"pipeline", nonEmpty})
	const why = "A parallel branch can only define one of run (or command) or pipeline."
	exclude(s, "run", why, "pipeline")
	exclude(s, "command", why, "pipeline")
	exclude(s, "pipeline", why, "run", "command")
}

// JSONSchemaExtend adds a sub-step's shape: exactly one of run, command or
// pipeline, and no gate, sub-workflow, parallel block or nested loop.
func (SubStep) JSONSchemaExtend(s *jsonschema.Schema) {
	open(s)
	requireOneOf(s, present{"run", nonBlank}, present{"command", nonBlank}, present{"pipeline", nonBlank})
	const why = "A for_each sub-step can only define one of run, command or pipeline."
	exclude(s, "run", why, "command", "pipeline")
	exclude(s, "command", why, "run", "pipeline")
	exclude(s, "pipeline", why, "run", "command")
	forbid(s, "Not allowed in a for_each sub-step: approval and input gates go in a separate step after the loop.", "approval", "input")
	forbid(s, "Not allowed in a for_each sub-step: a sub-step cannot define workflow, parallel or for_each.", "workflow", "parallel", "for_each")
}

// JSONSchemaExtend makes an approval true/false, a string or the mapping.
func (Approval) JSONSchemaExtend(s *jsonschema.Schema) {
	object := *s
	object.Description = "The approval request in full: prompt, items, preview and the approver's identity."
	*s = jsonschema.Schema{
		Description: s.Description,
		AnyOf: []*jsonschema.Schema{
			{Type: "boolean", Description: "true asks \"Approve <id>?\"; false is no gate."},
			{Type: "string", Description: "The prompt; \"required\" asks \"Approve <id>?\"; a blank string is no gate."},
			&object,
		},
	}
}
