package engine

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/validate"
)

// inputConfig is what a step's `input` field configures.
type inputConfig struct {
	prompt   any
	schema   any
	defaults any // Undefined when not given
}

func inputOf(f *ast.Field) inputConfig {
	o, _ := Value(f.Value).(*jsvalue.Object)
	return inputConfig{prompt: get(o, "prompt"), schema: get(o, "responseSchema"), defaults: get(o, "defaults")}
}

// inputSubject is what an input step shows: its stdin
// when it has one, else the output of the last completed step (json, else
// response, else stdout), else null.
func inputSubject(stdin any, hasStdin bool, last *jsvalue.Object) any {
	if hasStdin {
		return stdin
	}
	if last == nil {
		return nil
	}
	for _, k := range []string{"json", "response", "stdout"} {
		if v := get(last, k); v != jsvalue.Undefined {
			return v
		}
	}
	return nil
}

// inputRequest is the request of an input step, without its token.
func inputRequest(c inputConfig, subject any) *jsvalue.Object {
	req := jsvalue.Obj("type", "input_request", "prompt", c.prompt, "responseSchema", c.schema)
	if c.defaults != jsvalue.Undefined {
		req.Set("defaults", c.defaults)
	}
	req.Set("subject", subject)
	return req
}

// Envelope size control for needs_input.
const (
	defaultMaxEnvelope = 512_000
	minMaxEnvelope     = 1_024
	maxInlineSubject   = 192_000
)

// maxEnvelope is LOBSTER_MAX_TOOL_ENVELOPE_BYTES, or the default for an
// unset, invalid or too small value.
func maxEnvelope(getenv func(string) string) int {
	n, err := strconv.Atoi(getenv("LOBSTER_MAX_TOOL_ENVELOPE_BYTES"))
	if err != nil || n < minMaxEnvelope {
		return defaultMaxEnvelope
	}
	return n
}

// fitInputRequest shrinks the subject of req (which already carries its
// token) until the tool envelope fits in limit bytes: first a subject over
// 192,000 bytes of JSON becomes a 2,000-character preview, then the preview
// goes too. The full subject stays in the resume state.
func fitInputRequest(step string, req *jsvalue.Object, limit int) error {
	size := func() int {
		return len(jsvalue.Stringify(envelope.Tool(envelope.Result{Status: envelope.StatusNeedsInput, RequiresInput: req}), "  ")) + 1
	}
	if size() <= limit {
		return nil
	}
	subject := jsvalue.Stringify(get(req, "subject"), "")
	if len(subject) > maxInlineSubject {
		req.Set("subject", jsvalue.Obj("truncated", true, "bytes", float64(len(subject)), "preview", jsPrefix(subject, previewLimit)))
		if size() <= limit {
			return nil
		}
	}
	req.Set("subject", jsvalue.Obj("truncated", true, "bytes", float64(len(subject)), "preview", "[subject omitted: envelope size limit]"))
	if size() <= limit {
		return nil
	}
	return fmt.Errorf("Workflow input step %s needs_input envelope exceeds %d bytes even after subject truncation", step, limit)
}

// checkResponse validates an input response against its schema.
func checkResponse(step string, schema, response any) error {
	err := validate.Value(schema, response)
	var f *validate.Failure
	switch {
	case err == nil:
		return nil
	case errors.As(err, &f):
		return &ArgumentError{fmt.Sprintf("Workflow input step %s response failed schema validation at %s: %s", step, f.Path, f.Message)}
	case errors.Is(err, validate.ErrBadSchema):
		return &ArgumentError{fmt.Sprintf("Workflow input step %s response schema is invalid", step)}
	}
	return err
}
