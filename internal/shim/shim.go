// Package shim is the body of the openclaw.invoke and clawd.invoke
// programs: like the reference's programs of those names, each turns its
// arguments into one pipeline, the command of the same name with the
// arguments quoted, and runs it with lobster, whose exit code it exits
// with. A `run:` step can then call the OpenClaw tool API
// (`openclaw.invoke --tool message --action send --args-json '{…}'`).
package shim

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Pipeline is the pipeline text that runs command with args: each
// argument in double quotes, with the characters the pipeline language
// escapes there (\ " $ `) escaped by a backslash, as the reference quotes
// them.
func Pipeline(command string, args []string) string {
	var b strings.Builder
	b.WriteString(command)
	for _, a := range args {
		b.WriteString(` "`)
		for _, r := range a {
			if strings.ContainsRune("\\\"$`", r) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		b.WriteByte('"')
	}
	return b.String()
}

// Lobster finds the lobster program: next to self (the running program,
// as `go install ./cmd/...` installs them side by side), else on PATH.
func Lobster(self string) (string, error) {
	if self != "" {
		if real, err := filepath.EvalSymlinks(self); err == nil {
			self = real
		}
		name := "lobster"
		if strings.EqualFold(filepath.Ext(self), ".exe") {
			name += ".exe"
		}
		sibling := filepath.Join(filepath.Dir(self), name)
		if st, err := os.Stat(sibling); err == nil && st.Mode().IsRegular() {
			return sibling, nil
		}
	}
	return exec.LookPath("lobster")
}

// Commands are the programs that are shims.
var Commands = []string{"openclaw.invoke", "clawd.invoke"}

// IsShim says whether lobster runs for a shim: its argv[0] is the name
// of one (see Main).
func IsShim(argv0 string) bool {
	name := filepath.Base(argv0)
	if strings.EqualFold(filepath.Ext(name), ".exe") {
		name = name[:len(name)-len(".exe")]
	}
	for _, c := range Commands {
		if name == c {
			return true
		}
	}
	return false
}

// Main runs command's shim with args (without the program name) and
// returns the exit code: lobster's, or 1 when lobster cannot be started
// (explained on stderr). lobster runs under the name command (its
// argv[0]; see IsShim), and so speaks as the reference's program does:
// its errors are "Error: ...", which a step's errorMessage carries.
func Main(command string, args []string, stderr io.Writer) int {
	self, _ := os.Executable()
	lobster, err := Lobster(self)
	if err == nil {
		// On Unix this does not return: the process becomes lobster, so
		// that its exit code and signals are the shim's.
		err = run(lobster, command, Pipeline(command, args))
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if code := exit.ExitCode(); code >= 0 {
			return code
		}
		return 1
	}
	if err != nil {
		fmt.Fprintf(stderr, "%s failed to spawn lobster: %v\n", command, err)
		return 1
	}
	return 0
}
