//go:build unix && temporaldev

package main

// The suite against a real Temporal service, opt-in: make test-temporal
// (go test -tags temporaldev ./cmd/lobster -run TestOnDevServer). It needs
// the temporal CLI (go install github.com/temporalio/cli/cmd/temporal@v1.5.1)
// on PATH or in $(go env GOPATH)/bin, and starts dev servers of its own on
// free ports, workers as processes of a lobster built from this checkout,
// and stops them all when it ends. It runs:
//
//   - the README's walkthrough, its four terminals as shown;
//   - the conformance cases that run workflows, end to end on the server;
//   - fault tests: a worker killed in the middle of a step, one killed
//     after its step sent a request that must not be sent twice, the
//     client killed while its run goes on to a gate, the server restarted
//     under a paused run and a running step;
//   - 2 workers × 100 concurrent runs, and the throughput of run-100
//     against the local engine (logged, for the record);
//   - the runs whose histories the replay test of runtime/temporal reads
//     (-record-histories writes them again).

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/api/temporalproto"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"

	"github.com/lobsterdev/lobster/internal/conformance"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/engines"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/temporal"
)

var recordHistories = flag.Bool("record-histories", false, "write the histories the replay test of runtime/temporal reads")

// historiesDir is where the replay test of runtime/temporal finds them.
var historiesDir = filepath.Join(repoRoot, "runtime", "temporal", "testdata", "histories")

// buildLobster builds lobster without the race detector: the fault tests
// kill it as a separate program and the throughput test times it, which
// this test binary (race-instrumented under make test) would distort.
func buildLobster(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "lobster")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func TestOnDevServer(t *testing.T) {
	cli := temporalCLI(t)
	bin := buildLobster(t)
	t.Run("walkthrough", func(t *testing.T) { testWalkthrough(t, cli) })
	s := startDevServer(t, cli, "", 0)
	t.Run("conformance", func(t *testing.T) { testConformanceOnServer(t, s) })
	t.Run("pinned steps", func(t *testing.T) { testPinnedSteps(t, s, bin) })
	t.Run("payload limit", func(t *testing.T) { testPayloadLimit(t, s, bin) })
	t.Run("gates back to back", func(t *testing.T) { testGatesBackToBack(t, s, bin) })
	t.Run("mcp", func(t *testing.T) { testMCPOnServer(t, s, bin) })
	t.Run("worker killed mid-step", func(t *testing.T) { testWorkerKilled(t, s, bin) })
	t.Run("worker killed after a dispatch", func(t *testing.T) { testWorkerKilledAfterDispatch(t, s, bin) })
	t.Run("client killed before the gate", func(t *testing.T) { testClientKilled(t, s, bin) })
	t.Run("2 workers 100 runs", func(t *testing.T) { testConcurrentRuns(t, s, bin) })
	t.Run("throughput run-100", func(t *testing.T) { testThroughput(t, s, bin) })
	t.Run("histories", func(t *testing.T) { testHistories(t, s, bin) })
	t.Run("server restart", func(t *testing.T) { testServerRestart(t, cli, bin) })
}

// temporalCLI is the temporal program.
func temporalCLI(t *testing.T) string {
	if p, err := exec.LookPath("temporal"); err == nil {
		return p
	}
	out, err := exec.Command("go", "env", "GOPATH").Output()
	if err == nil {
		p := filepath.Join(strings.TrimSpace(string(out)), "bin", "temporal")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Fatal("the temporal CLI is not installed: go install github.com/temporalio/cli/cmd/temporal@v1.5.1")
	return ""
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// A logBuffer is a process's output, safe to read while it writes.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// A bgProc is a background process in a process group of its own.
type bgProc struct {
	cmd  *exec.Cmd
	log  logBuffer
	done chan struct{}
	err  error
}

func startProc(t *testing.T, cmd *exec.Cmd) *bgProc {
	p := &bgProc{cmd: cmd, done: make(chan struct{})}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdout, cmd.Stderr = &p.log, &p.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.err = cmd.Wait(); close(p.done) }()
	t.Cleanup(func() { p.stop(syscall.SIGKILL) })
	return p
}

// stop sends sig to the process group and waits (up to 30 s, then SIGKILL).
func (p *bgProc) stop(sig syscall.Signal) {
	syscall.Kill(-p.cmd.Process.Pid, sig)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
		<-p.done
	}
}

// await waits up to 3 minutes for the process to end, else fails the test
// saying what did not end, with the process's log.
func (p *bgProc) await(t *testing.T, what string) {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(3 * time.Minute):
		t.Fatalf("%s:\n%s", what, p.log.String())
	}
}

