package config

import (
	_ "embed"

	"github.com/invopop/jsonschema"

	"github.com/lobsterdev/lobster/lang/schema"
)

// SchemaID is the $id of the configuration's JSON Schema: where the
// committed copy is published.
const SchemaID = "https://raw.githubusercontent.com/lobsterdev/lobster/main/schema/lobsterrc.schema.json"

//go:embed types.go
var typesSource string

// Schema returns the JSON Schema (draft 2020-12) of the configuration
// file, generated from the types of types.go (which the decoder reads the
// file into), indented by two spaces, with a final newline.
// schema/lobsterrc.schema.json is the committed copy.
func Schema() ([]byte, error) {
	return schema.Reflect(&File{}, typesSource, SchemaID, "Lobster project configuration (.lobsterrc.yaml)")
}

// severities are the values of rules:.
var severities = []any{"error", "warning", "info", "hint", "off"}

// JSONSchemaExtend gives the values of rules their enum and the keys of
// commands and env their patterns, which struct tags cannot say of a
// map's values.
func (File) JSONSchemaExtend(s *jsonschema.Schema) {
	if r, ok := s.Properties.Get("rules"); ok {
		r.AdditionalProperties = &jsonschema.Schema{Type: "string", Enum: severities}
	}
	if r, ok := s.Properties.Get("ignore"); ok {
		r.AdditionalProperties = &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "string"}}
	}
	if r, ok := s.Properties.Get("commands"); ok {
		r.PropertyNames = &jsonschema.Schema{Pattern: cmdName.String()}
	}
	if r, ok := s.Properties.Get("env"); ok && r.Items != nil {
		r.Items.Pattern = envName.String()
	}
}

// JSONSchemaExtend gives flag names their pattern.
func (Command) JSONSchemaExtend(s *jsonschema.Schema) {
	if r, ok := s.Properties.Get("flags"); ok {
		r.PropertyNames = &jsonschema.Schema{Pattern: flagName.String()}
	}
}

// JSONSchemaExtend gives shellcheck codes their pattern.
func (Shellcheck) JSONSchemaExtend(s *jsonschema.Schema) {
	if r, ok := s.Properties.Get("exclude"); ok && r.Items != nil {
		r.Items.Pattern = scCode.String()
	}
}
