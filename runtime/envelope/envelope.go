// Package envelope builds what lobster prints for a run: the tool-mode
// JSON envelope, with the reference's keys in the reference's order, and the
// human-mode rendering of the same result.
package envelope

import (
	"io"

	"github.com/lobsterdev/lobster/lang/jsvalue"
)

// Statuses of a finished run.
const (
	StatusOK            = "ok"
	StatusNeedsApproval = "needs_approval"
	StatusNeedsInput    = "needs_input"
	StatusCancelled     = "cancelled"
)

// Error types of a failed run. ValidationError is ours: the checker found
// errors and nothing ran.
const (
	ParseError      = "parse_error"
	RuntimeError    = "runtime_error"
	DoctorError     = "doctor_error"
	ValidationError = "validation_error"
)

// A Result is a finished run: its status, its output items (empty for a
// pause or a cancellation), and the request of a pause.
type Result struct {
	Status           string
	Output           []any
	RequiresApproval *jsvalue.Object // for needs_approval
	RequiresInput    *jsvalue.Object // for needs_input
}

// Tool is the tool-mode envelope of r: protocolVersion, ok, status,
// output, requiresApproval, requiresInput, every key always present.
func Tool(r Result) *jsvalue.Object {
	output := r.Output
	if output == nil || r.Status != StatusOK {
		output = []any{}
	}
	return jsvalue.Obj(
		"protocolVersion", 1.0,
		"ok", true,
		"status", r.Status,
		"output", output,
		"requiresApproval", orNull(r.RequiresApproval, r.Status == StatusNeedsApproval),
		"requiresInput", orNull(r.RequiresInput, r.Status == StatusNeedsInput),
	)
}

// Failure is the tool-mode envelope of a failed run; extra key, value
// pairs follow message inside error (ValidationError lists diagnostics).
func Failure(errorType, message string, extra ...any) *jsvalue.Object {
	e := jsvalue.Obj("type", errorType, "message", message)
	for i := 0; i+1 < len(extra); i += 2 {
		e.Set(extra[i].(string), extra[i+1])
	}
	return jsvalue.Obj("protocolVersion", 1.0, "ok", false, "error", e)
}

// Human is what human mode prints for r, or nil for nothing: a pause
// prints {status, output: [], requiresApproval, requiresInput}; a finished
// run its output items, unless there are none.
func Human(r Result) any {
	switch r.Status {
	case StatusNeedsApproval, StatusNeedsInput:
		return jsvalue.Obj(
			"status", r.Status,
			"output", []any{},
			"requiresApproval", orNull(r.RequiresApproval, true),
			"requiresInput", orNull(r.RequiresInput, true),
		)
	case StatusOK:
		if len(r.Output) > 0 {
			return r.Output
		}
	}
	return nil
}

// Write prints v as the CLI does: JSON indented by two spaces, then a
// newline. A nil v prints nothing.
func Write(w io.Writer, v any) error {
	if v == nil {
		return nil
	}
	_, err := io.WriteString(w, jsvalue.Stringify(v, "  ")+"\n")
	return err
}

// orNull is o when it applies, else JSON null.
func orNull(o *jsvalue.Object, applies bool) any {
	if o == nil || !applies {
		return nil
	}
	return o
}

// OutputItems is the output of a run whose last step has this result
// (each argument jsvalue.Undefined when the step has no such field): its
// json, else its response, else its stdout; an array is the items
// themselves, anything else one item, and empty stdout none.
func OutputItems(json, response, stdout any) []any {
	for _, v := range []any{json, response} {
		if v == jsvalue.Undefined {
			continue
		}
		if items, ok := v.([]any); ok {
			return items
		}
		return []any{v}
	}
	if s, ok := stdout.(string); ok && s != "" {
		return []any{s}
	}
	return []any{}
}
