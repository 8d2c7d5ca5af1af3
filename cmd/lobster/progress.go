package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"

	"github.com/lobsterdev/lobster/runtime/engine"
)

// The progress of a human-mode run goes to standard error, never to
// standard output (which holds the output items): on a terminal a status
// line that updates in place while a step runs, above it one line per step
// that ended; elsewhere one plain line per event.

// Progress modes (run --progress).
const (
	progressAuto  = "auto"  // tty on a terminal, else plain
	progressTTY   = "tty"   // a status line updated in place
	progressPlain = "plain" // one line per event
	progressNone  = "none"  // nothing
)

// progressModes are the values of --progress, in the order help shows them.
var progressModes = []string{progressAuto, progressTTY, progressPlain, progressNone}

// progressMode resolves --progress for standard error w: auto is tty when
// w is a terminal that is not "dumb", else plain.
func progressMode(flag string, w io.Writer, getenv func(string) string) string {
	if flag != progressAuto && flag != "" {
		return flag
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) && getenv("TERM") != "dumb" {
		return progressTTY
	}
	return progressPlain
}

// spinner is the status line's animation.
var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// tick is how often the status line is drawn again while a step runs.
const tick = 100 * time.Millisecond

// A progress follows a run's steps (engine.Options.OnStep) and shows them
// on w in its mode. It also remembers the step that failed last, for the
// run's error message. Its methods may be called from any goroutine.
type progress struct {
	mode  string
	w     io.Writer
	color bool
	width func() int // of the terminal, in columns
	now   func() time.Time

	mu        sync.Mutex
	step      engine.StepEvent // the step running, if running
	running   bool
	started   time.Time
	retryAt   time.Time // when the next attempt starts, after a retry
	shown     bool      // the status line is on the screen
	suspended bool      // a gate holds the terminal: no status line
	frame     int
	failed    engine.StepEvent // the last step that failed
	last      string           // the step of the last event
	stop      chan struct{}
	done      chan struct{}
}

// newProgress is a display of mode on w (standard error).
func newProgress(mode string, w io.Writer, getenv func(string) string) *progress {
	p := &progress{mode: mode, w: w, now: time.Now, width: func() int { return 80 }}
	if f, ok := w.(*os.File); ok {
		p.width = func() int {
			if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
				return cols
			}
			return 80
		}
	}
	p.color = mode == progressTTY && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
	return p
}

// start starts redrawing the status line (tty mode).
func (p *progress) start() {
	if p.mode != progressTTY {
		return
	}
	p.stop, p.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.done)
		t := time.NewTicker(tick)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.mu.Lock()
				p.frame++
				p.draw()
				p.mu.Unlock()
			}
		}
	}()
}

// end stops the display and clears the status line.
func (p *progress) end() {
	if p.stop != nil {
		close(p.stop)
		<-p.done
		p.stop = nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	p.running = false
}

// event is the run's OnStep.
func (p *progress) event(e engine.StepEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	p.suspended, p.last = false, e.ID
	switch e.Phase {
	case engine.StepStarted:
		p.step, p.running, p.started, p.retryAt, p.frame = e, true, now, time.Time{}, 0
		if p.mode == progressPlain {
			p.plain(e, "running")
		}
		p.draw()
	case engine.StepSkipped:
		p.running = false
		p.finish(e, "-", "skipped", faint)
	case engine.StepFinished:
		p.running = false
		elapsed := seconds(now.Sub(p.started))
		if e.Err != nil {
			p.failed = e
			p.finish(e, "✗", "failed after "+elapsed, red)
		} else {
			p.finish(e, "✓", elapsed, green)
		}
	case engine.StepRetrying:
		p.retryAt = now.Add(e.Delay)
		if p.mode == progressPlain {
			p.plain(e, fmt.Sprintf("attempt %d/%d failed, retrying in %s", e.Attempt, e.MaxAttempts, seconds(e.Delay)))
		}
		p.step.Attempt, p.step.MaxAttempts = e.Attempt, e.MaxAttempts
		p.draw()
	case engine.StepWaiting:
		p.running = false
		p.finish(e, "⏸", "waiting for "+gateNoun(e.Gate), yellow)
	case engine.StepPaused:
		p.running = false
		p.finish(e, "⏸", "paused for "+gateNoun(e.Gate)+": lobster resume continues it", yellow)
	}
}

// gateNoun names what a gate waits for.
func gateNoun(kind string) string {
	if kind == engine.ApprovalGate {
		return "approval"
	}
	return "input"
}

// finish shows that step e ended (or stopped) as what says: a line that
// stays, with mark in colour on a terminal.
func (p *progress) finish(e engine.StepEvent, mark, what string, style ansi.Style) {
	switch p.mode {
	case progressPlain:
		p.plain(e, what)
	case progressTTY:
		p.clear()
		if p.color {
			mark = style.Styled(mark)
		}
		line := fmt.Sprintf("%s %s %s  %s", mark, counter(e), e.ID, what)
		fmt.Fprintln(p.w, ansi.Truncate(line, p.width()-1, "…"))
	}
}

// plain writes one line about step e.
func (p *progress) plain(e engine.StepEvent, what string) {
	fmt.Fprintf(p.w, "%s %s: %s\n", counter(e), e.ID, what)
}

// counter is "[3/40]" for the third of 40 steps.
func counter(e engine.StepEvent) string { return fmt.Sprintf("[%d/%d]", e.Index+1, e.Total) }

// draw puts the status line of the running step on the terminal, in place.
func (p *progress) draw() {
	if p.mode != progressTTY || !p.running || p.suspended {
		return
	}
	now := p.now()
	line := fmt.Sprintf("%s %s %s  %s", spinner[p.frame%len(spinner)], counter(p.step), p.step.ID, seconds(now.Sub(p.started)))
	if p.step.Attempt > 0 {
		if wait := p.retryAt.Sub(now); wait > 0 {
			line += fmt.Sprintf("  attempt %d/%d failed, retrying in %s", p.step.Attempt, p.step.MaxAttempts, seconds(wait))
		} else {
			line += fmt.Sprintf("  attempt %d/%d", p.step.Attempt+1, p.step.MaxAttempts)
		}
	}
	fmt.Fprint(p.w, "\r"+ansi.EraseEntireLine+ansi.Truncate(line, p.width()-1, "…"))
	p.shown = true
}

// clear takes the status line off the terminal.
func (p *progress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r"+ansi.EraseEntireLine)
		p.shown = false
	}
}

