//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/lobsterdev/lobster/internal/proctest"
)

// TestRunStopsOnSignal sends SIGINT, then SIGTERM, to lobster itself while a
// step runs: the run stops with 128 + the signal's number and the step's
// whole process tree is gone, a grandchild that ignores SIGTERM included.
func TestRunStopsOnSignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "pid")
			wf := filepath.Join(dir, "slow.lobster")
			script := proctest.StubbornTree(pidFile)
			os.WriteFile(wf, []byte("steps:\n  - id: slow\n    run: "+strconv.Quote(script)+"\n  - id: after\n    run: touch "+filepath.Join(dir, "ran")+"\n"), 0o644)
			code := make(chan int, 1)
			var stdout, stderr bytes.Buffer
			go func() { code <- runRun([]string{wf}, &stdout, &stderr) }()
			pid := proctest.WaitPID(pidFile)
			if pid == 0 {
				t.Fatal("the step never started")
			}
			syscall.Kill(os.Getpid(), sig)
			select {
			case got := <-code:
				if got != 128+int(sig) {
					t.Errorf("exit code %d, want %d; stderr %s", got, 128+int(sig), stderr.String())
				}
			case <-time.After(10 * time.Second):
				t.Fatal("run did not stop")
			}
			if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
				t.Error("a step after the signal ran")
			}
			if !proctest.Gone(pid) {
				t.Errorf("grandchild %d survived", pid)
			}
		})
	}
}
