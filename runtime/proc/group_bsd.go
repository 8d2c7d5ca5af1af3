//go:build unix && !linux

package proc

import (
	"os"
	"syscall"
)

// signalGroup sends sig to p's process group, or to p alone if that fails.
func signalGroup(p *os.Process, sig syscall.Signal) {
	if err := syscall.Kill(-p.Pid, sig); err != nil {
		_ = p.Signal(sig)
	}
}
