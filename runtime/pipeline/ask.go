package pipeline

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/validate"
)

// defaultAskSchema is ask's response schema when --schema is not given:
// {decision: approve|reject|redraft, feedback?}.
func defaultAskSchema() *jsvalue.Object {
	return jsvalue.Obj(
		"type", "object",
		"properties", jsvalue.Obj(
			"decision", jsvalue.Obj("type", "string", "enum", []any{"approve", "reject", "redraft"}),
			"feedback", jsvalue.Obj("type", "string", "description", "Feedback for redraft"),
		),
		"required", []any{"decision"},
	)
}

// maxSubject is how many UTF-16 units of the input ask shows as its
// subject.
const maxSubject = 2000

// askCommand is ask: request structured input. In tool mode it
// suspends the run at this stage (a same-stage resume gives it the
// answer); with --emit, or without a terminal in human mode, it outputs an
// input request and halts; on a terminal it asks.
func askCommand(ctx context.Context, c *Call) (Output, error) {
	prompt, ok := c.Args.String("prompt")
	if !ok {
		prompt = "Input required"
	}
	var schema any = defaultAskSchema()
	if text, ok := c.Args.String("schema"); ok {
		v, err := jsvalue.Parse([]byte(text))
		if err != nil {
			return Output{}, errors.New("ask --schema must be valid JSON")
		}
		if _, ok := v.(*jsvalue.Object); !ok {
			return Output{}, errors.New("ask --schema must decode to a JSON schema object")
		}
		schema = v
	}
	if errors.Is(validate.Value(schema, nil), validate.ErrBadSchema) {
		return Output{}, errors.New("ask response schema is invalid")
	}

	// A resumed run: the answer was validated by the resume; this stage
	// outputs it without reading its input again.
	if c.Resume != nil {
		c.Input.Close()
		if err := validate.Value(schema, c.Resume.Response); err != nil {
			return Output{}, askFailure(err)
		}
		return Output{Items: []any{c.Resume.Response}}, nil
	}

	items, err := c.Input.Drain(ctx)
	if err != nil {
		return Output{}, err
	}
	items = nonNil(items)
	var subject *jsvalue.Object
	if c.Args.Truthy("subject-from-stdin", "subjectFromStdin") && len(items) > 0 {
		parts := make([]string, len(items))
		for i, it := range items {
			if s, ok := it.(string); ok {
				parts[i] = s
			} else {
				parts[i] = compact(it)
			}
		}
		subject = jsvalue.Obj("text", utf16Slice(strings.Join(parts, "\n"), maxSubject))
	}
	emit := c.Args.Truthy("emit")

	if c.Env.Mode == Tool && !emit {
		req := jsvalue.Obj("type", "input_request", "prompt", prompt, "responseSchema", schema)
		if subject != nil {
			req.Set("subject", subject)
		}
		return Output{Items: []any{req}, Halt: true, suspend: &suspension{prompt: prompt, schema: schema, subject: subject}}, nil
	}
	if emit || !c.Env.Interactive {
		req := jsvalue.Obj("type", "input_request", "prompt", prompt, "responseSchema", schema)
		if subject != nil {
			req.Set("subject", subject)
		}
		req.Set("items", items)
		return Output{Items: []any{req}, Halt: true}, nil
	}

	if _, err := fmt.Fprintf(c.Env.Stdout, "%s\n> ", source.Printable(prompt)); err != nil {
		return Output{}, err
	}
	line, err := readLine(ctx, c.Env.Stdin, 0)
	if err != nil {
		return Output{}, err
	}
	text := js.Trim(line)
	var candidates []any
	if v, err := jsvalue.Parse([]byte(text)); err != nil {
		candidates = []any{text, jsvalue.Obj("decision", text)}
	} else if s, ok := v.(string); ok {
		candidates = []any{s, jsvalue.Obj("decision", s)}
	} else {
		candidates = []any{v}
	}
	var last error
	for _, cand := range candidates {
		if last = validate.Value(schema, cand); last == nil {
			return Output{Items: []any{cand}}, nil
		}
	}
	return Output{}, askFailure(last)
}

// askFailure words a validation failure of an answer.
func askFailure(err error) error {
	var f *validate.Failure
	if errors.As(err, &f) {
		return fmt.Errorf("ask response failed schema validation at %s: %s", f.Path, f.Message)
	}
	if errors.Is(err, validate.ErrBadSchema) {
		return errors.New("ask response schema is invalid")
	}
	return err
}

// suspension is a same-stage input request: the run stops at this stage,
// and a resume runs the stage again with the answer.
type suspension struct {
	prompt  string
	schema  any
	subject *jsvalue.Object // nil when there is none
}

// ResumeInput is the answer a resumed stage receives.
type ResumeInput struct {
	Response any
}
