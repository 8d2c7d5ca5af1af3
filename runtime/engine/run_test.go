//go:build unix

package engine

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
)

func run(t *testing.T, src string, provided string) (string, error) {
	out, _, err := runLogged(t, src, provided)
	return out, err
}

// runLogged runs src in a temporary working directory and returns the
// status and output, and what the run logged.
func runLogged(t *testing.T, src string, provided string) (string, string, error) {
	t.Helper()
	f, diags := parser.Parse("w.lobster", []byte(src))
	for _, d := range diags {
		if d.Severity.String() == "error" {
			t.Fatalf("parse: %v", d)
		}
	}
	var args any
	if provided != "" {
		args, _ = jsvalue.Parse([]byte(provided))
	}
	var log strings.Builder
	dir := t.TempDir()
	res, err := Run(context.Background(), f, Options{Args: args, Stderr: &log,
		Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "WORK=" + dir}})
	if err != nil {
		return "", log.String(), err
	}
	return res.Status + " " + jsvalue.Stringify(res.Output, ""), log.String(), nil
}

func TestRunSequence(t *testing.T) {
	src := `
args:
  who: {default: world}
env:
  GREETING: "hello ${who}"
steps:
  - id: fetch
    run: echo '{"items":[1,2],"ok":true}'
  - id: count
    run: awk -F, '{print NF}'
    stdin: $fetch.json.items
    when: $fetch.json.ok
  - id: never
    run: echo should not run
    condition: "!$fetch.json.ok"
  - id: greet
    command: echo "$GREETING from $LOBSTER_ARG_WHO, $count.stdout items"
`
	got, err := run(t, src, `{"who":"you"}`)
	if err != nil {
		t.Fatal(err)
	}
	if want := `ok ["hello you from you, 2\n items\n"]`; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

func TestRunOutputSkipsSkippedSteps(t *testing.T) {
	got, err := run(t, "steps:\n  - id: a\n    run: echo '[1,2]'\n  - id: b\n    run: echo no\n    when: false\n", "")
	if err != nil || got != "ok [1,2]" {
		t.Errorf("got %s, %v; want the last completed step's items", got, err)
	}
	got, err = run(t, "steps:\n  - id: a\n    run: \"true\"\n", "")
	if err != nil || got != "ok []" {
		t.Errorf("empty stdout: got %s, %v", got, err)
	}
}

func TestRunStopsOnFailure(t *testing.T) {
	marker := t.TempDir() + "/ran"
	src := "steps:\n  - id: a\n    run: echo bad >&2; exit 4\n  - id: b\n    run: touch " + marker + "\n"
	if _, err := run(t, src, ""); err == nil || err.Error() != "workflow command failed (4): bad" {
		t.Errorf("failure: %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("a step after a failure ran")
	}
	if _, err := run(t, "steps:\n  - id: a\n    run: echo\n    when: $nope.json\n", ""); err == nil || err.Error() != "Unknown step reference: nope.json" {
		t.Errorf("condition error: %v", err)
	}
}

// TestPipelineLeavesStdinAlone: a pipeline step reads a step's json array
// without changing it (its stream lets go of items, sort reorders).
func TestPipelineLeavesStdinAlone(t *testing.T) {
	got, err := run(t, `steps:
  - id: data
    run: echo '[3,1,2]'
  - id: sorted
    pipeline: map --wrap v
    stdin: $data.json
  - id: show
    run: cat
    stdin: $data.json
`, "")
	if err != nil || got != "ok [3,1,2]" {
		t.Errorf("got %s, %v; want the first step's array unchanged", got, err)
	}
}
