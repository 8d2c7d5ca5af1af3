// Package proc runs the runtime's child processes: each in its own process
// group, with its output bounded, and stopped as a whole tree, descendants
// included, when the run is cancelled or times out.
package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/lobsterdev/lobster/lang/source"
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
	// Stdout and Stderr are what it wrote, as the reference decodes it:
	// bytes that are not UTF-8 became U+FFFD (source.DecodeUTF8).
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

// pipeGrace is how long a stopped Run still reads output once the tree
// was killed: a process beyond its reach (one that changed its user, or
// that it cannot tell from another tree's) may hold the pipes open, and
// Run must not wait for it.
const pipeGrace = 250 * time.Millisecond

// Run runs c and waits for it and for its output, which its descendants
// may still write after it exited, as the reference does. When ctx ends or
// the output passes its limit, the whole tree gets SIGTERM and, 250 ms
// later, SIGKILL (at once for a KillNow cause): its process group, and on
// Linux, where this process is a child subreaper, every descendant that
// left the group (setsid, daemons), found by TreeEnv. Run then returns the
// cause once nothing of the tree runs, reading what output is left for at
// most pipeGrace. An already cancelled ctx starts nothing.
func Run(ctx context.Context, c Command) (Result, error) {
	if err := context.Cause(ctx); err != nil {
		return Result{}, err
	}
	limit := c.MaxOutput
	if limit <= 0 {
		limit = DefaultMaxOutput
	}
	cmd := exec.Command(c.Name, c.Args...)
	cmd.Dir = c.Dir
	ownGroup(cmd)
	stop := make(chan error, 1) // why the tree must stop: output limit
	stdout := &limitedBuffer{limit: limit, over: stop}
	stderr := &limitedBuffer{limit: limit, over: stop}
	p, err := openPipes(cmd, c.Stdin != nil)
	if err != nil {
		return Result{}, err
	}
	env := c.Env
	if env == nil {
		env = os.Environ()
	}
	t, err := startTree(cmd, env)
	p.closeChildEnds()
	if err != nil {
		p.close()
		return Result{}, startError(c, err)
	}
	defer t.finish()
	done := p.transfer(c.Stdin, stdout, stderr)
	exited := make(chan struct{})
	var waitErr error
	go func() {
		waitErr = cmd.Wait()
		t.leaderDone()
		close(exited)
	}()

	var stopErr error
	immediate := false
	for waitExit, waitIO := exited, done; (waitExit != nil || waitIO != nil) && stopErr == nil; {
		select {
		case <-waitExit:
			waitExit = nil
		case <-waitIO:
			waitIO = nil
		case <-ctx.Done():
			stopErr = context.Cause(ctx)
			var k *killNow
			immediate = errors.As(stopErr, &k)
		case stopErr = <-stop:
		}
	}
	if stopErr != nil {
		settled := make(chan struct{})
		go func() {
			<-exited
			<-done
			close(settled)
		}()
		terminate(t, immediate, c.Force, settled)
		grace := time.NewTimer(pipeGrace)
		for _, ch := range []chan struct{}{exited, done} {
			select {
			case <-ch:
			case <-grace.C:
			}
		}
		grace.Stop()
		p.close()
		<-done
		return Result{Stdout: source.DecodeUTF8(stdout.Bytes()), Stderr: source.DecodeUTF8(stderr.Bytes()), Code: -1}, stopErr
	}
	p.close()
	var exit *exec.ExitError
	if waitErr != nil && !errors.As(waitErr, &exit) {
		return Result{}, waitErr
	}
	return Result{Stdout: source.DecodeUTF8(stdout.Bytes()), Stderr: source.DecodeUTF8(stderr.Bytes()), Code: cmd.ProcessState.ExitCode()}, nil
}

// terminate stops t: SIGKILL at once when immediate, else SIGTERM and
// SIGKILL after termGrace, or as soon as force is closed, or as soon as
// the leader exited, the output closed and nothing of the tree is left.
func terminate(t *tree, immediate bool, force, settled <-chan struct{}) {
	if !immediate {
		t.signal(sigTerm)
		timer := time.NewTimer(termGrace)
		defer timer.Stop()
	grace:
		for {
			select {
			case <-timer.C:
				break grace
			case <-force:
				break grace
			case <-settled:
				if t.gone() {
					return
				}
				settled = nil
			}
		}
	}
	t.kill()
}

// pipes are the child's standard streams. Run reads and writes them
// itself rather than leaving it to exec.Cmd, whose Wait would wait for
// every process that holds them, escaped or not.
type pipes struct {
	child           []*os.File // the child's ends, closed once it started
	inW, outR, errR *os.File
	closeOnce       sync.Once
}

func openPipes(cmd *exec.Cmd, stdin bool) (*pipes, error) {
	p := &pipes{}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, err
	}
	p.outR, p.errR = outR, errR
	p.child = []*os.File{outW, errW}
	cmd.Stdout, cmd.Stderr = outW, errW
	if stdin {
		inR, inW, err := os.Pipe()
		if err != nil {
			p.closeChildEnds()
			p.close()
			return nil, err
		}
		p.inW = inW
		p.child = append(p.child, inR)
		cmd.Stdin = inR
	}
	return p, nil
}

func (p *pipes) closeChildEnds() {
	for _, f := range p.child {
		f.Close()
	}
}

// close closes Run's ends: a transfer still under way ends.
func (p *pipes) close() {
	p.closeOnce.Do(func() {
		p.outR.Close()
		p.errR.Close()
		if p.inW != nil {
			p.inW.Close()
		}
	})
}

// transfer writes stdin to the child and reads its output until both
// output pipes reach end of file and stdin is written (or refused: a child
// that exits without reading it all is not an error). done is closed then.
func (p *pipes) transfer(stdin []byte, stdout, stderr io.Writer) (done chan struct{}) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		_, _ = io.Copy(stdout, p.outR)
	}()
	go func() {
		defer wg.Done()
		_, _ = io.Copy(stderr, p.errR)
	}()
	if p.inW != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = p.inW.Write(stdin)
			p.inW.Close()
		}()
	}
	done = make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	return done
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
