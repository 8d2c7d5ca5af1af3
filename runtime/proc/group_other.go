//go:build !unix

package proc

import (
	"os"
	"os/exec"
	"strconv"
)

const (
	sigTerm = 0
	sigKill = 1
)

func ownGroup(*exec.Cmd) {}

// signalGroup ends p's process tree with taskkill, or p alone if that fails.
func signalGroup(p *os.Process, _ int) {
	if exec.Command("taskkill", "/pid", strconv.Itoa(p.Pid), "/T", "/F").Run() != nil {
		_ = p.Kill()
	}
}
