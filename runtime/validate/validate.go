// Package validate checks JSON values against a JSON Schema (the responses
// to input gates) with github.com/google/jsonschema-go, and words the first
// failure as the reference's validator (Ajv) does: "must be >= 1" at
// "/count".
//
// The library says whether a value is valid; where and why are found here
// by descending into properties and items to the innermost value that fails
// on its own, as Ajv reports it. (We used a validator with structured errors
// before, but it compiles its meta-schemas when the program starts: 25 ms on
// every lobster command.)
package validate

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lobsterdev/lobster/lang/jsvalue"
)

// A Failure is a value that does not match its schema: where (a JSON
// Pointer into the value, "/" for the value itself) and why, in Ajv's
// words.
type Failure struct {
	Path    string
	Message string
}

func (f *Failure) Error() string { return "at " + f.Path + ": " + f.Message }

// ErrBadSchema is a schema that cannot be used.
var ErrBadSchema = errors.New("schema is invalid")

// Value validates v against schema. Both are runtime values (jsvalue
// objects, []any, float64, string, bool, nil). It returns nil, a *Failure,
// or ErrBadSchema.
func Value(schema, v any) error {
	data, err := json.Marshal(plain(schema))
	if err != nil {
		return ErrBadSchema
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		return ErrBadSchema
	}
	root, err := s.Resolve(nil)
	if err != nil {
		return ErrBadSchema
	}
	instance := plain(v)
	if root.Validate(instance) == nil {
		return nil
	}
	order := map[*jsonschema.Schema][]string{}
	propertyOrder(schema, &s, order)
	return locate(&s, instance, nil, order)
}

// propertyOrder records the order in which the schema's text lists each
// object schema's properties, the order Ajv checks them in.
func propertyOrder(text any, s *jsonschema.Schema, order map[*jsonschema.Schema][]string) {
	o, _ := text.(*jsvalue.Object)
	if o == nil || s == nil {
		return
	}
	if props, ok := o.Get("properties"); ok {
		if po, _ := props.(*jsvalue.Object); po != nil {
			order[s] = po.Keys()
			for _, name := range po.Keys() {
				child, _ := po.Get(name)
				propertyOrder(child, s.Properties[name], order)
			}
		}
	}
	if items, ok := o.Get("items"); ok {
		propertyOrder(items, s.Items, order)
	}
}

// locate finds the innermost failure of instance under s, which fails.
func locate(s *jsonschema.Schema, instance any, path []string, order map[*jsonschema.Schema][]string) *Failure {
	here := func(msg string) *Failure {
		p := "/" + strings.Join(path, "/")
		return &Failure{Path: p, Message: msg}
	}
	// Ajv checks the type first, then required, then the children.
	if msg := typeMessage(s, instance); msg != "" {
		return here(msg)
	}
	switch inst := instance.(type) {
	case map[string]any:
		for _, name := range s.Required {
			if _, ok := inst[name]; !ok {
				return here("must have required property '" + name + "'")
			}
		}
		names, ok := order[s]
		if !ok {
			names = sortedKeys(s.Properties)
		}
		for _, name := range names {
			if child, ok := inst[name]; ok && s.Properties[name] != nil && !valid(s.Properties[name], child) {
				return locate(s.Properties[name], child, append(path, escape(name)), order)
			}
		}
	case []any:
		if s.Items != nil {
			for i, child := range inst {
				if !valid(s.Items, child) {
					return locate(s.Items, child, append(path, fmt.Sprint(i)), order)
				}
			}
		}
	}
	return here(keywordMessage(s, instance))
}

// valid says whether instance matches s on its own.
func valid(s *jsonschema.Schema, instance any) bool {
	r, err := s.Resolve(nil)
	return err == nil && r.Validate(instance) == nil
}

