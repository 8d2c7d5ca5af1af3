package envelope

import (
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/jsvalue"
)

func text(t *testing.T, v any) string {
	t.Helper()
	var b strings.Builder
	if err := Write(&b, v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestToolEnvelopes(t *testing.T) {
	req := jsvalue.Obj("type", "approval_request", "prompt", "Ship?", "items", []any{}, "resumeToken", "tok", "approvalId", "0a1b2c3d")
	tests := []struct {
		name string
		got  any
		want string
	}{
		{"ok", Tool(Result{Status: StatusOK, Output: []any{"ran\n"}}), `{
  "protocolVersion": 1,
  "ok": true,
  "status": "ok",
  "output": [
    "ran\n"
  ],
  "requiresApproval": null,
  "requiresInput": null
}
`},
		{"pause: output is always empty", Tool(Result{Status: StatusNeedsApproval, Output: []any{1.0}, RequiresApproval: req}), `{
  "protocolVersion": 1,
  "ok": true,
  "status": "needs_approval",
  "output": [],
  "requiresApproval": {
    "type": "approval_request",
    "prompt": "Ship?",
    "items": [],
    "resumeToken": "tok",
    "approvalId": "0a1b2c3d"
  },
  "requiresInput": null
}
`},
		{"cancelled", Tool(Result{Status: StatusCancelled}), `{
  "protocolVersion": 1,
  "ok": true,
  "status": "cancelled",
  "output": [],
  "requiresApproval": null,
  "requiresInput": null
}
`},
		{"failure", Failure(RuntimeError, "workflow command failed (1): boom"), `{
  "protocolVersion": 1,
  "ok": false,
  "error": {
    "type": "runtime_error",
    "message": "workflow command failed (1): boom"
  }
}
`},
	}
	for _, tt := range tests {
		if got := text(t, tt.got); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, tt.want)
		}
	}
}

func TestHuman(t *testing.T) {
	if got := text(t, Human(Result{Status: StatusOK, Output: []any{}})); got != "" {
		t.Errorf("empty output printed %q, want nothing", got)
	}
	if got, want := text(t, Human(Result{Status: StatusOK, Output: []any{jsvalue.Obj("b", 1.0, "a", 2.0)}})), "[\n  {\n    \"b\": 1,\n    \"a\": 2\n  }\n]\n"; got != want {
		t.Errorf("output printed %q, want %q", got, want)
	}
	req := jsvalue.Obj("type", "input_request", "prompt", "Name?")
	want := "{\n  \"status\": \"needs_input\",\n  \"output\": [],\n  \"requiresApproval\": null,\n  \"requiresInput\": {\n    \"type\": \"input_request\",\n    \"prompt\": \"Name?\"\n  }\n}\n"
	if got := text(t, Human(Result{Status: StatusNeedsInput, RequiresInput: req})); got != want {
		t.Errorf("pause printed %q, want %q", got, want)
	}
}

func TestOutputItems(t *testing.T) {
	u := jsvalue.Undefined
	tests := []struct {
		name                   string
		json, response, stdout any
		want                   string
	}{
		{"json array is the items", []any{1.0, 2.0}, u, "[1,2]\n", "[1,2]"},
		{"json null is one item", nil, u, "null\n", "[null]"},
		{"json scalar", 2.0, u, "2\n", "[2]"},
		{"response when no json", u, jsvalue.Obj("ok", true), u, `[{"ok":true}]`},
		{"stdout untrimmed", u, u, "ran\n", `["ran\n"]`},
		{"empty stdout", u, u, "", "[]"},
		{"nothing", u, u, u, "[]"},
	}
	for _, tt := range tests {
		if got := jsvalue.Stringify(OutputItems(tt.json, tt.response, tt.stdout), ""); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}
