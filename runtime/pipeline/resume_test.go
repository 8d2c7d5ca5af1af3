package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/state"
)

// toolRun runs text in tool mode in dir's state directory and finalizes it.
func toolRun(t *testing.T, dir, text string) envelope.Result {
	t.Helper()
	p := parser.ParsePipelineText(text)
	if p.Err != nil {
		t.Fatal(p.Err.Msg)
	}
	env := &Env{Mode: Tool, StateDir: dir, Stdout: &bytes.Buffer{}, Environ: os.Environ()}
	stages := StagesOf(p.Stages, text)
	res, err := Run(context.Background(), stages, nil, env)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Finalize(context.Background(), stages, res, env, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// keyOf is the state key of a paused result's token.
func keyOf(t *testing.T, r envelope.Result) string {
	t.Helper()
	req := r.RequiresApproval
	if req == nil {
		req = r.RequiresInput
	}
	if req == nil {
		t.Fatalf("not paused: %s", r.Status)
	}
	tok, _ := req.Get("resumeToken")
	decoded, err := state.DecodeToken(tok.(string))
	if err != nil {
		t.Fatal(err)
	}
	if decoded.Kind != state.KindPipeline {
		t.Fatalf("token kind %s", decoded.Kind)
	}
	return decoded.StateKey
}

func resumeWith(t *testing.T, dir, key string, d Decision) (envelope.Result, error) {
	t.Helper()
	store, err := state.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return Resume(context.Background(), store, key, d, &Env{StateDir: dir, Stdout: &bytes.Buffer{}, Environ: os.Environ()}, time.Now())
}

func yes() *bool { b := true; return &b }
func no() *bool  { b := false; return &b }

// leftovers lists the resume states and approval indexes in dir.
func leftovers(dir string) []string {
	a, _ := filepath.Glob(filepath.Join(dir, "pipeline_resume_*"))
	b, _ := filepath.Glob(filepath.Join(dir, "approval_*"))
	return append(a, b...)
}

func TestResumeApproval(t *testing.T) {
	dir := t.TempDir()
	work := t.TempDir()
	sent := filepath.Join(work, "sent")
	r := toolRun(t, dir, `exec --json --shell "echo '[{\"a\":1}]'" | approve --prompt send? | exec --shell 'echo x >> `+sent+`' | json`)
	if r.Status != envelope.StatusNeedsApproval {
		t.Fatalf("status %s", r.Status)
	}
	if _, err := os.Stat(sent); err == nil {
		t.Fatal("the stage after the gate ran before the approval")
	}
	key := keyOf(t, r)

	// A response is the wrong intent for an approval; nothing is spent.
	_, err := resumeWith(t, dir, key, Decision{Response: "x"})
	var intent *IntentError
	if !errors.As(err, &intent) || intent.Msg != "approval resumes require approved=true|false, not response" {
		t.Fatalf("wrong intent: %v", err)
	}

	r, err = resumeWith(t, dir, key, Decision{Approved: yes(), Response: jsvalue.Undefined})
	if err != nil || r.Status != envelope.StatusOK {
		t.Fatalf("resume: %v %+v", err, r)
	}
	if data, _ := os.ReadFile(sent); string(data) != "x\n" {
		t.Errorf("effect ran %q", data)
	}
	if left := leftovers(dir); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
	// A replay is refused and repeats nothing.
	if _, err := resumeWith(t, dir, key, Decision{Approved: yes(), Response: jsvalue.Undefined}); err == nil || err.Error() != "Pipeline resume state not found" {
		t.Errorf("replay: %v", err)
	}
	if data, _ := os.ReadFile(sent); string(data) != "x\n" {
		t.Errorf("effect repeated: %q", data)
	}
}

func TestResumeReject(t *testing.T) {
	dir := t.TempDir()
	key := keyOf(t, toolRun(t, dir, "exec --json --shell 'echo [1]' | approve | pick a"))
	r, err := resumeWith(t, dir, key, Decision{Approved: no(), Response: jsvalue.Undefined})
	if err != nil || r.Status != envelope.StatusCancelled {
		t.Fatalf("reject: %v %s", err, r.Status)
	}
	if left := leftovers(dir); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

func TestResumeChain(t *testing.T) {
	dir := t.TempDir()
	r := toolRun(t, dir, `exec --json --shell "echo '[{\"x\":1}]'" | approve --prompt first? | approve --prompt second? | pick x`)
	if p, _ := r.RequiresApproval.Get("prompt"); p != "first?" {
		t.Fatalf("first prompt %v", p)
	}
	first := keyOf(t, r)
	r, err := resumeWith(t, dir, first, Decision{Approved: yes(), Response: jsvalue.Undefined})
	if err != nil || r.Status != envelope.StatusNeedsApproval {
		t.Fatalf("second gate: %v %s", err, r.Status)
	}
	if p, _ := r.RequiresApproval.Get("prompt"); p != "second?" {
		t.Fatalf("second prompt %v", p)
	}
	// The first token is spent once the second gate is issued.
	if _, err := resumeWith(t, dir, first, Decision{Approved: yes(), Response: jsvalue.Undefined}); err == nil {
		t.Error("the first token still works")
	}
	r, err = resumeWith(t, dir, keyOf(t, r), Decision{Approved: yes(), Response: jsvalue.Undefined})
	if err != nil || r.Status != envelope.StatusOK || compact(r.Output) != `[{"x":1}]` {
		t.Fatalf("end of chain: %v %s %s", err, r.Status, compact(r.Output))
	}
	if left := leftovers(dir); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

func TestResumeAskSameStage(t *testing.T) {
	dir := t.TempDir()
	r := toolRun(t, dir, `exec --json --shell "echo '[{\"draft\":\"hello\"}]'" | ask --prompt Review --subject-from-stdin | pick decision`)
	if r.Status != envelope.StatusNeedsInput {
		t.Fatalf("status %s", r.Status)
	}
	if s, _ := r.RequiresInput.Get("subject"); compact(s) != `{"text":"{\"draft\":\"hello\"}"}` {
		t.Errorf("subject %s", compact(s))
	}
	key := keyOf(t, r)
	data, _ := os.ReadFile(filepath.Join(dir, key+".json"))
	for _, want := range []string{`"resumeMode": "same_stage"`, `"resumeAtIndex": 1`, `"commandInput"`, `"requestIndex": 0`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("state lacks %s:\n%s", want, data)
		}
	}
	bad, _ := jsvalue.Parse([]byte(`{"decision":"maybe"}`))
	_, err := resumeWith(t, dir, key, Decision{Response: bad})
	var intent *IntentError
	if !errors.As(err, &intent) || !strings.HasPrefix(intent.Msg, "pipeline input response failed schema validation at /decision: ") {
		t.Fatalf("invalid response: %v", err)
	}
	if _, err := resumeWith(t, dir, key, Decision{Approved: yes(), Response: jsvalue.Undefined}); err == nil || err.Error() != "pipeline input resumes require response" {
		t.Errorf("approval for an input gate: %v", err)
	}
	good, _ := jsvalue.Parse([]byte(`{"decision":"approve","extra":1}`))
	r, err = resumeWith(t, dir, key, Decision{Response: good})
	if err != nil || r.Status != envelope.StatusOK || compact(r.Output) != `[{"decision":"approve"}]` {
		t.Fatalf("resume: %v %s %s", err, r.Status, compact(r.Output))
	}
	if left := leftovers(dir); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

func TestResumeAskNextStage(t *testing.T) {
	dir := t.TempDir()
	r := toolRun(t, dir, `ask --emit --prompt Name? --schema '{"type":"string"}' | template 'hi {{.}}'`)
	if r.Status != envelope.StatusNeedsInput {
		t.Fatalf("status %s", r.Status)
	}
	r, err := resumeWith(t, dir, keyOf(t, r), Decision{Response: "Ada"})
	if err != nil || compact(r.Output) != `["hi Ada"]` {
		t.Fatalf("resume: %v %s", err, compact(r.Output))
	}
}

func TestResumeConcurrentOneEffect(t *testing.T) {
	dir := t.TempDir()
	work := t.TempDir()
	sent := filepath.Join(work, "sent")
	key := keyOf(t, toolRun(t, dir, "exec --shell 'echo 1' | approve | exec --shell 'echo x >> "+sent+"'"))
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := resumeWith(t, dir, key, Decision{Approved: yes(), Response: jsvalue.Undefined})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	ok := 0
	for err := range errs {
		if err == nil {
			ok++
		} else if err.Error() != "Pipeline resume state not found" {
			t.Errorf("error %v", err)
		}
	}
	data, _ := os.ReadFile(sent)
	if ok != 1 || string(data) != "x\n" {
		t.Errorf("%d resumes succeeded, effect %q: want exactly one", ok, data)
	}
}

func TestResumeFailureAfterBoundary(t *testing.T) {
	dir := t.TempDir()
	key := keyOf(t, toolRun(t, dir, "exec --shell 'echo 1' | approve | exec false"))
	if _, err := resumeWith(t, dir, key, Decision{Approved: yes(), Response: jsvalue.Undefined}); err == nil || err.Error() != "exec failed (1): false" {
		t.Fatalf("resume: %v", err)
	}
	// The tombstone stays: a replay cannot run the effects again.
	if _, err := resumeWith(t, dir, key, Decision{Approved: yes(), Response: jsvalue.Undefined}); err == nil || err.Error() != "Pipeline resume state not found" {
		t.Errorf("replay: %v", err)
	}
	if idx, _ := filepath.Glob(filepath.Join(dir, "approval_*")); len(idx) != 0 {
		t.Errorf("approval index kept: %v", idx)
	}
}

func TestResumeInvalidState(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"pipeline_resume_00000000-0000-4000-8000-00000000000a": `{"pipeline":[{"name":"exec","args":{"_":["x"]},"raw":"exec x"}],"resumeAtIndex":5,"items":[]}`,
		"pipeline_resume_00000000-0000-4000-8000-00000000000b": `{"pipeline":[{"name":"","args":{},"raw":""}],"resumeAtIndex":0,"items":[]}`,
		"pipeline_resume_00000000-0000-4000-8000-00000000000c": `{"pipeline":[],"resumeAtIndex":0,"items":[],"haltType":"approval_request","resumeMode":"same_stage"}`,
		"pipeline_resume_00000000-0000-4000-8000-00000000000d": `{"pipeline":[],"resumeAtIndex":0,"items":{}}`,
	} {
		os.WriteFile(filepath.Join(dir, name+".json"), []byte(text), 0o600)
		if _, err := resumeWith(t, dir, name, Decision{Approved: yes(), Response: jsvalue.Undefined}); err == nil || err.Error() != "Invalid pipeline resume state" {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := resumeWith(t, dir, "pipeline_resume_00000000-0000-4000-8000-0000000000ff", Decision{Approved: yes(), Response: jsvalue.Undefined}); err == nil || err.Error() != "Pipeline resume state not found" {
		t.Errorf("missing: %v", err)
	}
}

func TestAsk(t *testing.T) {
	check(t, "ask --emit --prompt p", `[1]`,
		`[{"type":"input_request","prompt":"p","responseSchema":{"type":"object","properties":{"decision":{"type":"string","enum":["approve","reject","redraft"]},"feedback":{"type":"string","description":"Feedback for redraft"}},"required":["decision"]},"items":[1]}]`)
	checkErr(t, "ask --schema x", `[]`, "ask --schema must be valid JSON")
	checkErr(t, "ask --schema 5", `[]`, "ask --schema must decode to a JSON schema object")
	checkErr(t, `ask --schema '{"type":7}'`, `[]`, "ask response schema is invalid")
	for answer, want := range map[string]string{
		"approve\n":             `[{"decision":"approve"}]`,
		`{"decision":"reject"}`: `[{"decision":"reject"}]`,
		"\"redraft\"\n":         `[{"decision":"redraft"}]`,
		"maybe\n":               "ask response failed schema validation at /decision: must be equal to one of the allowed values",
	} {
		env := &Env{Mode: Human, Interactive: true, Stdin: strings.NewReader(answer)}
		items, out, err := runEnv(t, env, "ask --prompt Decide")
		got := compact(items)
		if err != nil {
			got = err.Error()
		}
		if got != want || out != "Decide\n> " {
			t.Errorf("answer %q: %s (wrote %q)", answer, got, out)
		}
	}
}
