package proc

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/lobsterdev/lobster/internal/proctest"
)

// TestStopWithThisProcess: after StopWithThisProcess, a process Run
// started dies with its parent, even of SIGKILL; without it, it lives on.
// The parent is this test binary run again as a helper.
func TestStopWithThisProcess(t *testing.T) {
	if pidFile := os.Getenv("LOBSTER_PROC_PARENT_HELPER"); pidFile != "" {
		if os.Getenv("LOBSTER_PROC_PARENT_STOP") != "" {
			StopWithThisProcess()
		}
		Run(context.Background(), Command{Name: "sh", Args: []string{"-c", proctest.WritePID(pidFile) + "; exec sleep 30"}})
		return
	}
	for _, stop := range []bool{true, false} {
		pidFile := filepath.Join(t.TempDir(), "pid")
		helper := exec.Command(os.Args[0], "-test.run=^TestStopWithThisProcess$")
		helper.Env = append(os.Environ(), "LOBSTER_PROC_PARENT_HELPER="+pidFile)
		if stop {
			helper.Env = append(helper.Env, "LOBSTER_PROC_PARENT_STOP=1")
		}
		if err := helper.Start(); err != nil {
			t.Fatal(err)
		}
		pid := proctest.WaitPID(pidFile)
		helper.Process.Signal(syscall.SIGKILL)
		helper.Wait()
		if pid == 0 {
			t.Fatal("the helper's child did not start")
		}
		if gone := proctest.Gone(pid); gone != stop {
			t.Errorf("StopWithThisProcess %v: the child gone when its parent was killed: %v", stop, gone)
		}
	}
}
