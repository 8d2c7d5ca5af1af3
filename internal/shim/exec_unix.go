//go:build unix

package shim

import (
	"os"
	"syscall"
)

// run replaces the process with lobster running the pipeline, named
// command (see Main).
func run(lobster, command, pipeline string) error {
	return syscall.Exec(lobster, []string{command, pipeline}, os.Environ())
}
