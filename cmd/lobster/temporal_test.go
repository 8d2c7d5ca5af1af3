//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/internal/conformance"
	"github.com/lobsterdev/lobster/runtime/engines"
	"github.com/lobsterdev/lobster/runtime/state"
	"github.com/lobsterdev/lobster/runtime/temporal"
	"github.com/lobsterdev/lobster/runtime/temporal/temporaltest"
)

// TestConformanceOnTemporal replays the conformance cases that run or
// resume a workflow with --engine temporal, in process, each case's runs
// in Temporal's test environment (workflow code, activities and child
// workflows in this process): the same exit codes, standard output and,
// where compared, standard error as the local engine, except the listing
// of the state directory, which a run on Temporal does not use.
//
// Cases run one after another: each sets the process's working
// directory and environment, as its commands would be run in.
func TestConformanceOnTemporal(t *testing.T) {
	cases, err := conformance.Glob(filepath.Join("..", "..", "conformance", "cases"))
	if err != nil {
		t.Fatal(err)
	}
	procs := goruntime.GOMAXPROCS(0)
	defer goruntime.GOMAXPROCS(procs)
	ran, passed := 0, 0
	for _, c := range cases {
		if !c.RunsWorkflow() {
			continue
		}
		ran++
		ok := t.Run(c.Name(), func(t *testing.T) { runOnTemporal(t, c) })
		if ok {
			passed++
		}
	}
	t.Logf("%d of %d cases that run workflows pass on Temporal's test environment", passed, ran)
	if ran < 100 {
		t.Fatalf("only %d cases run workflows", ran)
	}
}

// shims is the directory of the openclaw.invoke and clawd.invoke programs
// the cases that name $SHIMS run: this test binary, as TestMain puts it on
// PATH under those names and as lobster, which they run.
func shims() (string, error) {
	p, err := exec.LookPath("openclaw.invoke")
	if err != nil {
		return "", err
	}
	return filepath.Dir(p), nil
}

func runOnTemporal(t *testing.T, c *conformance.Case) {
	backend := temporaltest.New(&temporal.Activities{})
	defer backend.Close()
	runCase(t, c, func(_ context.Context, cfg engines.Config) (engines.Engine, error) {
		return engines.OnTemporal(temporal.NewEngine(kept{backend}, cfg.Temporal)), nil
	})
}

// runCase runs a conformance case with --engine temporal, each command
// of the case in this process, on the engines open opens.
func runCase(t *testing.T, c *conformance.Case, open func(context.Context, engines.Config) (engines.Engine, error)) {
	work, _ := filepath.EvalSymlinks(t.TempDir())
	dir := ""
	if strings.Contains(string(c.Files["cmd"]), "$SHIMS") {
		var err error
		if dir, err = shims(); err != nil {
			t.Fatal(err)
		}
	}
	setup, err := c.SetUp(work, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer setup.Close()
	t.Chdir(work)
	// The commands see only the case's environment, as in the binary's
	// suite (this process's LOBSTER_ and TEMPORAL_ settings are not
	// theirs).
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "LOBSTER_") || strings.HasPrefix(name, "TEMPORAL_") {
			t.Setenv(name, "")
			os.Unsetenv(name)
		}
	}
	t.Setenv("HOME", work)
	t.Setenv("LOBSTER_STATE_DIR", filepath.Join(work, ".state"))

	saved := openEngine
	openEngine = func(ctx context.Context, cfg engines.Config) (engines.Engine, error) {
		if cfg.Engine != engines.Temporal {
			t.Fatalf("the command chose engine %q", cfg.Engine)
		}
		return open(ctx, cfg)
	}
	defer func() { openEngine = saved }()

	var stderr bytes.Buffer
	out, code := setup.Replay(c, func(args []string, env map[string]string) (string, int) {
		if len(args) > 0 && (args[0] == "run" || args[0] == "resume") {
			args = append([]string{args[0], "--engine", "temporal"}, args[1:]...)
		}
		for k, v := range env {
			os.Setenv(k, v)
		}
		var stdout bytes.Buffer
		code := run(args, strings.NewReader(""), &stdout, &stderr)
		for k := range env {
			os.Unsetenv(k)
		}
		return stdout.String(), code
	})
	var transcript strings.Builder
	transcript.WriteString(out)
	transcript.WriteString(setup.Trailer())
	wantExit, wantOut, wantErr := c.Want()
	gotErr := strings.ReplaceAll(stderr.String(), work, "$WORK")
	if got := strconv.Itoa(code); got != wantExit {
		t.Errorf("exit %s, want %s\nstderr:\n%s", got, wantExit, stderr.String())
	}
	if got, want := transcript.String(), conformance.WithoutState(wantOut); got != want {
		t.Errorf("stdout:\n%s\nwant:\n%s\nstderr:\n%s", got, want, stderr.String())
	}
	if c.CompareStderr() && gotErr != wantErr {
		t.Errorf("stderr:\n%s\nwant:\n%s", gotErr, wantErr)
	}
}

