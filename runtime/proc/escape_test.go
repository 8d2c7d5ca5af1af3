//go:build linux

package proc

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lobsterdev/lobster/internal/proctest"
)

// stopBound is how long a stopped Run may take to return in these tests.
// The processes they start live 30 s, so any bound well below that tells a
// contained tree from an escape; the times measured are logged.
const stopBound = 5 * time.Second

// tagged is a shell command whose processes all carry a fresh
// PROCTEST_TAG in their environment, unless they clear it.
func tagged(t *testing.T, script string) (Command, string) {
	t.Helper()
	if _, err := exec.LookPath("setsid"); err != nil {
		t.Skip("no setsid command")
	}
	b := make([]byte, 8)
	rand.Read(b)
	tag := hex.EncodeToString(b)
	c := sh(script)
	c.Env = append(os.Environ(), "PROCTEST_TAG="+tag)
	return c, tag
}

// escapes are process trees whose descendants leave the step's process
// group: each writes the pid of the one that escapes to $P.
var escapes = []struct {
	name   string
	script string
}{
	{"setsid holding the output, shell waiting",
		`setsid sh -c '` + pidSnippet + `; exec sleep 30'`},
	{"setsid holding the output, shell gone",
		`(setsid sh -c '` + pidSnippet + `; exec sleep 30' &)`},
	{"setsid with output closed, shell waiting",
		`(setsid sh -c '` + pidSnippet + `; exec sleep 30' >/dev/null 2>&1 </dev/null &); sleep 30`},
	{"setsid ignoring SIGTERM",
		`setsid sh -c 'trap "" TERM; ` + pidSnippet + `; while :; do sleep 1; done'`},
	{"double fork, same group",
		`(sh -c '` + pidSnippet + `; exec sleep 30' &)`},
	{"new session inside a new session, parent alive",
		`setsid sh -c 'setsid sh -c "` + pidSnippetEscaped + `; exec sleep 30" & wait'`},
	{"setpgid: a group of its own",
		`(perl -e 'setpgrp(0,0); exec @ARGV' sh -c '` + pidSnippet + `; exec sleep 30' &); sleep 30`},
	{"environment cleared",
		`env -i P="$P" /usr/bin/setsid /bin/sh -c '` + pidSnippet + `; exec /bin/sleep 30'`},
	{"forking while it is killed",
		`setsid sh -c '` + pidSnippet + `; while :; do setsid sleep 30 & sleep 0.01; done'`},
}

const (
	pidSnippet        = `echo $$ > "$P.tmp"; mv "$P.tmp" "$P"`
	pidSnippetEscaped = `echo \$\$ > \"\$P.tmp\"; mv \"\$P.tmp\" \"\$P\"`
)

// TestStopReachesEscapedDescendants stops each escaping tree by timeout
// (SIGKILL at once) and by cancellation (SIGTERM, then SIGKILL): Run
// returns promptly and no process of the tree survives.
func TestStopReachesEscapedDescendants(t *testing.T) {
	if _, err := exec.LookPath("perl"); err != nil {
		t.Skip("no perl command")
	}
	causes := []struct {
		name  string
		cause error
	}{
		{"timeout", KillNow(errors.New("timed out"))},
		{"cancel", errors.New("interrupted")},
	}
	for _, esc := range escapes {
		for _, cc := range causes {
			t.Run(esc.name+"/"+cc.name, func(t *testing.T) {
				pidFile := filepath.Join(t.TempDir(), "pid")
				c, tag := tagged(t, esc.script)
				c.Env = append(c.Env, "P="+pidFile)
				ctx, cancel := context.WithCancelCause(context.Background())
				done := make(chan error, 1)
				go func() {
					_, err := Run(ctx, c)
					done <- err
				}()
				pid := proctest.WaitPID(pidFile)
				if pid == 0 {
					t.Fatal("the escaping process never started")
				}
				start := time.Now()
				cancel(cc.cause)
				select {
				case err := <-done:
					if err == nil || err.Error() != cc.cause.Error() {
						t.Errorf("Run = %v, want %v", err, cc.cause)
					}
				case <-time.After(stopBound):
					t.Errorf("Run did not return within %v of the stop", stopBound)
					defer func() { <-done }()
				}
				t.Logf("stopped in %v", time.Since(start).Round(time.Millisecond))
				if !proctest.Gone(pid) {
					t.Errorf("the escaped process %d survived", pid)
				}
				if left := proctest.NoneTagged(tag); left != nil {
					t.Errorf("processes of the tree survived: %v", left)
				}
			})
		}
	}
}

// TestOutputLimitReachesEscapedWriter: a descendant in a session of its
// own that writes without end is stopped by the output limit.
func TestOutputLimitReachesEscapedWriter(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	c, tag := tagged(t, `setsid sh -c '`+pidSnippet+`; exec yes'`)
	c.Env = append(c.Env, "P="+pidFile)
	c.MaxOutput = 64 << 10
	done := make(chan error, 1)
	go func() {
		_, err := Run(context.Background(), c)
		done <- err
	}()
	select {
	case err := <-done:
		var limit *OutputLimitError
		if !errors.As(err, &limit) {
			t.Errorf("Run = %v, want the output limit", err)
		}
	case <-time.After(stopBound):
		t.Fatal("Run did not return")
	}
	if left := proctest.NoneTagged(tag); left != nil {
		t.Errorf("processes of the tree survived: %v", left)
	}
}