func (p *bgProc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// waitFor waits up to d for cond, checking every 50 ms.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}

// A devServer is a temporal server start-dev of the test's own.
type devServer struct {
	t    *testing.T
	cli  string
	port int
	db   string
	p    *bgProc
}

// startDevServer starts a dev server on port (0: a free one), keeping its
// state in db ("" for none), and waits until it answers.
func startDevServer(t *testing.T, cli, db string, port int) *devServer {
	if port == 0 {
		port = freePort(t)
	}
	s := &devServer{t: t, cli: cli, port: port, db: db}
	s.start()
	return s
}

func (s *devServer) addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

func (s *devServer) start() {
	args := []string{"server", "start-dev", "--headless", "--ip", "127.0.0.1", "--port", strconv.Itoa(s.port), "--log-level", "error"}
	if s.db != "" {
		args = append(args, "--db-filename", s.db)
	}
	s.p = startProc(s.t, exec.Command(s.cli, args...))
	waitServer(s.t, s.addr(), s.p)
}

// waitServer waits until the service at addr answers.
func waitServer(t *testing.T, addr string, p *bgProc) {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		c, err := client.DialContext(ctx, client.Options{HostPort: addr, Logger: quiet{}})
		cancel()
		if err == nil {
			c.Close()
			return
		}
		if p.exited() || time.Now().After(deadline) {
			t.Fatalf("the dev server at %s did not answer: %v\n%s", addr, err, p.log.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// quiet is an SDK logger that says nothing.
type quiet struct{}

func (quiet) Debug(string, ...any) {}
func (quiet) Info(string, ...any)  {}
func (quiet) Warn(string, ...any)  {}
func (quiet) Error(string, ...any) {}

// cleanEnv is this process's environment without LOBSTER_ and TEMPORAL_
// settings, HOME and the state directory in dir.
func cleanEnv(dir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "LOBSTER_") || strings.HasPrefix(k, "TEMPORAL_") || k == "HOME" {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "HOME="+dir, "LOBSTER_STATE_DIR="+filepath.Join(dir, ".state"), "GORACE=atexit_sleep_ms=0")
}

// startWorker starts lobster worker for queue and waits until it serves.
func startWorker(t *testing.T, bin, addr, queue, home string) *bgProc {
	cmd := exec.Command(bin, "worker", "--temporal-address", addr, "--task-queue", queue)
	cmd.Env = cleanEnv(home)
	p := startProc(t, cmd)
	if !waitFor(time.Minute, func() bool { return strings.Contains(p.log.String(), "serving task queue") || p.exited() }) || p.exited() {
		t.Fatalf("the worker did not start:\n%s", p.log.String())
	}
	return p
}

// lobster runs bin with args in dir and returns its stdout, stderr and
// exit code.
func lobster(t *testing.T, bin, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env = dir, env
	return runProgram(t, cmd)
}

func onServer(addr, queue string) []string {
	return []string{"--engine", "temporal", "--temporal-address", addr, "--task-queue", queue}
}

// envelopeOf decodes a tool-mode envelope.
func envelopeOf(t *testing.T, stdout string) map[string]any {
	var v map[string]any
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatalf("not an envelope: %v\n%s", err, stdout)
	}
	return v
}

var approvalIDRE = regexp.MustCompile(`"approvalId": "([0-9a-f]+)"`)

// readmeID is the approval id the README's walkthrough shows.
const readmeID = "5e0c1a2b"

// testWalkthrough runs the README's walkthrough as it is shown: terminal
// 1 (the dev server; a wrapper gives it a free port), terminal 2 (the
// worker) in the background, the commands of terminals 3 and 4 one by one
// with their output compared, terminal 3 closed before terminal 4 opens.
func testWalkthrough(t *testing.T, cli string) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	bs, _, _ := blocks("README.md", string(data))
	terminals := map[int]*mdBlock{}
	for _, b := range bs {
		r, ok := b.marks["not run"]
		if rest, found := strings.CutPrefix(r, "walkthrough terminal "); ok && found {
			n, _ := strconv.Atoi(strings.SplitN(rest, ",", 2)[0])
			terminals[n] = b
		}
	}
	for n := 1; n <= 4; n++ {
		if terminals[n] == nil {
			t.Fatalf("the README has no block marked walkthrough terminal %d", n)
		}
	}
	dir := t.TempDir()
	work, home, wrap := filepath.Join(dir, "work"), filepath.Join(dir, "home"), filepath.Join(dir, "bin")
	if err := copyDir(filepath.Join(repoRoot, "examples"), filepath.Join(work, "examples")); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(home, 0o700)
	os.MkdirAll(wrap, 0o755)
	port := freePort(t)
	// The README's server listens on 7233; this one on a free port, and
	// the other terminals are told so by TEMPORAL_ADDRESS.
	os.WriteFile(filepath.Join(wrap, "temporal"), []byte(fmt.Sprintf(`#!/bin/sh
if [ "$1 $2" = "server start-dev" ]; then exec %q "$@" --headless --ip 127.0.0.1 --port %d --log-level error; fi
exec %q "$@"
`, cli, port, cli)), 0o755)
	addr := "127.0.0.1:" + strconv.Itoa(port)
	env := docEnv(home)
	for i, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			env[i] = "PATH=" + wrap + ":" + strings.TrimPrefix(kv, "PATH=")
		}
	}
	env = append(env, "TEMPORAL_ADDRESS="+addr)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal(err)
	}
	background := func(b *mdBlock) *bgProc {
		cmd := exec.Command(bash, "--noprofile", "--norc", "-c", b.text)
		cmd.Dir, cmd.Env = work, env
		return startProc(t, cmd)
	}
	server := background(terminals[1])
	waitServer(t, addr, server)
	worker := background(terminals[2])
	if !waitFor(time.Minute, func() bool { return strings.Contains(worker.log.String(), "serving task queue") || worker.exited() }) || worker.exited() {
		t.Fatalf("terminal 2: the worker did not start:\n%s", worker.log.String())
	}
	id := ""
	for _, n := range []int{3, 4} {
		b := terminals[n]
		cmds, err := b.commands()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cmds {
			if c.text == "exit" {
				continue // the terminal closes: nothing of it stays
			}
			text, want := c.text, c.want
			if id != "" {
				text, want = strings.ReplaceAll(text, readmeID, id), strings.ReplaceAll(want, readmeID, id)
			}
			cmd := exec.Command(bash, "--noprofile", "--norc", "-c", text)
			cmd.Dir, cmd.Env, cmd.Stdin = work, env, strings.NewReader("")
			out, _ := cmd.CombinedOutput()
			got := string(out)
			if id == "" {
				if m := approvalIDRE.FindStringSubmatch(got); m != nil {
					id = m[1]
					want = strings.ReplaceAll(want, readmeID, id)
				}
			}
			if !matchOutput(want, got) {
				t.Errorf("README.md:%d: $ %s\nthe output shown:\n%s\nthe output now:\n%s", c.line, text, indent(want), indent(got))
			}
		}
	}
	// Ctrl-C, as the README says.
	worker.stop(syscall.SIGINT)
	server.stop(syscall.SIGINT)
}

