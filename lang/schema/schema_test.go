package schema

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/lobsterdev/lobster/internal/corpustest"
	"github.com/lobsterdev/lobster/lang/parser"
)

var update = flag.Bool("update", false, "rewrite ../../schema/lobster.schema.json")

const committed = "../../schema/lobster.schema.json"

// TestGolden compares the generated schema with the committed copy.
func TestGolden(t *testing.T) {
	got, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.MkdirAll(filepath.Dir(committed), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(committed, got, 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(committed)
	if err != nil {
		t.Fatalf("%v (run go test ./lang/schema -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date: run go test ./lang/schema -update", committed)
	}
}

// resolved is the generated schema, resolved for validation.
func resolved(t *testing.T) *jsonschema.Resolved {
	t.Helper()
	data, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if s.Schema != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema is %q, want draft 2020-12", s.Schema)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("the schema does not resolve: %v", err)
	}
	return rs
}

// TestDescriptions checks that every definition and every property has a
// description (the properties named in conditions, such as those of
// dependentSchemas and of the alternatives of anyOf, are not fields).
func TestDescriptions(t *testing.T) {
	data, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(`\u003c`)) || bytes.Contains(data, []byte(`\u0026`)) {
		t.Error("the schema has HTML escapes")
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	check := func(where string, s map[string]any) {
		if d, _ := s["description"].(string); strings.TrimSpace(d) == "" {
			t.Errorf("%s has no description", where)
		}
	}
	var walk func(where string, s map[string]any)
	walk = func(where string, s map[string]any) {
		props, _ := s["properties"].(map[string]any)
		for name, p := range props {
			if ps, ok := p.(map[string]any); ok {
				check(where+"."+name, ps)
				walk(where+"."+name, ps)
			}
		}
		// The object form of a value (approval); the other alternatives
		// are conditions on keys, not fields.
		for _, key := range []string{"anyOf", "oneOf"} {
			list, _ := s[key].([]any)
			for _, sub := range list {
				if m, ok := sub.(map[string]any); ok && m["type"] == "object" {
					check(where+" (object)", m)
					walk(where, m)
				}
			}
		}
	}
	check("the workflow", root)
	walk("workflow", root)
	defs, _ := root["$defs"].(map[string]any)
	for name, d := range defs {
		check(name, d.(map[string]any))
		walk(name, d.(map[string]any))
	}
	for _, want := range []string{"Step", "SubStep", "Branch", "Parallel", "Approval", "Input", "Retry", "CostLimit", "Arg"} {
		if defs[want] == nil {
			t.Errorf("no $defs/%s", want)
		}
	}
}

// value parses a workflow file the way the checker does and returns it as
// a JSON value, or false when it does not parse as one document.
func value(t *testing.T, path string) (any, bool) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, diags := parser.Parse(filepath.Base(path), src)
	for _, d := range diags {
		if strings.HasPrefix(d.Code, "yaml-") && d.Code != "yaml-unused-anchor" && d.Code != "yaml-merge-key" || d.Code == "json-extension-not-json" {
			return nil, false
		}
	}
	return parser.JSONValue(f.Doc), true
}

