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

	"github.com/lobsterdev/lobster/lang/source"
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

	// held is the line of a step that ended, kept back until the next
	// event: a step with an approval gate ends, then waits at its gate,
	// and one line says both; on a terminal, a step waiting at its gate
	// is held too, until the run pauses there (one line says so) or the
	// gate asks. waiting is the step at a gate: when the run goes on to
	// another step, its approval was granted.
	held    *line
	waiting engine.StepEvent
}

// A line is what the display says about a step that ended or stopped.
type line struct {
	e          engine.StepEvent
	mark, what string
	style      ansi.Style
	elapsed    time.Duration
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

// end stops the display and clears the status line; ok says the run
// succeeded (a step waiting at an approval was approved then).
func (p *progress) end(ok bool) {
	if p.stop != nil {
		close(p.stop)
		<-p.done
		p.stop = nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	p.running = false
	p.release()
	if ok {
		p.approved()
	}
}

// release shows the held line, if any.
func (p *progress) release() {
	if h := p.held; h != nil {
		p.held = nil
		p.finish(h.e, h.mark, h.what, h.style)
	}
}

// approved shows that the step waiting at an approval on the terminal
// was approved: the run went on.
func (p *progress) approved() {
	if w := p.waiting; w.ID != "" {
		p.waiting = engine.StepEvent{}
		what := "answered"
		if w.Gate == engine.ApprovalGate {
			what = "approved"
		}
		p.finish(w, "✓", what, green)
	}
}

// event is the run's OnStep.
func (p *progress) event(e engine.StepEvent) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.now()
	p.suspended, p.last = false, e.ID
	held := p.held
	p.held = nil
	atGate := e.Phase == engine.StepWaiting || e.Phase == engine.StepPaused
	if held != nil && !(atGate && held.e.ID == e.ID && held.e.Index == e.Index) {
		p.finish(held.e, held.mark, held.what, held.style)
		held = nil
	}
	if p.waiting.ID != "" && (e.ID != p.waiting.ID || e.Index != p.waiting.Index) {
		p.approved()
	}
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
		switch {
		case e.Err != nil:
			p.failed = e
			p.finish(e, "✗", "failed after "+elapsed, red)
		case e.ID == p.waiting.ID && e.Index == p.waiting.Index:
			// An input answered on the terminal.
			p.waiting = engine.StepEvent{}
			p.finish(e, "✓", elapsed, green)
		default:
			p.held = &line{e: e, mark: "✓", what: elapsed, style: green, elapsed: now.Sub(p.started)}
		}
	case engine.StepRetrying:
		p.retryAt = now.Add(e.Delay)
		if p.mode == progressPlain {
			p.plain(e, fmt.Sprintf("attempt %d/%d failed, retrying in %s", e.Attempt, e.MaxAttempts, seconds(e.Delay)))
		}
		p.step.Attempt, p.step.MaxAttempts = e.Attempt, e.MaxAttempts
		p.draw()
	case engine.StepWaiting:
		p.running, p.waiting = false, e
		what := "waiting for " + gateNoun(e.Gate)
		if held != nil && held.elapsed >= 50*time.Millisecond {
			what = "ran " + held.what + ", " + what
		}
		if p.mode == progressTTY {
			// Either the run pauses here (StepPaused follows at once)
			// or the terminal asks, through promptWriter, which shows
			// the line first.
			p.held = &line{e: e, mark: "⏸", what: what, style: yellow}
		} else {
			p.finish(e, "⏸", what, yellow)
		}
	case engine.StepPaused:
		p.running = false
		p.waiting = engine.StepEvent{}
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
		line := fmt.Sprintf("%s %s %s  %s", mark, counter(e), source.Printable(e.ID), what)
		fmt.Fprintln(p.w, ansi.Truncate(line, p.width()-1, "…"))
	}
}

// plain writes one line about step e.
func (p *progress) plain(e engine.StepEvent, what string) {
	textf(p.w, "%s %s: %s\n", counter(e), e.ID, what)
}

// counter is "[3/40]" for the third of 40 steps.
func counter(e engine.StepEvent) string { return fmt.Sprintf("[%d/%d]", e.Index+1, e.Total) }

// draw puts the status line of the running step on the terminal, in place.
func (p *progress) draw() {
	if p.mode != progressTTY || !p.running || p.suspended {
		return
	}
	now := p.now()
	line := fmt.Sprintf("%s %s %s  %s", spinner[p.frame%len(spinner)], counter(p.step), source.Printable(p.step.ID), seconds(now.Sub(p.started)))
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
	// The engine's log lines ([RETRY] ... with the step's error) are
	// whole lines; they carry text from the file and the step.
	n := len(b)
	_, err := io.WriteString(p.w, source.Printable(string(b)))
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
	p.release()
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
	step := p.lastStep()
	switch {
	case step != "" && errors.Is(err, engine.ErrNotApproved):
		return source.Printable(fmt.Sprintf("lobster: step %s was not approved: nothing after it ran\n", step))
	case step != "" && !strings.Contains(err.Error(), "step "+step+" "):
		// (The engine's messages often name the step already.)
		return source.Printable(fmt.Sprintf("lobster: step %s: %s\n", step, err))
	}
	return source.Printable(fmt.Sprintf("lobster: %s\n", err))
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
		textf(&b, "lobster: step %s failed: %s\n", step, how)
		lines := strings.Split(strings.TrimRight(cmd.Stderr, "\n"), "\n")
		if len(lines) > stderrTail {
			fmt.Fprintf(&b, "  stderr (last %d of %d lines):\n", stderrTail, len(lines))
			lines = lines[len(lines)-stderrTail:]
		} else {
			b.WriteString("  stderr:\n")
		}
		for _, l := range lines {
			b.WriteString("    " + source.Printable(strings.TrimRight(l, "\r")) + "\n")
		}
	default:
		textf(&b, "lobster: step %s failed: %s\n", step, err)
	}
	return b.String()
}

// stderrTail is how many lines of a failed command's standard error the
// message shows.
const stderrTail = 10
