package preview

import (
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/source"
)

func codes(diags []source.Diagnostic) string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Code)
	}
	return strings.Join(out, " ")
}

func TestLoad(t *testing.T) {
	tests := []struct {
		name, text string
		noCheck    bool
		planned    bool   // a plan comes back
		errors     string // the codes of the error findings
		loadErrors string // the codes of the load errors
	}{
		{name: "clean.lobster", text: "steps:\n  - id: a\n    run: echo a\n", planned: true},
		{name: "checker.lobster", text: "steps:\n  - id: a\n    run: cat\n    stdin: $nope.stdout\n",
			planned: true, errors: "unknown-step-ref"},
		{name: "checker.lobster", text: "steps:\n  - id: a\n    run: cat\n    stdin: $nope.stdout\n",
			noCheck: true, planned: true},
		{name: "merge.lobster", text: "steps:\n  - id: a\n    run: echo hi\n    <<: {timeout_ms: 5}\n",
			planned: true, errors: "yaml-merge-key"},
		{name: "noid.lobster", text: "steps:\n  - name: a\n    run: echo a\n",
			errors: "missing-id", loadErrors: "missing-id"},
		{name: "noid.lobster", text: "steps:\n  - name: a\n    run: echo a\n", noCheck: true,
			errors: "missing-id", loadErrors: "missing-id"},
		{name: "list.lobster", text: "- id: a\n  run: echo a\n", errors: "not-a-workflow", loadErrors: "not-a-workflow"},
		{name: "empty.lobster", text: "", errors: "not-a-workflow", loadErrors: "not-a-workflow"},
		{name: "yaml.json", text: "steps:\n  - id: a\n    run: echo a\n", errors: "json-extension-not-json", loadErrors: "json-extension-not-json"},
		{name: "broken.lobster", text: "steps:\n  - id: a\n    run: \"echo\n", loadErrors: "yaml-syntax"},
	}
	for _, tt := range tests {
		res := Load(tt.name, []byte(tt.text), Options{NoCheck: tt.noCheck})
		if res.File == nil {
			t.Fatalf("%s: no file", tt.name)
		}
		if got := res.Plan != nil; got != tt.planned {
			t.Errorf("%s (noCheck %v): planned %v, want %v", tt.name, tt.noCheck, got, tt.planned)
		}
		if got := codes(res.LoadErrors); got != tt.loadErrors {
			t.Errorf("%s: load errors %q, want %q", tt.name, got, tt.loadErrors)
		}
		if tt.errors != "" {
			if got := codes(res.Errors()); !strings.Contains(got, tt.errors) {
				t.Errorf("%s: errors %q, want %q among them", tt.name, got, tt.errors)
			}
		}
		if tt.noCheck && tt.planned && len(res.Errors()) > 0 {
			t.Errorf("%s: NoCheck ran the checker: %s", tt.name, codes(res.Errors()))
		}
	}
}

// TestLoadArgs: the provided args reach the plan.
func TestLoadArgs(t *testing.T) {
	res := Load("w.lobster", []byte("args:\n  who: {default: you}\nsteps:\n  - id: a\n    run: echo ${who}\n"), Options{})
	if res.Plan == nil || res.Plan.Steps[0].Command != "echo you" {
		t.Fatalf("plan: %+v", res.Plan)
	}
}