// logWriter is where the run's log lines go ([RETRY] ..., warnings): on a
// terminal they go above the status line.
func (p *progress) logWriter() io.Writer { return logWriter{p} }

type logWriter struct{ p *progress }

func (l logWriter) Write(b []byte) (int, error) {
	p := l.p
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	n, err := p.w.Write(b)
	if len(b) > 0 && b[len(b)-1] == '\n' {
		p.draw()
	}
	return n, err
}

// promptWriter is where gates ask: what it writes takes the terminal from
// the status line until the next event.
func (p *progress) promptWriter() io.Writer { return promptWriter{p} }

type promptWriter struct{ p *progress }

func (w promptWriter) Write(b []byte) (int, error) {
	p := w.p
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	p.suspended = true
	return p.w.Write(b)
}

// lastStep is the id of the step of the last event.
func (p *progress) lastStep() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last
}

// failedStep is the id of the step whose failure err is, or "".
func (p *progress) failedStep(err error) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.failed.Err != nil && errors.Is(err, p.failed.Err) {
		return p.failed.ID
	}
	return ""
}

// seconds is d for people: "0.4s", "12s", "3m05s".
func seconds(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// Styles of the marks.
var (
	green  = ansi.Style{}.ForegroundColor(ansi.Green)
	red    = ansi.Style{}.ForegroundColor(ansi.Red)
	yellow = ansi.Style{}.ForegroundColor(ansi.Yellow)
	faint  = ansi.Style{}.Faint()
)

// runFailure is the message of a run that failed with err: which step
// failed and how, with the end of its command's standard error, or else
// at which step the run stopped.
func (p *progress) runFailure(err error) string {
	if step := p.failedStep(err); step != "" {
		return stepFailure(step, err)
	}
	if step := p.lastStep(); step != "" {
		return fmt.Sprintf("lobster: step %s: %s\n", step, err)
	}
	return fmt.Sprintf("lobster: %s\n", err)
}

// stepFailure is the message of step's failure err.
func stepFailure(step string, err error) string {
	var b strings.Builder
	var cmd *engine.CommandError
	switch {
	case errors.As(err, &cmd) && strings.TrimSpace(cmd.Stderr) != "":
		how := fmt.Sprintf("its command exited with status %d", cmd.Code)
		if cmd.Code < 0 {
			how = "its command was killed by a signal"
		}
		fmt.Fprintf(&b, "lobster: step %s failed: %s\n", step, how)
		lines := strings.Split(strings.TrimRight(cmd.Stderr, "\n"), "\n")
		if len(lines) > stderrTail {
			fmt.Fprintf(&b, "  stderr (last %d of %d lines):\n", stderrTail, len(lines))
			lines = lines[len(lines)-stderrTail:]
		} else {
			b.WriteString("  stderr:\n")
		}
		for _, l := range lines {
			b.WriteString("    " + strings.TrimRight(l, "\r") + "\n")
		}
	default:
		fmt.Fprintf(&b, "lobster: step %s failed: %s\n", step, err)
	}
	return b.String()
}

// stderrTail is how many lines of a failed command's standard error the
// message shows.
const stderrTail = 10
