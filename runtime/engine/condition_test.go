package engine

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/render"
)

// TestConditionMatchesReference evaluates every condition recorded from
// the reference (scripts/reference-conditions.mjs), written as the `when`
// of a step, and expects the reference's value or error text.
func TestConditionMatchesReference(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "testdata", "reference", "conditions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type recorded struct {
		When  json.RawMessage `json:"when"`
		Value *bool           `json:"value"`
		Error string          `json:"error"`
	}
	var cases []recorded
	results := render.Results{}
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		var r recorded
		if err := json.Unmarshal(lines.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r.When != nil {
			cases = append(cases, r)
			continue
		}
		v, err := jsvalue.Parse(lines.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		all, _ := v.(*jsvalue.Object).Get("results")
		for _, id := range all.(*jsvalue.Object).Keys() {
			record, _ := all.(*jsvalue.Object).Get(id)
			results[id] = record.(*jsvalue.Object)
		}
	}
	if len(cases) < 50 || len(results) == 0 {
		t.Fatalf("incomplete recording: %d cases, %d results", len(cases), len(results))
	}
	for _, c := range cases {
		src := "steps:\n  - id: s\n    run: \"true\"\n    when: " + string(c.When) + "\n"
		file, _ := parser.Parse("w.lobster", []byte(src))
		step := file.Workflow.Steps.Value.(*ast.StepList).Steps()[0]
		got, err := Condition(step.When, results)
		switch {
		case c.Error != "":
			if err == nil || err.Error() != c.Error {
				t.Errorf("when: %s = %v, %v; want error %q", c.When, got, err, c.Error)
			}
		case err != nil || c.Value == nil || got != *c.Value:
			t.Errorf("when: %s = %v, %v; want %v", c.When, got, err, *c.Value)
		}
	}
}
