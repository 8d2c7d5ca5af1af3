//go:build !unix

package shim

import (
	"os"
	"os/exec"
)

// run runs lobster with the pipeline, named command (see Main), with this
// process's standard streams, and waits for it.
func run(lobster, command, pipeline string) error {
	cmd := exec.Command(lobster, pipeline)
	cmd.Args[0] = command
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return cmd.Run()
}