// testConformanceOnServer runs the conformance cases that run workflows
// with --engine temporal against the dev server, a worker of this process
// serving their task queue.
func testConformanceOnServer(t *testing.T, s *devServer) {
	cases, err := conformance.Glob(filepath.Join("..", "..", "conformance", "cases"))
	if err != nil {
		t.Fatal(err)
	}
	queue := "conformance"
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- temporal.RunWorker(ctx, temporal.WorkerOptions{Config: temporal.Config{Address: s.addr(), TaskQueue: queue},
			OnReady: func() { close(ready) }})
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatal(err)
	}
	defer func() { cancel(); <-done }()
	open := func(ctx context.Context, cfg engines.Config) (engines.Engine, error) {
		cfg.Temporal.Address, cfg.Temporal.TaskQueue = s.addr(), queue
		return engines.Open(ctx, cfg)
	}
	ran, passed := 0, 0
	for _, c := range cases {
		if !c.RunsWorkflow() {
			continue
		}
		ran++
		if t.Run(c.Name(), func(t *testing.T) { runCase(t, c, open) }) {
			passed++
		}
	}
	t.Logf("%d of %d cases that run workflows pass on a Temporal dev server", passed, ran)
}

// testPinnedSteps: the project's routes pin steps to a task queue. A
// routed step waits, unrun, while no worker serves its queue, then runs on
// the worker started for it; the other steps run on the run's own queue's
// worker. The workers run in another directory than the client: every
// step runs where the run was started.
func testPinnedSteps(t *testing.T, s *devServer, bin string) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".lobsterrc.yaml"), []byte(`temporal:
  task_queue: pinned
  routes:
    - steps: ["train*"]
      task_queue: pinned-gpu
`), 0o644)
	note := func(id string) string { return `echo "` + id + ` $PPID $(pwd)" >> ran.log` }
	os.WriteFile(filepath.Join(dir, "w.lobster"), []byte(`steps:
  - id: fetch
    run: `+note("fetch")+`; echo '["a","b"]'
  - id: train
    run: `+note("train")+`
  - id: each
    for_each: $fetch.json
    steps:
      - id: train-item
        run: `+note("train-item")+`
  - id: report
    run: `+note("report")+`; echo reported
`), 0o644)
	cpu := startWorker(t, bin, s.addr(), "pinned", dir)
	// The run's queue comes from the project, not from --task-queue.
	client := exec.Command(bin, append([]string{"run", "--mode", "tool"}, append(onServer(s.addr(), "")[:4], "w.lobster")...)...)
	client.Dir, client.Env = dir, cleanEnv(dir)
	c := startProc(t, client)
	ranLog := func() string { data, _ := os.ReadFile(filepath.Join(dir, "ran.log")); return string(data) }
	if !waitFor(2*time.Minute, func() bool { return strings.Contains(ranLog(), "fetch ") || c.exited() }) || c.exited() {
		t.Fatalf("fetch did not run:\n%s", c.log.String())
	}
	time.Sleep(5 * time.Second)
	if strings.Contains(ranLog(), "train") || c.exited() {
		t.Fatalf("train ran with no worker on its queue:\n%s\n%s", ranLog(), c.log.String())
	}
	gpu := startWorker(t, bin, s.addr(), "pinned-gpu", dir)
	c.await(t, "the run did not end")
	if out := c.log.String(); c.err != nil || !strings.Contains(out, `"reported\n"`) {
		t.Fatalf("the run: %v\n%s", c.err, out)
	}
	cpuPid, gpuPid := strconv.Itoa(cpu.cmd.Process.Pid), strconv.Itoa(gpu.cmd.Process.Pid)
	want := strings.Join([]string{
		"fetch " + cpuPid + " " + dir,
		"train " + gpuPid + " " + dir,
		"train-item " + gpuPid + " " + dir,
		"train-item " + gpuPid + " " + dir,
		"report " + cpuPid + " " + dir,
	}, "\n") + "\n"
	if got := ranLog(); got != want {
		t.Errorf("steps, workers and directories:\n%s\nwant:\n%s", got, want)
	}
	t.Logf("train and train-item waited for a worker on pinned-gpu and ran on it (pid %s); fetch and report on pinned (pid %s); all in the run's directory", gpuPid, cpuPid)
}

