package engine

import (
	"fmt"
	"unicode/utf16"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
)

// An Identity is the approver policy of an approval gate: who asked, who
// must approve, and whether the approver must be someone else.
type Identity struct {
	InitiatedBy              string
	RequiredApprover         string
	RequireDifferentApprover bool
}

// object is the identity as the reference stores and shows it: only the
// keys that are set.
func (id Identity) object() *jsvalue.Object {
	o := jsvalue.NewObject()
	if id.InitiatedBy != "" {
		o.Set("initiatedBy", id.InitiatedBy)
	}
	if id.RequiredApprover != "" {
		o.Set("requiredApprover", id.RequiredApprover)
	}
	if id.RequireDifferentApprover {
		o.Set("requireDifferentApprover", true)
	}
	return o
}

// identityOf reads a stored identity object back.
func identityOf(v any) Identity {
	o, _ := v.(*jsvalue.Object)
	if o == nil {
		return Identity{}
	}
	var id Identity
	id.InitiatedBy, _ = get(o, "initiatedBy").(string)
	id.RequiredApprover, _ = get(o, "requiredApprover").(string)
	id.RequireDifferentApprover, _ = get(o, "requireDifferentApprover").(bool)
	return id
}

// approvalConfig is what a step's `approval` field configures.
type approvalConfig struct {
	prompt   string // "" for the default "Approve {id}?"
	items    []any  // nil when not configured
	preview  string
	identity Identity
}

// approvalOf reads a step's approval field; ok is false when the value is
// not a gate (false, blank, null, an array, a number).
func approvalOf(f *ast.Field) (c approvalConfig, ok bool) {
	if f == nil {
		return c, false
	}
	switch v := Value(f.Value).(type) {
	case bool:
		return c, v
	case string:
		if js.Trim(v) == "" {
			return c, false
		}
		if v != "required" {
			c.prompt = v
		}
		return c, true
	case *jsvalue.Object:
		c.prompt, _ = get(v, "prompt").(string)
		c.items, _ = get(v, "items").([]any)
		c.preview, _ = get(v, "preview").(string)
		// When both spellings are given, the camelCase one wins.
		c.identity.InitiatedBy = stringOf(v, "initiatedBy", "initiated_by")
		c.identity.RequiredApprover = stringOf(v, "requiredApprover", "required_approver")
		for _, k := range []string{"requireDifferentApprover", "require_different_approver"} {
			if b, ok := get(v, k).(bool); ok {
				c.identity.RequireDifferentApprover = b
				break
			}
		}
		return c, true
	}
	return c, false
}

// withEnvDefaults fills the identity's gaps from the process environment.
func (id Identity) withEnvDefaults(getenv func(string) string) Identity {
	if id.InitiatedBy == "" {
		id.InitiatedBy = getenv("LOBSTER_APPROVAL_INITIATED_BY")
	}
	if id.RequiredApprover == "" {
		id.RequiredApprover = getenv("LOBSTER_APPROVAL_REQUIRED_APPROVER")
	}
	if !id.RequireDifferentApprover {
		switch js.ToLower(js.Trim(getenv("LOBSTER_APPROVAL_REQUIRE_DIFFERENT_APPROVER"))) {
		case "1", "true", "yes", "y":
			id.RequireDifferentApprover = true
		}
	}
	return id
}

// previewLimit is how much of a step's output an approval preview shows,
// in UTF-16 code units as JavaScript counts.
const previewLimit = 2000

