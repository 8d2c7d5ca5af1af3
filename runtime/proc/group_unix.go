//go:build unix

package proc

import (
	"os/exec"
	"syscall"
)

const (
	sigTerm = syscall.SIGTERM
	sigKill = syscall.SIGKILL
)

type sigType = syscall.Signal

// ownGroup starts cmd in a process group of its own, so that stopping it
// reaches every descendant.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if withThisProcess.Load() {
		dieWithParent(cmd.SysProcAttr)
	}
}