// TestConcurrentTreesKeepTheirOwn: of two trees running at once, stopping
// one stops its escaped descendant and leaves the other's alone.
func TestConcurrentTreesKeepTheirOwn(t *testing.T) {
	dir := t.TempDir()
	run := func(name string) (pid int, cancel context.CancelCauseFunc, done chan error, tag string) {
		pidFile := filepath.Join(dir, name)
		var c Command
		// The shell exits at once: the escaped process is adopted.
		c, tag = tagged(t, `(setsid sh -c '`+pidSnippet+`; exec sleep 30' &)`)
		c.Env = append(c.Env, "P="+pidFile)
		var ctx context.Context
		ctx, cancel = context.WithCancelCause(context.Background())
		done = make(chan error, 1)
		go func() {
			_, err := Run(ctx, c)
			done <- err
		}()
		if pid = proctest.WaitPID(pidFile); pid == 0 {
			t.Fatalf("%s never started", name)
		}
		return pid, cancel, done, tag
	}
	a, cancelA, doneA, tagA := run("a")
	b, cancelB, doneB, tagB := run("b")
	defer proctest.NoneTagged(tagB)
	cancelA(KillNow(errors.New("timed out")))
	select {
	case <-doneA:
	case <-time.After(stopBound):
		t.Fatal("the stopped Run did not return")
	}
	if !proctest.Gone(a) {
		t.Errorf("the stopped tree's process %d survived", a)
	}
	if left := proctest.NoneTagged(tagA); left != nil {
		t.Errorf("processes of the stopped tree survived: %v", left)
	}
	if !proctest.Alive(b) {
		t.Fatal("the other tree's process was killed")
	}
	select {
	case err := <-doneB:
		t.Fatalf("the other Run returned: %v", err)
	default:
	}
	cancelB(KillNow(errors.New("timed out")))
	<-doneB
	if !proctest.Gone(b) {
		t.Errorf("the second tree's process %d survived its stop", b)
	}
}

// TestFinishedTreeIsLeftAlone: a daemon that a finished command started is
// not the next command's: stopping the next one leaves it running.
func TestFinishedTreeIsLeftAlone(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	c, tag := tagged(t, `(setsid sh -c '`+pidSnippet+`; exec sleep 30' >/dev/null 2>&1 </dev/null &)`)
	defer proctest.NoneTagged(tag)
	c.Env = append(c.Env, "P="+pidFile)
	if res, err := Run(context.Background(), c); err != nil || res.Code != 0 {
		t.Fatalf("the daemon's command: %v, code %d", err, res.Code)
	}
	daemon := proctest.WaitPID(pidFile)
	if daemon == 0 {
		t.Fatal("the daemon never started")
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	next, _ := tagged(t, `sleep 30`)
	go func() {
		time.Sleep(100 * time.Millisecond)
		cancel(KillNow(errors.New("timed out")))
	}()
	if _, err := Run(ctx, next); err == nil {
		t.Fatal("the next command was not stopped")
	}
	if !proctest.Alive(daemon) {
		t.Error("stopping the next command killed the finished one's daemon")
	}
}

// TestStopDoesNotWaitForUnreachableOutput: a process that holds the
// output and cannot be told apart from another running tree's (its
// environment is cleared while another tree runs) is left alone, and Run
// returns anyway instead of waiting for the output to close.
func TestStopDoesNotWaitForUnreachableOutput(t *testing.T) {
	dir := t.TempDir()
	other, otherTag := tagged(t, `sleep 30`)
	defer proctest.NoneTagged(otherTag)
	octx, ocancel := context.WithCancelCause(context.Background())
	odone := make(chan struct{})
	go func() {
		Run(octx, other)
		close(odone)
	}()
	defer func() {
		ocancel(KillNow(errors.New("done")))
		<-odone
	}()
	for len(proctest.Tagged(otherTag)) == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	pidFile := filepath.Join(dir, "pid")
	c, _ := tagged(t, `env -i P="$P" /usr/bin/setsid /bin/sh -c '`+pidSnippet+`; exec /bin/sleep 30'`)
	c.Env = append(c.Env, "P="+pidFile)
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := Run(ctx, c)
		done <- err
	}()
	pid := proctest.WaitPID(pidFile)
	if pid == 0 {
		t.Fatal("the holder never started")
	}
	defer proctest.Gone(pid)
	start := time.Now()
	cancel(KillNow(errors.New("timed out")))
	select {
	case <-done:
		t.Logf("returned in %v", time.Since(start).Round(time.Millisecond))
	case <-time.After(stopBound):
		t.Fatal("Run waited for output held by a process it could not stop")
	}
}

// TestOrphansAreReaped: descendants adopted by this process (a child
// subreaper) and exited are reaped, not left as zombies.
func TestOrphansAreReaped(t *testing.T) {
	c, _ := tagged(t, strings.Repeat(`(sleep 0.1 &); `, 20)+`sleep 0.3`)
	if _, err := Run(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for len(proctest.Zombies()) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if z := proctest.Zombies(); len(z) > 0 {
		t.Errorf("%d zombies left: %v", len(z), z)
	}
}