// testPayloadLimit: a step's result over the limit of a Temporal payload
// fails with lobster's message, not the service's; one under it reaches
// the next step whole.
func testPayloadLimit(t *testing.T, s *devServer, bin string) {
	dir := t.TempDir()
	queue := "payload"
	startWorker(t, bin, s.addr(), queue, dir)
	// Base64 of random bytes: compression takes a quarter off, no more.
	os.WriteFile(filepath.Join(dir, "w.lobster"), []byte(`steps:
  - id: big
    run: head -c 2400000 /dev/urandom | base64 -w0
    on_error: continue
  - id: fits
    run: head -c 1200000 /dev/urandom | base64 -w0
  - id: after
    run: printf '%s|' "$E"; wc -c
    stdin: $fits.stdout
    env:
      E: $big.errorMessage
`), 0o644)
	out, errOut, code := lobster(t, bin, dir, cleanEnv(dir), append([]string{"run", "--mode", "tool"}, append(onServer(s.addr(), queue), "w.lobster")...)...)
	if code != 0 {
		t.Fatalf("exit %d\n%.2000s\n%s", code, out, errOut)
	}
	items, _ := envelopeOf(t, out)["output"].([]any)
	got := ""
	if len(items) == 1 {
		got = fmt.Sprint(items[0])
	}
	msg, n, _ := strings.Cut(strings.TrimSpace(got), "|")
	if !strings.HasPrefix(msg, "Step 'big' output is ") || !strings.Contains(msg, "over the 2000000 bytes a Temporal payload may hold here") {
		t.Errorf("the error of the step over the limit: %q", msg)
	}
	if strings.TrimSpace(n) != "1600000" {
		t.Errorf("the step under the limit reached the next with %q bytes, want 1600000", n)
	}
	t.Logf("a step printing 3.2 MB (2.4 MB compressed): %s; one printing 1.6 MB reached the next step whole", msg)
}

// pidOf reads the pid a step wrote to file (written atomically).
func pidOf(t *testing.T, file string) int {
	var pid int
	if !waitFor(2*time.Minute, func() bool {
		data, err := os.ReadFile(file)
		if err != nil {
			return false
		}
		pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		return pid != 0
	}) {
		t.Fatalf("%s was not written", file)
	}
	return pid
}

// killWorker kills, with SIGKILL, the worker (of ws) whose pid is pid,
// the worker process alone; it returns the others.
func killWorker(t *testing.T, ws []*bgProc, pid int) []*bgProc {
	var rest []*bgProc
	found := false
	for _, w := range ws {
		if w.cmd.Process.Pid == pid {
			syscall.Kill(pid, syscall.SIGKILL)
			<-w.done
			found = true
			continue
		}
		rest = append(rest, w)
	}
	if !found {
		t.Fatalf("no worker has pid %d", pid)
	}
	return rest
}

// testWorkerKilled: a worker killed in the middle of a step loses that
// attempt; the run goes on on the other worker, which makes the step's
// next attempt; what the killed attempt had not done yet is never done.
func testWorkerKilled(t *testing.T, s *devServer, bin string) {
	dir := t.TempDir()
	queue := "killed"
	ws := []*bgProc{startWorker(t, bin, s.addr(), queue, dir), startWorker(t, bin, s.addr(), queue, dir)}
	os.WriteFile(filepath.Join(dir, "w.lobster"), []byte(`steps:
  - id: work
    run: echo "$PPID start" >> log; echo $PPID > pid.tmp; mv pid.tmp pid; sleep 3; echo "$PPID done" >> log; echo "$PPID"
    retry: {max: 3, delay_ms: 10}
  - id: after
    run: echo after
`), 0o644)
	client := exec.Command(bin, append([]string{"run", "--mode", "tool"}, append(onServer(s.addr(), queue), "w.lobster")...)...)
	client.Dir, client.Env = dir, cleanEnv(dir)
	c := startProc(t, client)
	first := pidOf(t, filepath.Join(dir, "pid"))
	os.Remove(filepath.Join(dir, "pid"))
	rest := killWorker(t, ws, first)
	c.await(t, "the run did not end")
	out := c.log.String()
	if c.err != nil || !strings.Contains(out, `"after\n"`) {
		t.Fatalf("the run: %v\n%s", c.err, out)
	}
	if !strings.Contains(out, "[RETRY] Step 'work' failed (attempt 1/3): Step 'work' lost its worker") {
		t.Errorf("no retry after the lost worker:\n%s", out)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "log"))
	second := rest[0].cmd.Process.Pid
	want := fmt.Sprintf("%d start\n%d start\n%d done\n", first, second, second)
	if string(log) != want {
		t.Errorf("the step's log:\n%s\nwant:\n%s", log, want)
	}
	t.Logf("worker %d killed in the middle of step work; its attempt's script stopped there; worker %d made attempt 2, and the run ended ok", first, second)
}

// testWorkerKilledAfterDispatch: a worker killed after its step sent a
// request that must not be sent twice: the step is not retried, though
// its retry allows it, and fails as lost; the server saw one request.
func testWorkerKilledAfterDispatch(t *testing.T, s *devServer, bin string) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"ok": true, "result": "done"}`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	queue := "dispatch"
	ws := []*bgProc{startWorker(t, bin, s.addr(), queue, dir), startWorker(t, bin, s.addr(), queue, dir)}
	os.WriteFile(filepath.Join(dir, "w.lobster"), []byte(`steps:
  - id: send
    pipeline: clawd.invoke --url `+srv.URL+` --tool demo --action write | exec --stdin raw --shell 'echo $PPID > pid.tmp; mv pid.tmp pid; sleep 30; cat'
    retry: {max: 3, delay_ms: 10}
    on_error: continue
  - id: after
    run: printf '%s' "$M"
    env:
      M: $send.errorMessage
