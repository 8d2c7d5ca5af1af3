//go:build unix

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// A ptySession is lobster running with its standard input and error on a
// pseudo-terminal, as a person at a terminal runs it, and its standard
// output on a pipe, as in `lobster run w.lobster | jq`.
type ptySession struct {
	t    *testing.T
	cmd  *exec.Cmd
	ptmx *os.File
	out  bytes.Buffer // standard output, unless it is the terminal

	mu     sync.Mutex
	screen bytes.Buffer // everything the terminal received
	seen   int          // how much of screen expect has consumed
	more   chan struct{}
	closed bool
	eof    chan struct{} // closed when the terminal has no more to read
	exited chan error    // the result of Wait
}

// startPTY starts lobster with args in dir on a terminal 100 columns wide.
func startPTY(t *testing.T, dir string, env []string, args ...string) *ptySession {
	t.Helper()
	return startSession(t, dir, env, false, args...)
}

// startTerminal starts lobster with args in dir with all three standard
// streams on a terminal, as a person runs it without a pipe.
func startTerminal(t *testing.T, dir string, env []string, args ...string) *ptySession {
	t.Helper()
	return startSession(t, dir, env, true, args...)
}

func startSession(t *testing.T, dir string, env []string, stdoutToo bool, args ...string) *ptySession {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 100})
	s := &ptySession{t: t, ptmx: ptmx, more: make(chan struct{}, 1), eof: make(chan struct{}), exited: make(chan error, 1)}
	s.cmd = exec.Command("lobster", args...)
	s.cmd.Dir = dir
	s.cmd.Env = append(os.Environ(), "LOBSTER_STATE_DIR="+filepath.Join(dir, ".state"), "GORACE=atexit_sleep_ms=0", "TERM=xterm", "NO_COLOR=")
	s.cmd.Env = append(s.cmd.Env, env...)
	// No new session: a test that ran lobster in this process made it
	// the reaper of children outside its process group (runtime/proc).
	s.cmd.Stdin, s.cmd.Stderr, s.cmd.Stdout = tty, tty, &s.out
	if stdoutToo {
		s.cmd.Stdout = tty
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	go func() { s.exited <- s.cmd.Wait() }()
	go func() {
		defer close(s.eof)
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			s.mu.Lock()
			s.screen.Write(buf[:n])
			if err != nil {
				s.closed = true
			}
			s.mu.Unlock()
			select {
			case s.more <- struct{}{}:
			default:
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		s.cmd.Process.Kill()
		ptmx.Close()
	})
	return s
}

// expect waits until the terminal shows text (after what earlier expects
// consumed; line ends as "\n"), and consumes up to its end.
func (s *ptySession) expect(text string) {
	s.t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		s.mu.Lock()
		rest := strings.ReplaceAll(s.screen.String(), "\r\n", "\n")[s.seen:]
		i := strings.Index(rest, text)
		closed := s.closed
		if i >= 0 {
			s.seen += i + len(text)
		}
		s.mu.Unlock()
		if i >= 0 {
			return
		}
		if closed {
			s.t.Fatalf("the terminal closed without showing %q; it showed:\n%s", text, s.text())
		}
		select {
		case <-s.more:
		case <-deadline:
			s.t.Fatalf("the terminal did not show %q; it showed:\n%s", text, s.text())
		}
	}
}

// send types text.
func (s *ptySession) send(text string) {
	s.t.Helper()
	if _, err := io.WriteString(s.ptmx, text); err != nil {
		s.t.Fatal(err)
	}
}

// wait waits for lobster to exit and returns its exit code; the terminal
// has shown everything then.
func (s *ptySession) wait() int {
	s.t.Helper()
	select {
	case err := <-s.exited:
		select {
		case <-s.eof:
		case <-time.After(10 * time.Second):
			s.t.Fatal("the terminal stayed open")
		}
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		if err != nil {
			s.t.Fatal(err)
		}
		return 0
	case <-time.After(30 * time.Second):
		s.t.Fatalf("lobster did not exit; the terminal showed:\n%s", s.text())
	}
	return -1
}

// text is what the terminal showed, with line ends as "\n".
func (s *ptySession) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.ReplaceAll(s.screen.String(), "\r\n", "\n")
}