// keywordMessage words the failure of a keyword other than type and
// required at this value, found by checking each keyword alone in Ajv's
// order.
func keywordMessage(s *jsonschema.Schema, instance any) string {
	num := func(f *float64) string { return jsvalue.FormatNumber(*f) }
	checks := []struct {
		set  bool
		only jsonschema.Schema
		msg  func() string
	}{
		{s.Minimum != nil, jsonschema.Schema{Minimum: s.Minimum}, func() string { return "must be >= " + num(s.Minimum) }},
		{s.Maximum != nil, jsonschema.Schema{Maximum: s.Maximum}, func() string { return "must be <= " + num(s.Maximum) }},
		{s.ExclusiveMinimum != nil, jsonschema.Schema{ExclusiveMinimum: s.ExclusiveMinimum}, func() string { return "must be > " + num(s.ExclusiveMinimum) }},
		{s.ExclusiveMaximum != nil, jsonschema.Schema{ExclusiveMaximum: s.ExclusiveMaximum}, func() string { return "must be < " + num(s.ExclusiveMaximum) }},
		{s.MultipleOf != nil, jsonschema.Schema{MultipleOf: s.MultipleOf}, func() string { return "must be multiple of " + num(s.MultipleOf) }},
		{s.MaxLength != nil, jsonschema.Schema{MaxLength: s.MaxLength}, func() string { return fmt.Sprintf("must NOT have more than %d characters", *s.MaxLength) }},
		{s.MinLength != nil, jsonschema.Schema{MinLength: s.MinLength}, func() string { return fmt.Sprintf("must NOT have fewer than %d characters", *s.MinLength) }},
		{s.Pattern != "", jsonschema.Schema{Pattern: s.Pattern}, func() string { return `must match pattern "` + s.Pattern + `"` }},
		{s.MaxItems != nil, jsonschema.Schema{MaxItems: s.MaxItems}, func() string { return fmt.Sprintf("must NOT have more than %d items", *s.MaxItems) }},
		{s.MinItems != nil, jsonschema.Schema{MinItems: s.MinItems}, func() string { return fmt.Sprintf("must NOT have fewer than %d items", *s.MinItems) }},
		{s.UniqueItems, jsonschema.Schema{UniqueItems: true}, func() string { return "must NOT have duplicate items" }},
		{s.MaxProperties != nil, jsonschema.Schema{MaxProperties: s.MaxProperties}, func() string { return fmt.Sprintf("must NOT have more than %d properties", *s.MaxProperties) }},
		{s.MinProperties != nil, jsonschema.Schema{MinProperties: s.MinProperties}, func() string { return fmt.Sprintf("must NOT have fewer than %d properties", *s.MinProperties) }},
		{s.AdditionalProperties != nil, jsonschema.Schema{Properties: s.Properties, AdditionalProperties: s.AdditionalProperties}, func() string { return "must NOT have additional properties" }},
		{s.Enum != nil, jsonschema.Schema{Enum: s.Enum}, func() string { return "must be equal to one of the allowed values" }},
		{s.Const != nil, jsonschema.Schema{Const: s.Const}, func() string { return "must be equal to constant" }},
		{s.AnyOf != nil, jsonschema.Schema{AnyOf: s.AnyOf}, func() string { return "must match a schema in anyOf" }},
		{s.OneOf != nil, jsonschema.Schema{OneOf: s.OneOf}, func() string { return "must match exactly one schema in oneOf" }},
		{s.Not != nil, jsonschema.Schema{Not: s.Not}, func() string { return "must NOT be valid" }},
	}
	for _, c := range checks {
		if c.set && !valid(&c.only, instance) {
			return c.msg()
		}
	}
	return "must match the schema"
}

// typeMessage is Ajv's message when instance has none of s's types.
func typeMessage(s *jsonschema.Schema, instance any) string {
	types := s.Types
	if s.Type != "" {
		types = []string{s.Type}
	}
	if len(types) == 0 || valid(&jsonschema.Schema{Type: s.Type, Types: s.Types}, instance) {
		return ""
	}
	return "must be " + strings.Join(types, ",")
}

func sortedKeys(m map[string]*jsonschema.Schema) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func escape(segment string) string {
	return strings.ReplaceAll(strings.ReplaceAll(segment, "~", "~0"), "/", "~1")
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
	if v == jsvalue.Undefined {
		return nil
	}
	return v
}
