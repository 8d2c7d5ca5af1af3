//go:build unix

package temporal_test

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/state"
	"github.com/lobsterdev/lobster/runtime/temporal"
	"github.com/lobsterdev/lobster/runtime/temporal/temporaltest"
)

// TestBaseDir: on Temporal, a step without cwd runs in the directory the
// run was started from, a relative cwd is relative to it, and a pipeline's
// base directory (where its LLM cache and gog are) is it, though the worker
// runs elsewhere: the same envelope as a local run started there.
func TestBaseDir(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok":true,"result":{"output":{"text":"hi"}}}`))
	}))
	defer srv.Close()
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.WriteFile(filepath.Join(dir, "data.txt"), []byte("from the start directory\n"), 0o644)
	gog := filepath.Join(dir, "gog.sh")
	os.WriteFile(gog, []byte("#!/bin/sh\nprintf '{\"pwd\":\"%s\"}' \"$(pwd)\"\n"), 0o755)
	path := filepath.Join(dir, "w.lobster")
	os.WriteFile(path, []byte(`steps:
  - id: here
    run: pwd; cat data.txt
  - id: below
    cwd: sub
    run: pwd
  - id: exec
    cwd: sub
    pipeline: exec --shell 'pwd'
  - id: llm
    cwd: sub
    pipeline: llm.invoke --prompt hi | pick source
  - id: again
    pipeline: llm.invoke --prompt hi | pick source
  - id: gog
    cwd: sub
    pipeline: gog.gmail.search
  - id: all
    run: printf '%s|%s|%s|%s|%s|%s' "$A" "$B" "$C" "$D" "$E" "$F"
    env:
      A: $here.stdout
      B: $below.stdout
      C: $exec.json
      D: $llm.json
      E: $again.json
      F: $gog.json
`), 0o644)
	f, _ := parser.Parse(path, mustRead(t, path))
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LOBSTER_LLM_ADAPTER_URL=" + srv.URL, "GOG_BIN=" + gog}
	show := func(res envelope.Result, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		return jsvalue.Stringify(envelope.Tool(res), "")
	}

	// A local run started in dir.
	t.Chdir(dir)
	local := show(runLocal(t, f, path, dir, env))
	if _, err := os.Stat(filepath.Join(dir, ".lobster-cache")); err != nil {
		t.Fatalf("the local run left no cache in its directory: %v", err)
	}
	os.RemoveAll(filepath.Join(dir, ".lobster-cache"))

	// The same run on Temporal, the worker (this process) elsewhere.
	elsewhere := t.TempDir()
	t.Chdir(elsewhere)
	e := temporaltest.Engine(&temporal.Activities{Env: env})
	defer e.Close()
	onTemporal := show(e.Run(context.Background(), temporal.RunRequest{File: f, Path: path, Env: env, Dir: dir}))
	if onTemporal != local {
		t.Errorf("local:    %s\ntemporal: %s", local, onTemporal)
	}
	want := dir + `\n` + `from the start directory\n|` + dir + `/sub\n|`
	if !strings.Contains(onTemporal, want) || !strings.Contains(onTemporal, `{\"pwd\":\"`+dir+`\"}`) {
		t.Errorf("the steps did not run where the run started (%s):\n%s", want, onTemporal)
	}
	if !strings.Contains(onTemporal, `|{\"source\":\"http\"}|{\"source\":\"cache\"}|`) {
		t.Errorf("the second LLM call did not find the first one's cache:\n%s", onTemporal)
	}
	if _, err := os.Stat(filepath.Join(dir, ".lobster-cache")); err != nil {
		t.Errorf("no LLM cache in the run's directory: %v", err)
	}
	for _, d := range []string{filepath.Join(dir, "sub"), elsewhere} {
		if _, err := os.Stat(filepath.Join(d, ".lobster-cache")); err == nil {
			t.Errorf("an LLM cache in %s", d)
		}
	}
	if calls != 2 {
		t.Errorf("the provider had %d calls, want 2 (one per run)", calls)
	}
}

// TestPayloadLimit: a step whose result would not fit in a Temporal
// payload fails with an error that says so (and on_error sees it), and so
// does a run whose file and args would not.
func TestPayloadLimit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big.lobster")
	os.WriteFile(path, []byte(`steps:
  - id: small
    run: head -c 3000 /dev/urandom | base64
  - id: big
    run: head -c 30000 /dev/urandom | base64
    on_error: continue
  - id: after
    run: printf '%s' "$E"
    env:
      E: $big.errorMessage
`), 0o644)
	f, _ := parser.Parse(path, mustRead(t, path))
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	e := temporaltest.Engine(&temporal.Activities{Env: env, MaxPayload: 20000})
	defer e.Close()
	res, err := e.Run(context.Background(), temporal.RunRequest{File: f, Path: path, Env: env, Dir: dir})
	if err != nil || res.Status != envelope.StatusOK || len(res.Output) != 1 {
		t.Fatalf("run: %+v %v", res, err)
	}
	msg, _ := res.Output[0].(string)
	if !strings.HasPrefix(msg, "Step 'big' output is ") || !strings.Contains(msg, " bytes encoded, over the 20000 bytes a Temporal payload may hold here; make the step print less (or raise lobster worker --max-payload up to the service's limit)") {
		t.Errorf("the step's error: %q", msg)
	}

	// The run's own input: its file and args, as big once compressed.
	blob := make([]byte, temporal.DefaultMaxPayload)
	rand.Read(blob)
	args := jsvalue.Obj("blob", base64.StdEncoding.EncodeToString(blob))
	_, err = e.Run(context.Background(), temporal.RunRequest{File: f, Path: path, Args: args, Env: env, Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "over the 2000000 bytes of a Temporal payload") {
		t.Errorf("a run too large to start: %v", err)
	}
}

