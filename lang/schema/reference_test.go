package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
)

const committedReference = "../../docs/workflow-format.md"

// TestReferenceGolden compares the generated reference of the workflow
// format with docs/workflow-format.md.
func TestReferenceGolden(t *testing.T) {
	got, err := Reference()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(committedReference, got, 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(committedReference)
	if err != nil {
		t.Fatalf("%v (run go test ./lang/schema -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date: run go test ./lang/schema -update", committedReference)
	}
}

// A referenceExample is a yaml block of the reference: a whole workflow
// file, under the name its "<!-- file: NAME -->" mark gives.
type referenceExample struct {
	name, text string
	line       int
}

var (
	fenceRE    = regexp.MustCompile("^```([a-z]*)$")
	fileMarkRE = regexp.MustCompile(`^<!-- file: (\S+) -->$`)
)

func referenceExamples(t *testing.T, doc string) []referenceExample {
	t.Helper()
	var out []referenceExample
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		m := fenceRE.FindStringSubmatch(lines[i])
		if m == nil || m[1] == "" {
			continue
		}
		start := i
		var body []string
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			body = append(body, lines[i])
		}
		if m[1] != "yaml" {
			continue
		}
		ex := referenceExample{name: fmt.Sprintf("example-%d.lobster", start+1), text: strings.Join(body, "\n") + "\n", line: start + 1}
		if start > 0 {
			if mm := fileMarkRE.FindStringSubmatch(lines[start-1]); mm != nil {
				ex.name = mm[1]
			}
		}
		out = append(out, ex)
	}
	return out
}

// TestReferenceExamples: every yaml block of the reference is a workflow
// in which lobster check finds nothing (but the hint that a key is
// documentation only), and together they show every key of every type of
// the format at its place.
func TestReferenceExamples(t *testing.T) {
	doc, err := Reference()
	if err != nil {
		t.Fatal(err)
	}
	examples := referenceExamples(t, string(doc))
	if len(examples) == 0 {
		t.Fatal("the reference has no yaml examples")
	}
	dir := t.TempDir()
	for _, ex := range examples {
		if err := os.WriteFile(filepath.Join(dir, ex.name), []byte(ex.text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]map[string]bool{}
	for _, ex := range examples {
		path := filepath.Join(dir, ex.name)
		f, diags := parser.Parse(path, []byte(ex.text))
		for _, d := range check.RunWith(f, diags, check.All, check.Options{Path: path}) {
			if d.Code == "metadata-key" {
				continue // the reference says that these keys are documentation only
			}
			t.Errorf("the example at line %d of the reference (%s): %d:%d: %s: %s [%s]", ex.line, ex.name,
				d.Range.Start.Line, d.Range.Start.Col, d.Severity, d.Message, d.Code)
		}
		var v any
		if err := yaml.Unmarshal([]byte(ex.text), &v); err != nil {
			t.Errorf("the example at line %d: %v", ex.line, err)
			continue
		}
		collectKeys("Workflow", v, seen)
	}

	data, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	defs := root["$defs"].(map[string]any)
	for _, name := range append(sortedNames(defs), "Workflow") {
		d := root
		if name != "Workflow" {
			d = defs[name].(map[string]any)
		}
		keys, props, _, err := properties(name, d)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			if _, forbidden := props[k].(map[string]any)["not"]; forbidden {
				continue
			}
			if !seen[name][k] {
				t.Errorf("no example of the reference shows the key %s of %s", k, name)
			}
		}
	}
}

// collectKeys records the keys a workflow's value v of the type kind
// uses, and those of the values inside it.
func collectKeys(kind string, v any, seen map[string]map[string]bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return
	}
	if seen[kind] == nil {
		seen[kind] = map[string]bool{}
	}
	each := func(kind string, list any) {
		l, _ := list.([]any)
		for _, item := range l {
			collectKeys(kind, item, seen)
		}
	}
	for k, val := range m {
		seen[kind][k] = true
		switch kind + "." + k {
		case "Workflow.args":
			if args, ok := val.(map[string]any); ok {
				for _, a := range args {
					collectKeys("Arg", a, seen)
				}
			}
		case "Workflow.cost_limit":
			collectKeys("CostLimit", val, seen)
		case "Workflow.steps":
			each("Step", val)
		case "Step.approval":
			collectKeys("Approval", val, seen)
		case "Step.input":
			collectKeys("Input", val, seen)
		case "Step.retry":
			collectKeys("Retry", val, seen)
		case "Step.parallel":
			collectKeys("Parallel", val, seen)
		case "Step.steps":
			each("SubStep", val)
		case "Parallel.branches":
			each("Branch", val)
		}
	}
}
