// Package benchdata generates the shared benchmark workloads
// (../shared/bench/gen.py) for the Go benchmarks of the module.
package benchdata

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Workflow returns wf-N.lobster, generated into a temporary directory. The
// benchmark is skipped when the generator or python3 is not available.
func Workflow(tb testing.TB, n string) []byte {
	tb.Helper()
	_, here, _, _ := runtime.Caller(0)
	gen := filepath.Join(filepath.Dir(here), "..", "..", "..", "shared", "bench", "gen.py")
	if _, err := os.Stat(gen); err != nil {
		tb.Skip("no generator at " + gen)
	}
	dir := tb.TempDir()
	if out, err := exec.Command("python3", gen, n, dir).CombinedOutput(); err != nil {
		tb.Skipf("gen.py: %v %s", err, out)
	}
	src, err := os.ReadFile(filepath.Join(dir, "wf-"+n+".lobster"))
	if err != nil {
		tb.Fatal(err)
	}
	return src
}