// approvalRequest builds the request of the gate of step id, whose result
// is record. A result whose json carries a prompt
// (requiresApproval.prompt or prompt) supplies the prompt, items and
// preview, but never the identity: deliberately, data being approved does
// not choose who approves it.
func approvalRequest(id string, c approvalConfig, identity Identity, record *jsvalue.Object) *jsvalue.Object {
	var prompt, preview any
	var items []any
	data, _ := get(record, "json").(*jsvalue.Object)
	source := data
	if data != nil {
		if ra, _ := get(data, "requiresApproval").(*jsvalue.Object); ra != nil && jsvalue.Truthy(get(ra, "prompt")) {
			source = ra
		} else if !jsvalue.Truthy(get(data, "prompt")) {
			source = nil
		}
	}
	if source != nil {
		prompt = get(source, "prompt")
		items, _ = get(source, "items").([]any)
		if items == nil {
			items = []any{}
		}
		if p := get(source, "preview"); jsvalue.Truthy(p) {
			preview = p
		}
	} else {
		prompt = c.prompt
		if c.prompt == "" {
			prompt = "Approve " + id + "?"
		}
		items = c.items
		json := get(record, "json")
		if items == nil {
			switch v := json.(type) {
			case []any:
				items = v
			default:
				if json == jsvalue.Undefined {
					items = []any{}
				} else {
					items = []any{json}
				}
			}
		}
		text := c.preview
		if text == "" {
			stdout, _ := get(record, "stdout").(string)
			text = jsPrefix(js.Trim(stdout), previewLimit)
		}
		if text == "" && json != jsvalue.Undefined {
			text = jsPrefix(jsvalue.Stringify(json, ""), previewLimit)
		}
		if text != "" {
			preview = text
		}
	}
	req := jsvalue.Obj("type", "approval_request", "prompt", prompt, "items", items)
	if preview != nil {
		req.Set("preview", preview)
	}
	ido := identity.object()
	for _, k := range ido.Keys() {
		v, _ := ido.Get(k)
		req.Set(k, v)
	}
	return req
}

// ArgumentError is a resume the request itself makes impossible: a
// missing or wrong approver, a response that fails its schema. The CLI
// reports it as a parse_error (exit 2) and the state stays usable.
type ArgumentError struct{ Msg string }

func (e *ArgumentError) Error() string { return e.Msg }

// enforce checks the approver of step id's gate against its identity
// policy; approver is LOBSTER_APPROVAL_APPROVED_BY, trimmed.
func (id Identity) enforce(step, approver string) error {
	if id.RequiredApprover == "" && !id.RequireDifferentApprover {
		return nil
	}
	switch {
	case approver == "":
		return &ArgumentError{fmt.Sprintf("Workflow step %s approval requires approver identity; set LOBSTER_APPROVAL_APPROVED_BY", step)}
	case id.RequiredApprover != "" && approver != id.RequiredApprover:
		return &ArgumentError{fmt.Sprintf("Workflow step %s approval requires approver '%s', got '%s'", step, id.RequiredApprover, approver)}
	case id.RequireDifferentApprover && id.InitiatedBy != "" && approver == id.InitiatedBy:
		return &ArgumentError{fmt.Sprintf("Workflow step %s approval must be granted by someone other than '%s'", step, id.InitiatedBy)}
	}
	return nil
}

// approve records a granted approval on the gate's result.
func approve(record *jsvalue.Object, approver string) {
	record.Set("approved", true)
	if approver != "" {
		record.Set("approvedBy", approver)
	}
}

// syntheticResult is the result of a step with nothing to run (an
// approval-only step): built from its stdin value.
func syntheticResult(id string, stdin any) *jsvalue.Object {
	switch v := stdin.(type) {
	case nil:
		return jsvalue.Obj("id", id)
	case string:
		return jsvalue.Obj("id", id, "stdout", v, "json", ParseOutput(v))
	}
	if stdin == jsvalue.Undefined {
		return jsvalue.Obj("id", id)
	}
	return jsvalue.Obj("id", id, "stdout", jsvalue.Stringify(stdin, ""), "json", stdin)
}

// get is o[key], Undefined for a missing key or a nil object.
func get(o *jsvalue.Object, key string) any {
	if o == nil {
		return jsvalue.Undefined
	}
	v, ok := o.Get(key)
	if !ok {
		return jsvalue.Undefined
	}
	return v
}

// stringOf is the first of keys that holds a non-empty string in o.
func stringOf(o *jsvalue.Object, keys ...string) string {
	for _, k := range keys {
		if s, ok := get(o, k).(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// jsPrefix is s cut to at most n UTF-16 code units (String#slice(0, n)),
// never inside a character.
func jsPrefix(s string, n int) string {
	units := 0
	for i, r := range s {
		w := 1
		if utf16.RuneLen(r) == 2 {
			w = 2
		}
		if units+w > n {
			return s[:i]
		}
		units += w
	}
	return s
}
