// Package proc runs the runtime's child processes: each in its own process
// group, with its output bounded, and stopped as a whole tree, descendants
// included, when the run is cancelled or times out.
package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"sync"
	"time"
)

// termGrace is how long a cancelled tree gets between SIGTERM and SIGKILL.
const termGrace = 250 * time.Millisecond

// DefaultMaxOutput is the per-stream output limit when none is given
// (callers pass LOBSTER_MAX_OUTPUT_BYTES, see pipeline.OutputLimit).
const DefaultMaxOutput = 64 << 20

// A Command is one process to run.
type Command struct {
	Name string   // the program
	Args []string // its arguments, passed as they are: no shell sees them
	Env  []string // the complete environment
	Dir  string   // the working directory, or "" for the current one

	// Stdin is written to the child's standard input, which is then
	// closed; nil closes it at once. A child that exits without reading it
	// all is not an error: it fails or succeeds on its exit code.
	Stdin []byte

	// MaxOutput bounds each of stdout and stderr in bytes; 0 means
	// DefaultMaxOutput. Going over stops the process tree.
	MaxOutput int64

	// NotFound is the error text when Name cannot be found.
	NotFound string

	// Force, when closed during a stop's grace period, sends SIGKILL
	// at once (a second interrupt).
	Force <-chan struct{}
}

// A Result is a finished process.
type Result struct {
	Stdout, Stderr []byte
	// Code is the exit code, or -1 when a signal ended the process (the
	// reference's null).
	Code int
}

// OutputLimitError is a process stopped for writing too much.
type OutputLimitError struct{ Limit int64 }

func (e *OutputLimitError) Error() string {
	return fmt.Sprintf("Process output exceeded %d bytes", e.Limit)
}

// KillNow marks a cancellation cause that stops the tree with SIGKILL at
// once instead of SIGTERM and a grace period: a timeout, or a second
// interrupt. Cancel the context with context.WithCancelCause and KillNow(err).
func KillNow(err error) error { return &killNow{err} }

type killNow struct{ err error }

func (k *killNow) Error() string { return k.err.Error() }
func (k *killNow) Unwrap() error { return k.err }

// Run runs c and waits for it and its descendants' output. When ctx ends,
// the whole process group gets SIGTERM and, 250 ms later, SIGKILL (at once
// for a KillNow cause); Run returns the context's cause only after both
// signals went out and the child is gone, so nothing of the tree outlives
// it. An already cancelled ctx starts nothing.
func Run(ctx context.Context, c Command) (Result, error) {
	if err := context.Cause(ctx); err != nil {
		return Result{}, err
	}
	limit := c.MaxOutput
	if limit <= 0 {
		limit = DefaultMaxOutput
	}
	cmd := exec.Command(c.Name, c.Args...)
	cmd.Env, cmd.Dir = c.Env, c.Dir
	if c.Stdin != nil {
		cmd.Stdin = bytes.NewReader(c.Stdin)
	}
	ownGroup(cmd)
	stop := make(chan error, 1) // why the tree must stop: output limit
	var stdout, stderr limitedBuffer
	stdout.limit, stderr.limit = limit, limit
	stdout.over, stderr.over = stop, stop
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		return Result{}, startError(c, err)
	}

	exited := make(chan struct{})
	watched := make(chan struct{})
	var stopErr error
	go func() {
		defer close(watched)
		var immediate bool
		select {
		case <-exited:
			return
		case <-ctx.Done():
			stopErr = context.Cause(ctx)
			var k *killNow
			immediate = errors.As(stopErr, &k)
		case stopErr = <-stop:
		}
		terminate(cmd.Process, immediate, c.Force)
	}()
	err := cmd.Wait()
	close(exited)
	// A stop that began finishes its SIGKILL step before Run returns, so
	// that descendants that ignored SIGTERM are gone too.
	<-watched
	if stopErr != nil {
		return Result{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), Code: -1}, stopErr
	}
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return Result{}, err
	}
	return Result{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), Code: cmd.ProcessState.ExitCode()}, nil
}

// terminate stops p's process group: SIGKILL at once when immediate, else
// SIGTERM and SIGKILL after termGrace, or as soon as force is closed.
func terminate(p *os.Process, immediate bool, force <-chan struct{}) {
	if !immediate {
		signalGroup(p, sigTerm)
		timer := time.NewTimer(termGrace)
		select {
		case <-timer.C:
		case <-force:
			timer.Stop()
		}
	}
	signalGroup(p, sigKill)
}

// startError explains a failed start.
func startError(c Command, err error) error {
	if c.Dir != "" {
		if st, serr := os.Stat(c.Dir); serr != nil || !st.IsDir() {
			return fmt.Errorf("working directory %s does not exist or is not a directory", c.Dir)
		}
	}
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, exec.ErrNotFound) {
		if c.NotFound != "" {
			return errors.New(c.NotFound)
		}
		return fmt.Errorf("%s: not found", c.Name)
	}
	return err
}

// limitedBuffer keeps up to limit bytes; the write that would pass the
// limit is dropped and reported once on over.
type limitedBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int64
	over  chan<- error
	full  bool
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.full {
		return len(p), nil
	}
	if int64(b.buf.Len()+len(p)) > b.limit {
		b.full = true
		select {
		case b.over <- &OutputLimitError{b.limit}:
		default:
		}
		return len(p), nil
	}
	return b.buf.Write(p)
}

func (b *limitedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Bytes()
}
