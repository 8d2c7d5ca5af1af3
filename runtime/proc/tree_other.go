//go:build !linux

package proc

import (
	"os"
	"os/exec"
)

// TreeEnv is the environment variable that marks the processes of a
// running command on Linux; elsewhere stops reach the process group (the
// process tree on Windows) only.
const TreeEnv = "LOBSTER_PROCESS_TREE"

// A tree is a started command, stopped through its process group.
type tree struct{ p *os.Process }

func startTree(cmd *exec.Cmd, env []string) (*tree, error) {
	cmd.Env = env
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &tree{cmd.Process}, nil
}

func (t *tree) leaderDone() {}
func (t *tree) finish()     {}
func (t *tree) gone() bool  { return false } // not known: a stop waits out its grace
func (t *tree) kill()       { signalGroup(t.p, sigKill) }

func (t *tree) signal(sig sigType) int {
	signalGroup(t.p, sig)
	return 1
}
