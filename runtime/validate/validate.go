// Package validate checks JSON values against a JSON Schema (resume
// responses of input gates) with github.com/santhosh-tekuri/jsonschema, and
// words the first failure as the reference's validator (Ajv) does:
// "must be >= 1" at "/count".
package validate

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/lobsterdev/lobster/runtime/jsvalue"
)

// A Failure is a value that does not match its schema: where (a JSON
// Pointer into the value, "/" for the value itself) and why, in Ajv's
// words.
type Failure struct {
	Path    string
	Message string
}

func (f *Failure) Error() string { return "at " + f.Path + ": " + f.Message }

// ErrBadSchema is a schema that cannot be compiled.
var ErrBadSchema = errors.New("schema is invalid")

// Value validates v against schema. Both are runtime values (jsvalue
// objects, []any, float64, string, bool, nil). It returns nil, a *Failure,
// or ErrBadSchema.
func Value(schema, v any) error {
	c := jsonschema.NewCompiler()
	// Ajv's default draft is draft-07.
	c.DefaultDraft(jsonschema.Draft7)
	if err := c.AddResource("lobster:response-schema", plain(schema)); err != nil {
		return ErrBadSchema
	}
	sch, err := c.Compile("lobster:response-schema")
	if err != nil {
		return ErrBadSchema
	}
	err = sch.Validate(plain(v))
	var verr *jsonschema.ValidationError
	if err == nil || !errors.As(err, &verr) {
		return err
	}
	leaf := firstLeaf(verr)
	path := "/" + strings.Join(escapePointer(leaf.InstanceLocation), "/")
	return &Failure{Path: path, Message: message(leaf.ErrorKind)}
}

// firstLeaf is the first innermost failure: what Ajv, which stops at its
// first error, reports.
func firstLeaf(e *jsonschema.ValidationError) *jsonschema.ValidationError {
	for len(e.Causes) > 0 {
		switch e.ErrorKind.(type) {
		case *kind.AnyOf, *kind.OneOf, *kind.Not:
			// Ajv reports the combinator itself, not its branches.
			return e
		}
		e = e.Causes[0]
	}
	return e
}

func escapePointer(segments []string) []string {
	out := make([]string, len(segments))
	for i, s := range segments {
		out[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
	}
	return out
}

// message words an error kind as Ajv's English messages do.
func message(k jsonschema.ErrorKind) string {
	switch k := k.(type) {
	case *kind.Type:
		return "must be " + strings.Join(k.Want, ",")
	case *kind.Required:
		return "must have required property '" + k.Missing[0] + "'"
	case *kind.Minimum:
		return "must be >= " + rat(k.Want)
	case *kind.Maximum:
		return "must be <= " + rat(k.Want)
	case *kind.ExclusiveMinimum:
		return "must be > " + rat(k.Want)
	case *kind.ExclusiveMaximum:
		return "must be < " + rat(k.Want)
	case *kind.MultipleOf:
		return "must be multiple of " + rat(k.Want)
	case *kind.MinLength:
		return fmt.Sprintf("must NOT have fewer than %d characters", k.Want)
	case *kind.MaxLength:
		return fmt.Sprintf("must NOT have more than %d characters", k.Want)
	case *kind.MinItems:
		return fmt.Sprintf("must NOT have fewer than %d items", k.Want)
	case *kind.MaxItems:
		return fmt.Sprintf("must NOT have more than %d items", k.Want)
	case *kind.MinProperties:
		return fmt.Sprintf("must NOT have fewer than %d properties", k.Want)
	case *kind.MaxProperties:
		return fmt.Sprintf("must NOT have more than %d properties", k.Want)
	case *kind.Enum:
		return "must be equal to one of the allowed values"
	case *kind.Const:
		return "must be equal to constant"
	case *kind.Pattern:
		return `must match pattern "` + k.Want + `"`
	case *kind.Format:
		return `must match format "` + k.Want + `"`
	case *kind.AdditionalProperties:
		return "must NOT have additional properties"
	case *kind.UniqueItems:
		return fmt.Sprintf("must NOT have duplicate items (items ## %d and %d are identical)", k.Duplicates[1], k.Duplicates[0])
	case *kind.AnyOf:
		return "must match a schema in anyOf"
	case *kind.OneOf:
		return "must match exactly one schema in oneOf"
	case *kind.Not:
		return "must NOT be valid"
	case *kind.FalseSchema:
		return "boolean schema is false"
	case *kind.DependentRequired:
		return fmt.Sprintf("must have property %s when property %s is present", k.Missing[0], k.Prop)
	}
	return strings.TrimSpace(fmt.Sprint(k))
}

// rat prints a schema bound as JavaScript prints the number.
func rat(r *big.Rat) string {
	f, _ := r.Float64()
	return jsvalue.FormatNumber(f)
}

// plain converts a runtime value into the types the validator reads.
func plain(v any) any {
	switch v := v.(type) {
	case *jsvalue.Object:
		m := make(map[string]any, v.Len())
		for _, k := range v.Keys() {
			x, _ := v.Get(k)
			if x == jsvalue.Undefined {
				continue
			}
			m[k] = plain(x)
		}
		return m
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = plain(x)
		}
		return out
	}
	return v
}