`), 0o644)
	client := exec.Command(bin, append([]string{"run", "--mode", "tool"}, append(onServer(s.addr(), queue), "w.lobster")...)...)
	client.Dir, client.Env = dir, cleanEnv(dir)
	c := startProc(t, client)
	pid := pidOf(t, filepath.Join(dir, "pid"))
	// The heartbeat that tells of the request goes out within a second.
	time.Sleep(2 * time.Second)
	killWorker(t, ws, pid)
	c.await(t, "the run did not end")
	out := c.log.String()
	if c.err != nil || !strings.Contains(out, "Step 'send' lost its worker") {
		t.Fatalf("the run: %v\n%s", c.err, out)
	}
	if strings.Contains(out, "[RETRY]") {
		t.Errorf("the step was retried after its request was sent:\n%s", out)
	}
	if n := requests.Load(); n != 1 {
		t.Errorf("the server saw %d requests, want 1", n)
	}
	t.Logf("worker killed after its step's request: not retried, %d request", requests.Load())
}

// testClientKilled: the client killed while its run goes on to a gate;
// the run gets there without it, state list from elsewhere shows it, and
// lobster resume from elsewhere finishes it.
func testClientKilled(t *testing.T, s *devServer, bin string) {
	dir, other := t.TempDir(), t.TempDir()
	queue := "client"
	startWorker(t, bin, s.addr(), queue, dir)
	os.WriteFile(filepath.Join(dir, "w.lobster"), []byte(`steps:
  - id: build
    run: echo begun > begun.tmp; mv begun.tmp begun; sleep 2; echo built
  - id: confirm
    approval: Ship it?
  - id: ship
    run: echo "shipped $BUILT"
    env:
      BUILT: $build.stdout
`), 0o644)
	client := exec.Command(bin, append([]string{"run", "--mode", "tool"}, append(onServer(s.addr(), queue), "w.lobster")...)...)
	client.Dir, client.Env = dir, cleanEnv(dir)
	c := startProc(t, client)
	if !waitFor(2*time.Minute, func() bool { _, err := os.Stat(filepath.Join(dir, "begun")); return err == nil }) {
		t.Fatalf("the run did not start:\n%s", c.log.String())
	}
	c.stop(syscall.SIGKILL)
	file := filepath.Join(dir, "w.lobster")
	realFile, _ := filepath.EvalSymlinks(file)
	env := cleanEnv(other) // another machine: its own home and state
	var runs []map[string]any
	if !waitFor(2*time.Minute, func() bool {
		out, _, code := lobster(t, bin, other, env, append([]string{"state", "list", "--format", "json"}, onServer(s.addr(), queue)[:4]...)...)
		runs = nil
		json.Unmarshal([]byte(out), &runs)
		for _, r := range runs {
			// This run's file: other tests leave runs paused at gates, in
			// directories of the same base name.
			if w := fmt.Sprint(r["workflow"]); w == file || w == realFile {
				runs = []map[string]any{r}
				return code == 0
			}
		}
		return false
	}) {
		t.Fatalf("the run did not show paused: %v", runs)
	}
	id := fmt.Sprint(runs[0]["approvalId"])
	out, errOut, code := lobster(t, bin, other, env, append([]string{"resume", "--id", id, "--approve", "yes"}, onServer(s.addr(), queue)[:4]...)...)
	if code != 0 || !strings.Contains(out, `"shipped built\n\n"`) {
		t.Fatalf("resume from elsewhere: exit %d\n%s%s", code, out, errOut)
	}
	t.Logf("client killed during step build; the run paused at confirm without it; resumed from another directory and home: ok")
}

// smallRun is the workflow of the concurrency test: three steps, each on
// whichever worker takes it.
const smallRun = `steps:
  - id: a
    run: echo "$PPID"
  - id: b
    run: echo "$PPID"
  - id: c
    run: printf '%s %s %s' "$A" "$B" "$PPID"
    env:
      A: $a.stdout
      B: $b.stdout
`

// testGatesBackToBack: runs with two approval gates, each resumed as
// soon as it pauses, 40 at once: every resume gets its outcome. The
// second resume can meet the first gate's approval workflow ending while
// the run ends, which fails that workflow task; the update it carried is
// refused as not taken in, and the client sends it again.
func testGatesBackToBack(t *testing.T, s *devServer, bin string) {
	dir := t.TempDir()
	queue := "gates"
	startWorker(t, bin, s.addr(), queue, dir)
	path := filepath.Join(dir, "gates.lobster")
	src := `steps:
  - id: first
    approval: First?
  - id: second
    approval: Second?
