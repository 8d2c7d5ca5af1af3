//go:build unix

package shim

import (
	"os"
	"syscall"
)

// run replaces the process with lobster running the pipeline.
func run(lobster, pipeline string) error {
	return syscall.Exec(lobster, []string{"lobster", pipeline}, os.Environ())
}