// recording is a backend that notes the workflow ids the engine asks for.
type recording struct {
	temporal.Backend
	mu  sync.Mutex
	ids []string
}

func (r *recording) note(id string) {
	r.mu.Lock()
	r.ids = append(r.ids, id)
	r.mu.Unlock()
}

func (r *recording) Start(ctx context.Context, id, queue string, in *temporal.RunInput) (*temporal.Outcome, error) {
	r.note(id)
	return r.Backend.Start(ctx, id, queue, in)
}

func (r *recording) Resume(ctx context.Context, id string, req *temporal.ResumeRequest) (*temporal.Outcome, error) {
	r.note(id)
	return r.Backend.Resume(ctx, id, req)
}

// TestWorkflowIDFromRun: a run's workflow id is made of the run's id, which
// its resume tokens carry: a resume by token, or by approval id, goes to
// that workflow, from a client that knows nothing else of the run.
func TestWorkflowIDFromRun(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gates.lobster")
	os.WriteFile(path, []byte(`steps:
  - id: first
    approval: First?
  - id: second
    approval: Second?
  - id: done
    run: echo done
`), 0o644)
	f, _ := parser.Parse(path, mustRead(t, path))
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	b := &recording{Backend: temporaltest.New(&temporal.Activities{Env: env})}
	defer b.Close()
	ctx := context.Background()
	res, err := temporal.NewEngine(b, temporal.Config{}).Run(ctx, temporal.RunRequest{File: f, Path: path, Env: env, Dir: dir})
	if err != nil || res.Status != envelope.StatusNeedsApproval {
		t.Fatalf("run: %+v %v", res, err)
	}
	token, _ := res.RequiresApproval.Get("resumeToken")
	tok, err := state.DecodeToken(token.(string))
	if err != nil {
		t.Fatal(err)
	}
	runID, gate, ok := temporal.ParseTokenKey(tok.StateKey)
	if !ok || gate != 1 || b.ids[0] != temporal.WorkflowIDPrefix+runID {
		t.Fatalf("token %s (run %q, gate %d) of workflow %s", tok.StateKey, runID, gate, b.ids[0])
	}
	// Another client: by the token.
	res, err = temporal.NewEngine(b, temporal.Config{}).Resume(ctx, temporal.Resume{Token: token.(string), Approve: ptr(true)})
	if err != nil || res.Status != envelope.StatusNeedsApproval {
		t.Fatalf("resume by token: %+v %v", res, err)
	}
	// And another: by the approval id.
	id, _ := res.RequiresApproval.Get("approvalId")
	res, err = temporal.NewEngine(b, temporal.Config{}).Resume(ctx, temporal.Resume{ID: id.(string), Approve: ptr(true)})
	if err != nil || res.Status != envelope.StatusOK {
		t.Fatalf("resume by approval id: %+v %v", res, err)
	}
	for i, got := range b.ids {
		if got != b.ids[0] {
			t.Errorf("call %d went to workflow %s, not %s", i, got, b.ids[0])
		}
	}
	if len(b.ids) != 3 {
		t.Errorf("workflow ids asked for: %v", b.ids)
	}
}

// runLocal runs f on the local engine, from dir.
func runLocal(t *testing.T, f *ast.File, path, dir string, env []string) (envelope.Result, error) {
	t.Helper()
	return engine.Run(context.Background(), f, engine.Options{Env: env, FilePath: path, Dir: dir, StateDir: filepath.Join(dir, ".state")})
}

// startRecorder is a backend that records the runs started on it and
// starts none.
type startRecorder struct {
	temporal.Backend
	queue string
	in    *temporal.RunInput
}

func (r *startRecorder) Start(_ context.Context, _, taskQueue string, in *temporal.RunInput) (*temporal.Outcome, error) {
	r.queue, r.in = taskQueue, in
	return nil, errors.New("not started")
}

// TestHeartbeatFromProject: the project configuration's heartbeat_ms goes
// with the run (its activities' heartbeat timeout); a request's own
// overrides it, and without either the workflow's default applies.
func TestHeartbeatFromProject(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "w.lobster")
	src := "steps:\n  - id: a\n    run: echo a\n"
	os.WriteFile(path, []byte(src), 0o644)
	f, _ := parser.Parse(path, []byte(src))
	start := func(req temporal.RunRequest) *temporal.RunInput {
		t.Helper()
		r := &startRecorder{}
		req.File, req.Path = f, path
		temporal.NewEngine(r, temporal.Config{}).Run(context.Background(), req)
		if r.in == nil {
			t.Fatal("no run started")
		}
		return r.in
	}
	if in := start(temporal.RunRequest{}); in.HeartbeatMs != 0 {
		t.Errorf("no configuration: heartbeat %d, want 0 (the default)", in.HeartbeatMs)
	}
	os.WriteFile(filepath.Join(dir, ".lobsterrc.yaml"), []byte("temporal:\n  heartbeat_ms: 30000\n"), 0o644)
	if in := start(temporal.RunRequest{}); in.HeartbeatMs != 30000 {
		t.Errorf("from the project: heartbeat %d, want 30000", in.HeartbeatMs)
	}
	if in := start(temporal.RunRequest{HeartbeatMs: 4000}); in.HeartbeatMs != 4000 {
		t.Errorf("from the request: heartbeat %d, want 4000", in.HeartbeatMs)
	}
}