// verdicts reads a JSONL file of the reference's load verdicts.
func verdicts(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var v struct {
			File string `json:"file"`
			OK   bool   `json:"ok"`
		}
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out[v.File] = v.OK
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestCorpus validates every real-world file that the reference loads.
func TestCorpus(t *testing.T) {
	files := corpustest.Files(t, "the schema on every corpus file the reference loads")
	dir := filepath.Dir(files[0])
	rs := resolved(t)
	ok := verdicts(t, "../../testdata/reference/corpus-load.jsonl")
	n := 0
	for _, name := range sortedKeys(ok) {
		if !ok[name] {
			continue
		}
		v, parsed := value(t, filepath.Join(dir, name))
		if !parsed {
			t.Errorf("%s: the reference loads it, but it does not parse", name)
			continue
		}
		if err := rs.Validate(v); err != nil {
			t.Errorf("%s: the reference loads it, but the schema rejects it: %v", name, err)
		}
		n++
	}
	if n == 0 {
		t.Error("no accepted corpus file")
	}
}

// The probes the reference rejects for reasons a JSON Schema cannot
// express: syntax, duplicate ids, values that must differ, and response
// schemas that Ajv does not compile.
var inexpressible = map[string]bool{
	"duplicate-keys.lobster":                             true,
	"tab-indentation.lobster":                            true,
	"two-documents.lobster":                              true,
	"yaml-text-in-json.json":                             true,
	"duplicate-step-id.lobster":                          true,
	"parallel-branch-duplicate-id.lobster":               true,
	"parallel-branch-id-duplicates-earlier-step.lobster": true,
	"parallel-branch-id-matches-step-id.lobster":         true,
	"for-each-sub-step-duplicate-id.lobster":             true,
	"for-each-sub-step-id-conflicts-loop-var.lobster":    true,
	"for-each-item-var-equals-index-var.lobster":         true,
	"input-response-schema-invalid.lobster":              true,
}

// TestProbes checks the schema against the reference's verdicts on the
// probe files: it accepts what the reference loads, and rejects what the
// reference rejects, except for the reasons listed in inexpressible.
func TestProbes(t *testing.T) {
	rs := resolved(t)
	dir := "../../testdata/reference/probes"
	ok := verdicts(t, "../../testdata/reference/probes-load.jsonl")
	for _, name := range sortedKeys(ok) {
		v, parsed := value(t, filepath.Join(dir, name))
		if !parsed {
			if ok[name] || !inexpressible[name] {
				t.Errorf("%s: does not parse", name)
			}
			continue
		}
		err := rs.Validate(v)
		switch {
		case ok[name] && err != nil:
			t.Errorf("%s: the reference loads it, but the schema rejects it: %v", name, err)
		case !ok[name] && err == nil && !inexpressible[name]:
			t.Errorf("%s: the reference rejects it, but the schema accepts it", name)
		case !ok[name] && err != nil && inexpressible[name]:
			t.Errorf("%s: listed as inexpressible, but the schema rejects it (%v): remove it from the list", name, err)
		}
	}
}

// TestExamples validates the example workflows of the repository.
func TestExamples(t *testing.T) {
	rs := resolved(t)
	files, _ := filepath.Glob("../../examples/*")
	n := 0
	for _, path := range files {
		if ext := filepath.Ext(path); ext != ".lobster" && ext != ".json" {
			continue
		}
		n++
		v, parsed := value(t, path)
		if !parsed {
			t.Errorf("%s: does not parse", path)
			continue
		}
		if err := rs.Validate(v); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
	if n == 0 {
		t.Skip("no examples")
	}
}

// TestShapes checks single cases of the step shapes against the schema.
func TestShapes(t *testing.T) {
	rs := resolved(t)
	tests := []struct {
		yaml string
		ok   bool
	}{
		{"steps: [{id: a, run: echo}]", true},
		{"steps: [{id: a, run: echo, command: echo}]", true},
		{"steps: [{id: a, run: ./deploy.sh, approval: required}]", true},
		{"steps: [{id: a, approval: {prompt: Go?, required_approver: alice}}]", true},
		{"steps: [{id: a, approval: {prompt: Go?, approver: alice}}]", false},
		{"steps: [{id: a, approval: 5}]", false},
		{"steps: [{id: a, input: {prompt: Name?, responseSchema: {type: object}}, stdin: $x.json}]", true},
		{"steps: [{id: a, input: {prompt: Name?, responseSchema: {type: object}}, run: echo}]", false},
		{"steps: [{id: a, input: {prompt: Name?, responseSchema: {type: object}}, approval: true}]", false},
		{"steps: [{id: a, pipeline: json, run: echo}]", false},
		{"steps: [{id: a, workflow: child.lobster, workflow_args: {x: 1}}]", true},
		{"steps: [{id: a, workflow: '  '}]", false},
		{"steps: [{id: a, for_each: $l.json, steps: [{id: s, run: echo}], item_var: it, batch_size: 2, pause_ms: 10}]", true},
		{"steps: [{id: a, for_each: $l.json}]", false},
		{"steps: [{id: a, for_each: $l.json, steps: [{id: s, run: echo}], stdin: x}]", false},
		{"steps: [{id: a, for_each: $l.json, steps: [{id: s, run: echo, command: echo}]}]", false},
		{"steps: [{id: a, for_each: $l.json, steps: [{id: s, run: echo, workflow: x.lobster}]}]", false},
		{"steps: [{id: a, for_each: $l.json, steps: [{id: s, description: d, when: $x.json.ok}]}]", false},
		{"steps: [{id: a, parallel: {wait: any, branches: [{id: b, run: echo, command: echo}, {id: c, pipeline: json}]}}]", true},
		{"steps: [{id: a, parallel: {branches: [{id: b, run: echo, pipeline: json}]}}]", false},
		{"steps: [{id: a, parallel: {wait: some, branches: [{id: b, run: echo}]}}]", false},
		{"steps: [{id: a, run: echo, when: true, retry: {max: 3, backoff: exponential}, timeout_ms: 1000, on_error: continue}]", true},
		{"steps: [{id: a, run: echo, on_error: ignore}]", false},
		{"steps: [{id: a, run: echo, timeout_ms: 0}]", false},
		{"steps: [{id: a, run: echo, timeout_ms: 1.5}]", false},
		{"steps: [{id: a, run: echo, retry: {max: 0}}]", false},
		{"steps: [{id: a, run: echo, when: 1}]", false},
		{"steps: [{id: a, run: echo, env: {A: 1}}]", false},
		{"steps: [{id: a, run: echo, description: fetch, output: x}]", true},
		{"steps: [{id: '', run: echo}]", false},
		{"steps: [{id: a, description: nothing}]", false},
		{"steps: []", false},
		{"name: x", false},
		{"version: 1.0\nauthor: me\ninputs: {}\nsteps: [{id: a, run: echo}]", true},
		{"args: {who: {default: world, description: d, type: string}}\nsteps: [{id: a, run: echo}]", true},
		{"args: {who: world}\nsteps: [{id: a, run: echo}]", false},
		{"cost_limit: {max_usd: 5, action: stop}\nsteps: [{id: a, run: echo}]", true},
		{"cost_limit: {max_usd: 5, action: STOP}\nsteps: [{id: a, run: echo}]", false},
		{"cost_limit: {action: stop}\nsteps: [{id: a, run: echo}]", false},
	}
	for _, tt := range tests {
		f, diags := parser.Parse("t.lobster", []byte(tt.yaml))
		for _, d := range diags {
			if d.Code == "yaml-syntax" {
				t.Fatalf("%s: %s", tt.yaml, d.Message)
			}
		}
		err := rs.Validate(parser.JSONValue(f.Doc))
		if (err == nil) != tt.ok {
			t.Errorf("%s: valid %v, want %v (%v)", tt.yaml, err == nil, tt.ok, err)
		}
	}
}
