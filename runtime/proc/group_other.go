//go:build !unix

package proc

import (
	"os"
	"os/exec"
	"strconv"
)

const (
	sigTerm sigType = 0
	sigKill sigType = 1
)

type sigType = int

func ownGroup(*exec.Cmd) {}

// signalGroup ends p's process tree with taskkill, or p alone if that fails.
func signalGroup(p *os.Process, _ sigType) {
	if exec.Command("taskkill", "/pid", strconv.Itoa(p.Pid), "/T", "/F").Run() != nil {
		_ = p.Kill()
	}
}