`
	os.WriteFile(path, []byte(src), 0o644)
	f, _ := parser.Parse(path, []byte(src))
	env := cleanEnv(dir)
	ctx := context.Background()
	e := openOnServer(t, s, queue)
	const n = 40
	yes := true
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := e.Run(ctx, engines.RunRequest{File: f, Path: path, Env: env, Dir: dir})
			for gate := 1; err == nil && res.Status == envelope.StatusNeedsApproval; gate++ {
				token, _ := res.RequiresApproval.Get("resumeToken")
				res, err = e.Resume(ctx, engines.ResumeRequest{Token: fmt.Sprint(token), Approve: &yes, Env: env})
			}
			if err == nil && res.Status != envelope.StatusOK {
				err = fmt.Errorf("status %s", res.Status)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	failed := 0
	for i, err := range errs {
		if err != nil {
			failed++
			t.Errorf("run %d: %v", i, err)
		}
	}
	t.Logf("%d runs through two gates resumed back to back: %d ended ok", n, n-failed)
}

// testMCPOnServer: lobster mcp --engine temporal runs a workflow on the
// server; its pause is approved once from a terminal (lobster resume
// --engine temporal --id) and once through the resume tool, after the
// tool, without a way to ask a person, said how to.
func testMCPOnServer(t *testing.T, s *devServer, bin string) {
	dir := t.TempDir()
	queue := "mcp"
	startWorker(t, bin, s.addr(), queue, dir)
	src := "steps:\n  - id: confirm\n    approval: Deploy?\n    run: echo checked\n  - id: deploy\n    run: echo deployed\n"
	os.WriteFile(filepath.Join(dir, "deploy.lobster"), []byte(src), 0o644)
	env := cleanEnv(dir)
	cmd := exec.Command(bin, append([]string{"mcp", "--allow-run", "--allow-agent-approval", "--shellcheck", "off"}, onServer(s.addr(), queue)...)...)
	cmd.Dir, cmd.Env = dir, env
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &logBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		cmd.Process.Kill()
		cmd.Wait()
	})
	p := &rpcPeer{t: t, in: in, out: bufio.NewReader(out)}
	p.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"e2e","version":"1"}}}`)
	p.reply(1)
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	call := p.callTool
	paused := func(id int) map[string]any {
		t.Helper()
		env, text := call(id, "run", map[string]any{"path": "deploy.lobster"})
		req, _ := env["requiresApproval"].(map[string]any)
		if env["status"] != "needs_approval" || req["approvalId"] == nil {
			t.Fatalf("run: %s\n%s", text, stderr.String())
		}
		return req
	}

	req := paused(2)
	stdout, errText, code := lobster(t, bin, dir, env, append([]string{"resume", "--id", fmt.Sprint(req["approvalId"]), "--approve", "yes"}, onServer(s.addr(), queue)...)...)
	if code != 0 || envelopeOf(t, stdout)["status"] != "ok" || !strings.Contains(stdout, "deployed") {
		t.Errorf("resumed from a terminal: exit %d\n%s\n%s", code, stdout, errText)
	}

	req = paused(3)
	if _, text := call(4, "resume", map[string]any{"token": req["resumeToken"]}); !strings.Contains(text, "cannot ask them") {
		t.Errorf("resume without approve and without elicitation: %s", text)
	}
	if env, text := call(5, "resume", map[string]any{"token": req["resumeToken"], "approve": true}); env["status"] != "ok" || !strings.Contains(text, "deployed") {
		t.Errorf("resumed through the tool: %s\n%s", text, stderr.String())
	}
}

