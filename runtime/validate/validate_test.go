package validate

import (
	"errors"
	"testing"

	"github.com/lobsterdev/lobster/lang/jsvalue"
)

func parse(t *testing.T, text string) any {
	t.Helper()
	v, err := jsvalue.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The messages recorded from the reference (Ajv) for the same schema and
// response.
func TestAjvMessages(t *testing.T) {
	schema := `{"type":"object","properties":{"count":{"type":"integer","minimum":1},"zeta":{"type":"string","minLength":3},"name":{"type":"string","minLength":2,"pattern":"^[a-z]+$"},"tags":{"type":"array","maxItems":1},"mode":{"enum":["a","b"]},"nested":{"type":"object","properties":{"list":{"type":"array","items":{"type":"object","properties":{"x":{"type":"number"}}}}}}},"required":["count"]}`
	for _, tc := range []struct{ response, want string }{
		{`{"count":0}`, "at /count: must be >= 1"},
		{`{}`, "at /: must have required property 'count'"},
		{`{"count":"x"}`, "at /count: must be integer"},
		{`{"count":1.5}`, "at /count: must be integer"},
		{`{"count":1,"name":"a"}`, "at /name: must NOT have fewer than 2 characters"},
		{`{"count":1,"name":"AB"}`, `at /name: must match pattern "^[a-z]+$"`},
		{`{"count":1,"tags":[1,2]}`, "at /tags: must NOT have more than 1 items"},
		{`{"count":1,"mode":"c"}`, "at /mode: must be equal to one of the allowed values"},
		{`[]`, "at /: must be object"},
		{`{"count":1,"name":"bb","nested":{"list":[{"x":1},{"x":"y"}]}}`, "at /nested/list/1/x: must be number"},
		{`{"count":1,"zeta":"a","name":"A"}`, "at /zeta: must NOT have fewer than 3 characters"},
	} {
		err := Value(parse(t, schema), parse(t, tc.response))
		var f *Failure
		if !errors.As(err, &f) {
			t.Errorf("%s: got %v, want a failure", tc.response, err)
			continue
		}
		if f.Error() != tc.want {
			t.Errorf("%s: got %q, want %q", tc.response, f.Error(), tc.want)
		}
	}
	if err := Value(parse(t, schema), parse(t, `{"count":3.0,"name":"ab"}`)); err != nil {
		t.Errorf("valid response: %v", err)
	}
}

func TestBadSchema(t *testing.T) {
	if err := Value(parse(t, `{"minimum":"x"}`), 1.0); !errors.Is(err, ErrBadSchema) {
		t.Errorf("got %v, want ErrBadSchema", err)
	}
}
