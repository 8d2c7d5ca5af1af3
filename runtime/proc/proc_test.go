//go:build unix

package proc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lobsterdev/lobster/internal/proctest"
)

func sh(script string) Command {
	return Command{Name: "/bin/sh", Args: []string{"-c", script}, Env: os.Environ()}
}

func TestRunOutputAndExitCode(t *testing.T) {
	res, err := Run(context.Background(), sh(`printf 'out\n'; printf 'err' >&2; exit 3`))
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) != "out\n" || string(res.Stderr) != "err" || res.Code != 3 {
		t.Errorf("got %q %q %d; want \"out\\n\" \"err\" 3", res.Stdout, res.Stderr, res.Code)
	}
	res, err = Run(context.Background(), sh(`kill -KILL $$`))
	if err != nil || res.Code != -1 {
		t.Errorf("a child killed by a signal: code %d, %v; want -1", res.Code, err)
	}
}

// TestRunDecodesOutput: output that is not UTF-8 is read as the reference
// reads it, one U+FFFD for each ill-formed sequence (0xE2 0x82 is one).
func TestRunDecodesOutput(t *testing.T) {
	res, err := Run(context.Background(), sh(`printf 'caf\351 \342\202!'; printf '\377' >&2`))
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) != "caf\uFFFD \uFFFD!" || string(res.Stderr) != "\uFFFD" {
		t.Errorf("got %q %q; want \"caf\\uFFFD \\uFFFD!\" \"\\uFFFD\"", res.Stdout, res.Stderr)
	}
}

func TestRunStdin(t *testing.T) {
	c := sh(`cat`)
	c.Stdin = []byte("a\nb")
	if res, err := Run(context.Background(), c); err != nil || string(res.Stdout) != "a\nb" {
		t.Errorf("cat of stdin = %q, %v", res.Stdout, err)
	}
	// No stdin: the child reads end of file at once instead of waiting.
	if res, err := Run(context.Background(), sh(`cat; echo done`)); err != nil || string(res.Stdout) != "done\n" {
		t.Errorf("cat without stdin = %q, %v", res.Stdout, err)
	}
}

func TestRunChildIgnoresLargeStdin(t *testing.T) {
	// 300 KB into a child that exits without reading: the broken pipe is
	// not an error; the step fails on its own exit code, with its stderr.
	c := sh(`echo nope >&2; exit 4`)
	c.Stdin = bytes.Repeat([]byte("x"), 300_000)
	res, err := Run(context.Background(), c)
	if err != nil || res.Code != 4 || string(res.Stderr) != "nope\n" {
		t.Errorf("got code %d, stderr %q, %v; want 4, \"nope\\n\", nil", res.Code, res.Stderr, err)
	}
}

func TestRunNotFound(t *testing.T) {
	c := Command{Name: "/no/such/shell", NotFound: "workflow shell not found; check LOBSTER_SHELL or ComSpec"}
	if _, err := Run(context.Background(), c); err == nil || err.Error() != c.NotFound {
		t.Errorf("missing program: %v", err)
	}
	c = sh(`true`)
	c.Dir = filepath.Join(t.TempDir(), "missing")
	if _, err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "working directory") {
		t.Errorf("missing working directory: %v", err)
	}
}

func TestRunCancelledBeforeStartSpawnsNothing(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("stopped by user"))
	_, err := Run(ctx, sh(`touch `+marker))
	if err == nil || err.Error() != "stopped by user" {
		t.Errorf("Run on a cancelled context = %v, want the cause", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the command ran")
	}
}

func TestRunOutputLimit(t *testing.T) {
	c := sh(`while :; do echo 0123456789abcdef; done`)
	c.MaxOutput = 64 << 10
	res, err := Run(context.Background(), c)
	var limit *OutputLimitError
	if !errors.As(err, &limit) || err.Error() != "Process output exceeded 65536 bytes" {
		t.Fatalf("endless output = %v", err)
	}
	if len(res.Stdout) > 64<<10 {
		t.Errorf("kept %d bytes, more than the limit", len(res.Stdout))
	}
}

// treeWithStubbornGrandchild starts, under Run, a shell whose background
// grandchild ignores SIGTERM; it returns the grandchild's pid once known
// and Run's outcome on done.
func treeWithStubbornGrandchild(t *testing.T, ctx context.Context) (pid int, done chan error) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "pid")
	c := sh(proctest.StubbornTree(pidFile))
	done = make(chan error, 1)
	go func() {
		_, err := Run(ctx, c)
		done <- err
	}()
	if pid = proctest.WaitPID(pidFile); pid == 0 {
		t.Fatal("the grandchild never started")
	}
	return pid, done
}

func TestCancelKillsGrandchildren(t *testing.T) {
	tests := []struct {
		name  string
		cause error
	}{
		{"cancellation: SIGTERM, then SIGKILL", errors.New("interrupted")},
		{"timeout: SIGKILL at once", KillNow(errors.New("timed out"))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			pid, done := treeWithStubbornGrandchild(t, ctx)
			if !proctest.Alive(pid) {
				t.Fatal("the grandchild is not running")
			}
			cancel(tt.cause)
			select {
			case err := <-done:
				if err == nil || err.Error() != tt.cause.Error() {
					t.Errorf("Run = %v, want %v", err, tt.cause)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Run did not return after cancellation")
			}
			// Run returns after the SIGKILL went out: the grandchild
			// is gone, or a zombie about to be reaped.
			if !proctest.Gone(pid) {
				t.Errorf("grandchild %d survived the cancellation", pid)
			}
		})
	}
}

func TestShell(t *testing.T) {
	tests := []struct {
		env      map[string]string
		goos     string
		wantName string
		wantArgs []string
	}{
		{nil, "linux", "/bin/sh", []string{"-lc", "L"}},
		{map[string]string{"SHELL": "/bin/zsh"}, "linux", "/bin/sh", []string{"-lc", "L"}},
		{map[string]string{"LOBSTER_SHELL": " /bin/bash "}, "linux", "/bin/bash", []string{"-lc", "L"}},
		{map[string]string{"LOBSTER_SHELL": "pwsh"}, "linux", "pwsh", []string{"-NoProfile", "-Command", "L"}},
		{map[string]string{"LOBSTER_SHELL": `C:\PowerShell.EXE`}, "windows", `C:\PowerShell.EXE`, []string{"-NoProfile", "-Command", "L"}},
		{map[string]string{"LOBSTER_SHELL": "mycmd"}, "linux", "mycmd", []string{"/d", "/s", "/c", "L"}},
		{map[string]string{"LOBSTER_SHELL": "bash.exe"}, "windows", "bash.exe", []string{"/d", "/s", "/c", "L"}},
		{nil, "windows", "cmd.exe", []string{"/d", "/s", "/c", "L"}},
		{map[string]string{"ComSpec": " ", "COMSPEC": `C:\cmd.exe`}, "windows", `C:\cmd.exe`, []string{"/d", "/s", "/c", "L"}},
	}
	for _, tt := range tests {
		name, args := Shell("L", func(k string) string { return tt.env[k] }, tt.goos)
		if name != tt.wantName || strings.Join(args, "\x00") != strings.Join(tt.wantArgs, "\x00") {
			t.Errorf("Shell(%v, %s) = %s %q; want %s %q", tt.env, tt.goos, name, args, tt.wantName, tt.wantArgs)
		}
	}
}