// kept is a backend that a command's Close leaves open: the case's runs
// outlive the command that started them, as runs on Temporal do.
type kept struct{ temporal.Backend }

func (kept) Close() {}

// TestMCPOnTemporal: lobster mcp takes the engine's flags and variables
// as lobster run does, and its run and resume tools go to the engine they
// open: a run pauses on Temporal (its token names a run there) and the
// resume tool continues it there.
func TestMCPOnTemporal(t *testing.T) {
	var stderr bytes.Buffer
	if code := run([]string{"mcp", "--engine", "temporal"}, strings.NewReader(""), io.Discard, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "give --allow-run") {
		t.Errorf("--engine temporal without --allow-run: exit %d, %s", code, stderr.String())
	}

	dir := t.TempDir()
	t.Chdir(dir)
	src := "steps:\n  - id: confirm\n    approval: Deploy?\n    run: echo checked\n  - id: deploy\n    run: echo deployed\n"
	if err := os.WriteFile(filepath.Join(dir, "deploy.lobster"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TEMPORAL_ADDRESS", "")
	t.Setenv("TEMPORAL_NAMESPACE", "ns1")
	t.Setenv("LOBSTER_STATE_DIR", filepath.Join(dir, ".state"))
	backend := temporaltest.New(&temporal.Activities{})
	defer backend.Close()
	var got engines.Config
	saved := openEngine
	openEngine = func(_ context.Context, cfg engines.Config) (engines.Engine, error) {
		got = cfg
		return engines.OnTemporal(temporal.NewEngine(backend, cfg.Temporal)), nil
	}
	defer func() { openEngine = saved }()

	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- runMCP([]string{"--allow-run", "--allow-agent-approval", "--shellcheck", "off",
			"--engine", "temporal", "--temporal-address", "h:1", "--task-queue", "q"}, inR, outW, io.Discard)
		outW.Close()
	}()
	p := &rpcPeer{t: t, in: inW, out: bufio.NewReader(outR)}
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`)
	p.reply(1)
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	if want := (engines.Config{Engine: engines.Temporal, Temporal: temporal.Config{Address: "h:1", Namespace: "ns1", TaskQueue: "q"}}); got != want {
		t.Errorf("opened %+v, want %+v", got, want)
	}
	call := func(id int, tool string, args map[string]any) map[string]any {
		t.Helper()
		env, content := p.callTool(id, tool, args)
		if env == nil {
			t.Fatalf("%s: %s", tool, content)
		}
		return env
	}
	env := call(2, "run", map[string]any{"path": "deploy.lobster"})
	req, _ := env["requiresApproval"].(map[string]any)
	token, _ := req["resumeToken"].(string)
	tok, err := state.DecodeToken(token)
	if _, _, onTemporal := temporal.ParseTokenKey(tok.StateKey); err != nil || env["status"] != "needs_approval" || !onTemporal {
		t.Fatalf("run: %v (%v)", env, err)
	}
	env = call(3, "resume", map[string]any{"token": token, "approve": true})
	if out, _ := json.Marshal(env["output"]); env["status"] != "ok" || string(out) != `["deployed\n"]` {
		t.Errorf("resume: %v", env)
	}
	inW.Close()
	if code := <-done; code != exitOK {
		t.Errorf("exit %d", code)
	}
}
