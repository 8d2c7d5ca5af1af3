//go:build unix

package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestDataFilesNotRegular: a template file, a state value or a cache
// entry that is a named pipe or a device is refused at once, never waited
// on or read without end.
func TestDataFilesNotRegular(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.txt"), 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	env := &Env{Mode: Human, StateDir: t.TempDir(), Dir: dir}
	if err := syscall.Mkfifo(filepath.Join(env.StateDir, "piped.json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(env.StateDir, "zero.json")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ text, want string }{
		{"template --file fifo.txt", "not a regular file (a named pipe)"},
		{"template --file /dev/zero", "not a regular file (a character device)"},
		{"state.get piped", "not a regular file (a named pipe)"},
		{"state.get zero", "not a regular file (a character device)"},
		{"state.set piped", "not a regular file (a named pipe)"},
	} {
		done := make(chan error, 1)
		go func() {
			_, _, err := runEnv(t, env, c.text, parseItems(t, `[1]`)...)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: %v, want an error saying %q", c.text, err, c.want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: blocked", c.text)
		}
	}
}