// testConcurrentRuns: 100 runs at once on 2 workers all end ok, both
// workers take part; logged: runs/s against 100 local runs at once in
// one process.
func testConcurrentRuns(t *testing.T, s *devServer, bin string) {
	dir := t.TempDir()
	queue := "hundred"
	w1, w2 := startWorker(t, bin, s.addr(), queue, dir), startWorker(t, bin, s.addr(), queue, dir)
	path := filepath.Join(dir, "small.lobster")
	os.WriteFile(path, []byte(smallRun), 0o644)
	f, _ := parser.Parse(path, []byte(smallRun))
	env := cleanEnv(dir)
	ctx := context.Background()
	e := openOnServer(t, s, queue)
	const n = 100
	runAll := func(run func() (envelope.Result, error)) (time.Duration, []string, error) {
		start := time.Now()
		outs := make([]string, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := run()
				if err == nil && (res.Status != envelope.StatusOK || len(res.Output) != 1) {
					err = fmt.Errorf("run %d: %+v", i, res)
				}
				if err == nil {
					outs[i] = fmt.Sprint(res.Output[0])
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		return time.Since(start), outs, errors.Join(errs...)
	}
	local := func() (envelope.Result, error) {
		return engine.Run(ctx, f, engine.Options{Env: env, Dir: dir, FilePath: path, StateDir: filepath.Join(dir, ".state")})
	}
	onTemporal := func() (envelope.Result, error) {
		return e.Run(ctx, engines.RunRequest{File: f, Path: path, Env: env, Dir: dir})
	}
	localTime1, _, err := runAll(local)
	if err != nil {
		t.Fatal(err)
	}
	temporalTime, outs, err := runAll(onTemporal)
	if err != nil {
		t.Fatal(err)
	}
	localTime2, _, err := runAll(local)
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]int{}
	for _, o := range outs {
		for _, pid := range strings.Fields(o) {
			by[pid]++
		}
	}
	p1, p2 := strconv.Itoa(w1.cmd.Process.Pid), strconv.Itoa(w2.cmd.Process.Pid)
	if by[p1] == 0 || by[p2] == 0 || by[p1]+by[p2] != 3*n {
		t.Errorf("steps by worker: %v (workers %s and %s)", by, p1, p2)
	}
	localTime := (localTime1 + localTime2) / 2
	t.Logf("%d runs of 3 steps at once: Temporal, 2 workers: %.2fs (%.1f runs/s; steps by worker %d and %d); local engine, one process: %.2fs (%.1f runs/s); ratio %.1f×",
		n, temporalTime.Seconds(), n/temporalTime.Seconds(), by[p1], by[p2], localTime.Seconds(), n/localTime.Seconds(), temporalTime.Seconds()/localTime.Seconds())
}

// testThroughput: run-100 of the benchmark generator (100 trivial shell
// steps), with lobster run on the local engine and on Temporal (one
// worker), interleaved; logged: the medians and the overhead per step.
func testThroughput(t *testing.T, s *devServer, bin string) {
	dir := t.TempDir()
	if out, err := exec.Command("python3", filepath.Join(repoRoot, "..", "shared", "bench", "gen.py"), "100", dir).CombinedOutput(); err != nil {
		t.Fatalf("gen.py: %v\n%s", err, out)
	}
	queue := "bench"
	startWorker(t, bin, s.addr(), queue, dir)
	env := cleanEnv(dir)
	var local, onTemporal []time.Duration
	timeRun := func(args ...string) time.Duration {
		start := time.Now()
		out, errOut, code := lobster(t, bin, dir, env, append([]string{"run", "--mode", "tool"}, args...)...)
		if code != 0 || !strings.Contains(out, `"status": "ok"`) {
			t.Fatalf("lobster run %v: exit %d\n%s%s", args, code, out, errOut)
		}
		return time.Since(start)
	}
	for range 3 {
		local = append(local, timeRun("run-100.lobster"))
		onTemporal = append(onTemporal, timeRun(append(onServer(s.addr(), queue), "run-100.lobster")...))
	}
	median := func(ds []time.Duration) time.Duration {
		s := slices.Clone(ds)
		slices.Sort(s)
		return s[len(s)/2]
	}
	l, tm := median(local), median(onTemporal)
	t.Logf("run-100 (100 shell steps), medians of 3 interleaved: local %.2fs, Temporal (1 worker) %.2fs: %.1f× the time, %.1f ms more per step (local %v, Temporal %v)",
		l.Seconds(), tm.Seconds(), tm.Seconds()/l.Seconds(), float64(tm-l)/float64(time.Millisecond)/100, local, onTemporal)
}

// tour is the workflow whose histories the replay test reads: every kind
// of step and policy the workflow code has a path for.
const tour = `args:
  who: {default: you}
steps:
  - id: hello
    run: echo '{"n":[1,2,3]}'
  - id: flaky
    run: test -e flaked || { touch flaked; exit 1; }; echo ok
    retry: {max: 2, delay_ms: 10, backoff: exponential, jitter: true}
  - id: each
    for_each: $hello.json.n
    batch_size: 2
    pause_ms: 10
    steps:
      - id: show
        run: cat
        stdin: $item.json
  - id: both
    parallel:
      wait: all
      branches:
        - id: x
          run: echo x
        - id: y
          run: echo y
  - id: child
    workflow: child.lobster
    workflow_args: {n: 2}
  - id: slow
    run: sleep 5
    timeout_ms: 100
    on_error: continue
  - id: confirm
    approval: {prompt: Go on?}
  - id: count
    input:
      prompt: How many?
      responseSchema: {type: object, properties: {n: {type: number}}, required: [n]}
  - id: done
    run: echo "$LOBSTER_ARG_WHO $N"
    env:
      N: $count.response.n
`

const tourChild = `args:
  n: {default: 1}
steps:
  - id: c
    run: printf '{"said":"%s"}' "$LOBSTER_ARG_N"
`

// testHistories runs the tour to its end (through its two gates) and
// compares the histories of its workflows with the recorded ones, or
// (-record-histories) records them.
func testHistories(t *testing.T, s *devServer, bin string) {
	dir := t.TempDir()
	queue := "tour"
	startWorker(t, bin, s.addr(), queue, dir)
	os.WriteFile(filepath.Join(dir, "tour.lobster"), []byte(tour), 0o644)
	os.WriteFile(filepath.Join(dir, "child.lobster"), []byte(tourChild), 0o644)
	env := cleanEnv(dir)
	out, errOut, code := lobster(t, bin, dir, env, append([]string{"run", "--mode", "tool"}, append(onServer(s.addr(), queue), "tour.lobster")...)...)
	if code != 0 || !strings.Contains(out, "needs_approval") {
		t.Fatalf("tour: exit %d\n%s%s", code, out, errOut)
	}
	id := approvalIDRE.FindStringSubmatch(out)[1]
	out, errOut, code = lobster(t, bin, dir, append(env, "LOBSTER_APPROVAL_APPROVED_BY=ann"), append([]string{"resume", "--id", id, "--approve", "yes"}, onServer(s.addr(), queue)[:4]...)...)
	if code != 0 || !strings.Contains(out, "needs_input") {
		t.Fatalf("approve: exit %d\n%s%s", code, out, errOut)
	}
	token := fmt.Sprint(envelopeOf(t, out)["requiresInput"].(map[string]any)["resumeToken"])
	out, errOut, code = lobster(t, bin, dir, env, append([]string{"resume", "--token", token, "--response-json", `{"n": 3}`}, onServer(s.addr(), queue)[:4]...)...)
	if code != 0 || !strings.Contains(out, `"you 3\n"`) {
		t.Fatalf("answer: exit %d\n%s%s", code, out, errOut)
	}
	c, err := client.Dial(client.Options{HostPort: s.addr(), Logger: quiet{}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// The run's workflow and its children, found from the run's history.
	ctx := context.Background()
	resp, err := c.ListWorkflow(ctx, listRequest("WorkflowType = 'lobster.run' AND ExecutionStatus = 'Completed'"))
	if err != nil {
		t.Fatal(err)
	}
	var parent string
	for _, ex := range resp.GetExecutions() {
		if ex.GetParentExecution() == nil && ex.GetTaskQueue() == queue {
			parent = ex.GetExecution().GetWorkflowId()
		}
	}
	if parent == "" {
		t.Fatal("the tour's workflow is not listed")
	}
	histories := map[string]*historypb.History{"tour": history(t, c, parent)}
	for _, ev := range histories["tour"].GetEvents() {
		if a := ev.GetChildWorkflowExecutionStartedEventAttributes(); a != nil {
			name := "tour-approval"
			if a.GetWorkflowType().GetName() == temporal.WorkflowName {
				name = "tour-subworkflow"
			}
			histories[name] = history(t, c, a.GetWorkflowExecution().GetWorkflowId())
		}
	}
	names := slices.Sorted(maps.Keys(histories))
	if len(names) != 3 {
		t.Fatalf("histories: %v", names)
	}
	for _, name := range names {
		data, err := temporalproto.CustomJSONMarshalOptions{Indent: "  "}.Marshal(histories[name])
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(historiesDir, name+".json")
		if *recordHistories {
			os.MkdirAll(historiesDir, 0o755)
			if err := os.WriteFile(file, append(data, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if _, err := os.Stat(file); err != nil {
			t.Errorf("%s is not recorded: go test -tags temporaldev ./cmd/lobster -run TestOnDevServer/histories -record-histories", file)
		}
	}
	t.Logf("histories of the tour: %s (%d events in the run's)", strings.Join(names, ", "), len(histories["tour"].GetEvents()))
}

// listRequest lists the default namespace's workflows that query finds.
func listRequest(query string) *workflowservice.ListWorkflowExecutionsRequest {
	return &workflowservice.ListWorkflowExecutionsRequest{Namespace: "default", Query: query}
}

// history is the whole history of the workflow id's last run.
func history(t *testing.T, c client.Client, id string) *historypb.History {
	h := &historypb.History{}
	it := c.GetWorkflowHistory(context.Background(), id, "", false, enums.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	for it.HasNext() {
		ev, err := it.Next()
		if err != nil {
			t.Fatal(err)
		}
		h.Events = append(h.Events, ev)
	}
	return h
}

// testServerRestart: the dev server (its state in a file) stopped and
// started again under a run paused at a gate and a run in the middle of a
// step: both go on.
func testServerRestart(t *testing.T, cli, bin string) {
	dir := t.TempDir()
	s := startDevServer(t, cli, filepath.Join(dir, "temporal.db"), 0)
	queue := "restart"
	startWorker(t, bin, s.addr(), queue, dir)
	env := cleanEnv(dir)
	os.WriteFile(filepath.Join(dir, "gate.lobster"), []byte(`steps:
  - id: confirm
    approval: Go on?
  - id: after
    run: echo after the gate
`), 0o644)
	os.WriteFile(filepath.Join(dir, "slow.lobster"), []byte(`steps:
  - id: slow
    run: echo begun > begun.tmp; mv begun.tmp begun; sleep 8; echo slept
  - id: after
    run: echo "after $S"
    env:
      S: $slow.stdout
`), 0o644)
	out, errOut, code := lobster(t, bin, dir, env, append([]string{"run", "--mode", "tool"}, append(onServer(s.addr(), queue), "gate.lobster")...)...)
	if code != 0 || !strings.Contains(out, "needs_approval") {
		t.Fatalf("gate: exit %d\n%s%s", code, out, errOut)
	}
	id := approvalIDRE.FindStringSubmatch(out)[1]
	client := exec.Command(bin, append([]string{"run", "--mode", "tool"}, append(onServer(s.addr(), queue), "slow.lobster")...)...)
	client.Dir, client.Env = dir, env
	c := startProc(t, client)
	if !waitFor(2*time.Minute, func() bool { _, err := os.Stat(filepath.Join(dir, "begun")); return err == nil }) {
		t.Fatalf("slow did not start:\n%s", c.log.String())
	}
	s.p.stop(syscall.SIGTERM)
	s.start()
	c.await(t, "the run in its step did not end")
	if got := c.log.String(); c.err != nil || !strings.Contains(got, `"after slept\n\n"`) {
		t.Errorf("the run in its step across the restart: %v\n%s", c.err, got)
	}
	out, errOut, code = lobster(t, bin, dir, env, append([]string{"resume", "--id", id, "--approve", "yes"}, onServer(s.addr(), queue)[:4]...)...)
	if code != 0 || !strings.Contains(out, `"after the gate\n"`) {
		t.Errorf("resume after the restart: exit %d\n%s%s", code, out, errOut)
	}
}

// openOnServer opens the Temporal engine on the dev server s, its runs on
// queue; it is closed when the test ends.
func openOnServer(t *testing.T, s *devServer, queue string) engines.Engine {
	t.Helper()
	e, err := engines.Open(context.Background(), engines.Config{Engine: engines.Temporal, Temporal: temporal.Config{Address: s.addr(), TaskQueue: queue}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(e.Close)
	return e
}
