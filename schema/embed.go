// Package schema holds the JSON Schema (draft 2020-12) of workflow files,
// lobster.schema.json. lang/schema generates it from Go types with
// invopop/jsonschema, and its test keeps this file equal to the generated
// one; the file is embedded here so that `lobster schema` prints it without
// carrying the generator.
package schema

import _ "embed"

// JSON is the schema, as committed.
//
//go:embed lobster.schema.json
var JSON []byte
