//go:build !unix

package shim

import (
	"os"
	"os/exec"
)

// run runs lobster with the pipeline, with this process's standard
// streams, and waits for it.
func run(lobster, pipeline string) error {
	cmd := exec.Command(lobster, pipeline)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return cmd.Run()
}
