//go:build unix

package engine

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
)

// runOnTerminal runs src with its gates asking on a terminal that answers
// with the text answers, and returns the result (status and output, or
// the error) and what the terminal showed.
func runOnTerminal(t *testing.T, src, answers string, env ...string) (string, string) {
	t.Helper()
	f, _ := parser.Parse("w.lobster", []byte(src))
	dir := t.TempDir()
	var shown strings.Builder
	res, err := Run(context.Background(), f, Options{
		Env:      append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}, env...),
		FilePath: dir + "/w.lobster", StateDir: dir + "/state",
		Terminal: &Terminal{In: bufio.NewReader(strings.NewReader(answers)), Out: &shown, Width: 60},
	})
	if err != nil {
		return "error: " + err.Error(), shown.String()
	}
	return res.Status + " " + jsvalue.Stringify(res.Output, ""), shown.String()
}

const approvalSrc = `steps:
  - id: build
    run: printf 'line one\nline \033[31mtwo\n'
  - id: deploy
    stdin: $build.stdout
    approval:
      prompt: Ship it?
      items: [{host: a}, {host: b}]
      required_approver: ann
  - id: after
    run: echo shipped
`

// TestTerminalApproval: the request is shown in full before the question,
// and the approver is checked before anyone is asked.
func TestTerminalApproval(t *testing.T) {
	got, shown := runOnTerminal(t, approvalSrc, "y\n", "LOBSTER_APPROVAL_APPROVED_BY=ann")
	if got != `ok ["shipped\n"]` {
		t.Errorf("approved: %s\n%s", got, shown)
	}
	want := `Approval needed: step deploy
  Preview:
    line one
    line \x1b[31mtwo
  Items (2):
    {"host":"a"}
    {"host":"b"}
  Approver: ann only; you are ann (LOBSTER_APPROVAL_APPROVED_BY)
Ship it? [y/N] `
	if shown != want {
		t.Errorf("shown:\n%s\nwant:\n%s", shown, want)
	}

	// Nobody named: refused before the question.
	got, shown = runOnTerminal(t, approvalSrc, "y\n")
	if !strings.Contains(got, "requires approver identity; set LOBSTER_APPROVAL_APPROVED_BY") ||
		strings.Contains(shown, "[y/N]") || !strings.Contains(shown, "Approver: ann only; LOBSTER_APPROVAL_APPROVED_BY, who you are, is not set") {
		t.Errorf("no approver: %s\n%s", got, shown)
	}
	// The wrong person: refused before the question too.
	got, shown = runOnTerminal(t, approvalSrc, "y\n", "LOBSTER_APPROVAL_APPROVED_BY=bob")
	if !strings.Contains(got, "requires approver 'ann', got 'bob'") || strings.Contains(shown, "[y/N]") {
		t.Errorf("wrong approver: %s\n%s", got, shown)
	}
	// No: the reference's failure. Ctrl-D: the run is cancelled.
	if got, _ = runOnTerminal(t, approvalSrc, "n\n", "LOBSTER_APPROVAL_APPROVED_BY=ann"); got != "error: Not approved" {
		t.Errorf("no: %s", got)
	}
	if got, _ = runOnTerminal(t, approvalSrc, "", "LOBSTER_APPROVAL_APPROVED_BY=ann"); got != "cancelled []" {
		t.Errorf("end of input: %s", got)
	}
}

func TestApproverText(t *testing.T) {
	for _, tc := range []struct {
		id       Identity
		approver string
		want     string
	}{
		{Identity{}, "", "anyone at this terminal"},
		{Identity{}, "ann", "anyone at this terminal; recorded as ann (LOBSTER_APPROVAL_APPROVED_BY)"},
		{Identity{InitiatedBy: "bob", RequireDifferentApprover: true}, "ann", "anyone but bob (who started the run); you are ann (LOBSTER_APPROVAL_APPROVED_BY)"},
		{Identity{RequireDifferentApprover: true}, "", "anyone who says who they are; LOBSTER_APPROVAL_APPROVED_BY, who you are, is not set"},
		{Identity{RequiredApprover: "ann", InitiatedBy: "bob", RequireDifferentApprover: true}, "ann", "ann only, not bob (who started the run); you are ann (LOBSTER_APPROVAL_APPROVED_BY)"},
	} {
		if got := approverText(tc.id, tc.approver); got != tc.want {
			t.Errorf("%+v, %q: %q, want %q", tc.id, tc.approver, got, tc.want)
		}
	}
}

const inputSrc = `steps:
  - id: ask
    input:
      prompt: How many?
      responseSchema: {type: object, required: [count], properties: {count: {type: integer}}}
      defaults: {count: 1}
  - id: show
    run: echo "$N"
    env:
      N: $ask.response.count
`

// TestTerminalInput: the schema is shown, and a wrong answer is explained
// and asked again; the end of input cancels the run.
func TestTerminalInput(t *testing.T) {
	got, shown := runOnTerminal(t, inputSrc, "nope\n{\"count\": \"x\"}\n{\"count\": 3}\n")
	if got != `ok [3]` {
		t.Errorf("answered: %s\n%s", got, shown)
	}
	want := `Input needed: step ask
  Schema:
    {
      "type": "object",
      "required": [
        "count"
      ],
      "properties": {
        "count": {
          "type": "integer"
        }
      }
    }
  Defaults: {"count":1}
  Answer with one line of JSON; Ctrl-D cancels the run.
How many?
Enter JSON response:   Not JSON: invalid character 'o' in literal null (expecting 'u'). Try again, or Ctrl-D to cancel the run.
Enter JSON response:   Does not match the schema at /count: must be integer. Try again, or Ctrl-D to cancel the run.
Enter JSON response: `
	if shown != want {
		t.Errorf("shown:\n%s\nwant:\n%s", shown, want)
	}
	got, shown = runOnTerminal(t, inputSrc, "{}\n")
	if got != "cancelled []" || !strings.Contains(shown, "must have required property 'count'") {
		t.Errorf("end of input: %s\n%s", got, shown)
	}
}

func TestCut(t *testing.T) {
	for in, want := range map[string]string{"short": "short", "exactly10!": "exactly10!", "a bit longer": "a bit lon…", "ééééééééééé": "ééééééééé…", "漢字漢字漢字": "漢字漢字…"} {
		if got := cut(in, 10); got != want {
			t.Errorf("cut(%q) = %q, want %q", in, got, want)
		}
	}
}
