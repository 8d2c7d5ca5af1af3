// Package pipeline runs Lobster pipelines:
// stages parsed by lang/parser, each a built-in command of lang/commands,
// passing JSON items (lang/jsvalue values) from one to the next.
//
// # Scheduling
//
// As in the reference, stages are entered in order: stage i+1's command
// starts only after stage i's command has returned. A command either
// returns its output items at once (an eager command such as exec, which
// drains its input and runs its process before returning), or a lazy
// producer (where, pick, map, head, …). A lazy producer runs in a goroutine
// of its own, started on the first pull, and hands over one item at a time
// on an unbuffered channel, so it computes only as far as the next stage
// reads. Closing a stream (head has its n items, a stage failed, the run was
// cancelled) stops its producer and, through it, every producer upstream.
//
// # Errors
//
// A command's error, or the error of a lazy producer surfacing through the
// stream that reads it, ends the run with that error; an unknown command
// fails only when the run reaches its stage, after the stages before it
// started (the reference's behaviour).
//
// # Commands
//
// Every command of lang/commands has an implementation here, keyed by its
// registered name (TestImplementationsMatchRegistry keeps the two sets
// equal); NotYetSupported lists any that only fail with a clear message.
// Each behaves as the reference 2026.9.13 does, as recorded in
// conformance/cases/pipe-*.txtar, with these deliberate differences:
//
//   - commands.list and workflows.list describe commands and workflows from
//     lang/commands and in our words, not with the reference's metadata;
//   - the flag --_ is a parse error (the reference fails with an internal
//     JavaScript error), and is never stored;
//   - gog.gmail.send and openclaw.agent join an option value that starts
//     with "-" to its flag (--to=-x), so the program cannot take it for an
//     option;
//   - exec's output is bounded (runtime/proc's limit per stream); the
//     reference buffers any amount;
//   - the date filter reads ISO 8601 and RFC 1123/2822 dates, not every
//     form JavaScript's Date parser guesses at;
//   - email.triage's LLM mode asks with our own prompt (same output schema);
//   - a resumed chain that ends without crossing its execution boundary
//     still removes its approval id.
//
// # Pausing and resuming
//
// In tool mode, approve halts with an approval request and ask suspends
// at its own stage; Finalize saves the run as pipeline_resume_<uuid> in the
// state directory (runtime/state) and Resume continues it, claiming the
// state (a tombstone) right before the first stage that may have effects,
// so a token dispatches those effects at most once.
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/jsvalue"
)

// Mode is how the run reports to its caller.
type Mode string

// Modes of a run.
const (
	Human Mode = "human"
	Tool  Mode = "tool"
)

// Env is what commands see of the world.
type Env struct {
	Mode   Mode
	Stdin  io.Reader
	Stdout io.Writer // renderers (json, table) write here
	Stderr io.Writer
	// Environ is the complete environment of child processes, and what
	// commands read their variables from.
	Environ []string
	// Dir is the working directory of child processes and relative
	// files ("" for the process's own).
	Dir string
	// BaseDir is the directory the run started in, whatever a step's
	// cwd ("" for the process's own): the LLM cache (.lobster-cache) is
	// there, and gog runs there, as in the reference.
	BaseDir string
	// StateDir is the state directory (LOBSTER_STATE_DIR or
	// ~/.lobster/state); "" finds it from Environ when a command needs it.
	StateDir string
	// Force is closed to kill running processes at once (a second
	// interrupt).
	Force <-chan struct{}
	// Interactive reports whether Stdin is a terminal a human answers.
	Interactive bool
	// GOOS is the operating system the shell is chosen for; "" is the
	// running one.
	GOOS string
	// LLM, when set, hears of the answers llm.invoke and llm_task.invoke
	// produce, so that a workflow can bill each provider call once
	// however its answer is passed on.
	LLM LLMAccounting
	// Dispatch, when set, is called right before a command sends a
	// request that must never be sent twice, because it may take effect
	// whatever answer comes back: an OpenClaw tool call
	// (openclaw.invoke), an agent turn (openclaw.agent), a mail
	// (gog.gmail.send). A workflow step does not retry an attempt that
	// dispatched one.
	Dispatch func()
}

// LLMAccounting is told of LLM answers as the commands produce them. The
// items it is given are the objects the command emits: a workflow
// recognises them, and the usage objects inside them, when they come back
// as a later step's items, while a copy printed by a process is a new
// object that proves nothing.
type LLMAccounting interface {
	// Charge is a provider call that answered, at the cost its usage
	// reports (each call: also one whose answer then fails validation).
	Charge(cacheKey string, model any, usage *jsvalue.Object)
	// Answer is what an LLM command emits for cacheKey: the answer of
	// its last call, or (replayed) one reused from the run state or the
	// cache, which stands for a call made before.
	Answer(cacheKey string, items []any, replayed bool)
	// Carry says target is source read back from its own JSON text (a
	// value state.set wrote and state.get returned): it stands for what
	// source stands for.
	Carry(source, target any)
}

// dispatch reports a request that must not be repeated (see Env.Dispatch).
func (e *Env) dispatch() {
	if e.Dispatch != nil {
		e.Dispatch()
	}
}

// Getenv reads a variable of Environ (the last definition wins).
func (e *Env) Getenv(name string) string {
	v, _ := e.LookupEnv(name)
	return v
}

// LookupEnv reads a variable of Environ; ok is false when it is not
// defined. A variable set to "" is defined: the reference's env.A ?? env.B
// takes it and does not look at B.
func (e *Env) LookupEnv(name string) (v string, ok bool) {
	for _, kv := range e.Environ {
		if len(kv) > len(name) && kv[len(name)] == '=' && kv[:len(name)] == name {
			v, ok = kv[len(name)+1:], true
		}
	}
	return v, ok
}

// A Stage is one parsed stage: its command name and arguments.
type Stage struct {
	Name string
	Args *Args
	Raw  string // the stage's text, for messages
}

// StagesOf converts parsed stages.
func StagesOf(stages []*ast.Stage, text string) []Stage {
	out := make([]Stage, len(stages))
	for i, st := range stages {
		raw := ""
		if st.Span.Start >= 0 && st.Span.End <= len(text) && st.Span.Start <= st.Span.End {
			raw = text[st.Span.Start:st.Span.End]
		}
		out[i] = Stage{Name: st.Name.Text, Args: ArgsOf(st), Raw: raw}
	}
	return out
}

// Output is what a command returns.
type Output struct {
	// Items are the output of an eager command.
	Items []any
	// Lazy, when set, produces the output instead: it calls yield for
	// each item and stops when yield returns an error (the stream was
	// closed), returning that error.
	Lazy func(ctx context.Context, yield func(any) error) error
	// Rendered: the command wrote its own output (a renderer).
	Rendered bool
	// RenderedItems are the items the json renderer wrote.
	RenderedItems []any
	// Halt stops the pipeline after this stage (approve, ask).
	Halt bool
	// suspend marks a halt that a resume continues at this same stage
	// (ask in tool mode).
	suspend *suspension
	// pull, when set, is used instead of Lazy: the next item, computed
	// in the reading stage's goroutine when it asks for it (a per-item
	// filter or map, which needs no goroutine of its own and no
	// handover of each item).
	pull func(ctx context.Context) (any, bool, error)
}

// A Command is the implementation of a registered command.
type Command func(ctx context.Context, c *Call) (Output, error)

// Call is one invocation of a command.
type Call struct {
	Name  string // the name as written (an alias stays an alias)
	Args  *Args
	Input *Stream
	Env   *Env
	Spec  *commands.Command // the registry entry
	// Resume is the answer of a same-stage resume, for the first stage
	// of a resumed run; nil otherwise.
	Resume *ResumeInput
}

// Result is a finished run.
type Result struct {
	Items    []any
	Rendered bool // some stage rendered its own output
	// RenderedItems are the items the json renderers wrote, the objects
	// themselves: what a workflow step bills when a renderer took them
	// all and its json is only their text read back.
	RenderedItems []any
	Halted        bool
	HaltedAt      int // the index of the stage that halted, when Halted
	// suspend is the same-stage input request the run halted on.
	suspend *suspension
}

// Options change how Run starts.
type Options struct {
	// Resume is the answer for the first stage (a same-stage resume).
	Resume *ResumeInput
	// BeforeEffect, when set, is called once, right before the first
	// stage whose command may have effects starts (any command but the
	// resume-safe gates approve and ask); its error ends the run. A
	// resumed run claims its state there: the execution boundary.
	BeforeEffect func() error
}

// UnknownCommandError is a stage whose command is not registered.
type UnknownCommandError struct{ Name string }

func (e *UnknownCommandError) Error() string { return "Unknown command: " + e.Name }

// Run runs stages with input as the first stage's input.
func Run(ctx context.Context, stages []Stage, input []any, env *Env) (Result, error) {
	return RunWith(ctx, stages, input, env, Options{})
}

// RunWith is Run with options.
func RunWith(ctx context.Context, stages []Stage, input []any, env *Env, opts Options) (Result, error) {
	// A copy: streams let go of items as they hand them over, and a
	// command may reorder a drained slice; the caller's stays as it was.
	cur := Items(slices.Clone(input))
	res := Result{}
	before := opts.BeforeEffect
	for i, st := range stages {
		if err := context.Cause(ctx); err != nil {
			cur.Close()
			return res, err
		}
		impl, spec, ok := lookup(st.Name)
		if !ok {
			cur.Close()
			return res, &UnknownCommandError{st.Name}
		}
		call := &Call{Name: st.Name, Args: st.Args, Input: cur, Env: env, Spec: spec}
		if i == 0 {
			call.Resume = opts.Resume
		}
		if before != nil && !spec.Halts {
			err := before()
			before = nil
			if err != nil {
				cur.Close()
				return res, err
			}
		}
		out, err := runCommand(ctx, impl, call)
		if err != nil {
			cur.Close()
			return res, err
		}
		if out.Rendered {
			res.Rendered = true
			res.RenderedItems = append(res.RenderedItems, out.RenderedItems...)
		}
		if out.pull != nil {
			cur = pulled(out.pull, cur)
		} else if out.Lazy != nil {
			cur = lazy(ctx, out.Lazy, cur)
		} else {
			cur.Close()
			cur = Items(out.Items)
		}
		if out.Halt {
			res.Halted, res.HaltedAt, res.suspend = true, i, out.suspend
			break
		}
	}
	items, err := cur.Drain(ctx)
	cur.Close()
	if err != nil {
		return res, err
	}
	if err := context.Cause(ctx); err != nil {
		return res, err
	}
	res.Items = items
	return res, nil
}

// runCommand calls impl, turning a panic into an error: a bug in one
// command must not crash the process.
func runCommand(ctx context.Context, impl Command, c *Call) (out Output, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error in %s: %v", c.Name, r)
		}
	}()
	return impl(ctx, c)
}

// errClosed is what yield returns once the consumer closed the stream.
var errClosed = errors.New("pipeline: stream closed")

// A Stream is the input of a stage: items read one at a time with Next.
// It is used by one goroutine at a time.
type Stream struct {
	items []any // an eager stream
	pos   int

	produce  func(ctx context.Context, yield func(any) error) error
	pull     func(ctx context.Context) (any, bool, error)
	upstream *Stream // closed when the producer ends
	parent   context.Context
	started  bool
	ch       chan any
	done     chan struct{}
	err      error // the producer's error, valid after done
	cancel   context.CancelFunc
	closed   bool
	failed   error
	once     sync.Once
}

// Items is a stream of the given items.
func Items(items []any) *Stream { return &Stream{items: items} }

// lazy is a stream fed by produce, which reads upstream.
func lazy(ctx context.Context, produce func(context.Context, func(any) error) error, upstream *Stream) *Stream {
	return &Stream{produce: produce, upstream: upstream, parent: ctx}
}

// pulled is a stream whose items pull computes on demand from upstream.
func pulled(pull func(context.Context) (any, bool, error), upstream *Stream) *Stream {
	return &Stream{pull: pull, upstream: upstream}
}

// Next returns the next item; ok is false at the end (or after an error).
func (s *Stream) Next(ctx context.Context) (v any, ok bool, err error) {
	if s.failed != nil {
		return nil, false, s.failed
	}
	if s.closed {
		return nil, false, nil
	}
	if s.pull != nil {
		return s.nextPulled(ctx)
	}
	if s.produce == nil {
		if err := context.Cause(ctx); err != nil {
			return nil, false, err
		}
		if s.pos >= len(s.items) {
			return nil, false, nil
		}
		v = s.items[s.pos]
		s.items[s.pos] = nil // let it go once read
		s.pos++
		return v, true, nil
	}
	s.start()
	select {
	case v := <-s.ch:
		return v, true, nil
	case <-s.done:
		// The producer may have sent its last item just before ending:
		// the channel is unbuffered, so no item is lost.
		if s.err != nil && !errors.Is(s.err, errClosed) {
			s.failed = s.err
			return nil, false, s.err
		}
		return nil, false, nil
	case <-ctx.Done():
		s.failed = context.Cause(ctx)
		return nil, false, s.failed
	}
}

// nextPulled is Next of a pulled stream. When it ends (the upstream ended,
// or an error) the upstream is closed, as a producer's is.
func (s *Stream) nextPulled(ctx context.Context) (v any, ok bool, err error) {
	if ctx.Err() != nil {
		s.failed = context.Cause(ctx)
		s.upstream.Close()
		return nil, false, s.failed
	}
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("internal error in a pipeline stage: %v", r)
			}
		}()
		v, ok, err = s.pull(ctx)
	}()
	switch {
	case err != nil:
		s.failed = err
		s.upstream.Close()
		return nil, false, err
	case !ok:
		s.closed = true
		s.upstream.Close()
	}
	return v, ok, nil
}

// start runs the producer, once.
func (s *Stream) start() {
	if s.started {
		return
	}
	s.started = true
	ctx, cancel := context.WithCancel(s.parent)
	s.cancel = cancel
	s.ch = make(chan any)
	s.done = make(chan struct{})
	go func() {
		defer close(s.done)
		defer s.upstream.Close()
		defer func() {
			if r := recover(); r != nil {
				s.err = fmt.Errorf("internal error in a pipeline stage: %v", r)
			}
		}()
		s.err = s.produce(ctx, func(v any) error {
			select {
			case s.ch <- v:
				return nil
			case <-ctx.Done():
				return errClosed
			}
		})
	}()
}

// Drain reads every remaining item.
func (s *Stream) Drain(ctx context.Context) ([]any, error) {
	if s.produce == nil && s.pull == nil && s.failed == nil && !s.closed {
		if err := context.Cause(ctx); err != nil {
			return nil, err
		}
		rest := s.items[s.pos:]
		s.pos = len(s.items)
		return rest, nil
	}
	var items []any
	if n := s.sizeHint(); n > 0 {
		items = make([]any, 0, n)
	}
	for {
		v, ok, err := s.Next(ctx)
		if err != nil {
			return items, err
		}
		if !ok {
			return items, nil
		}
		items = append(items, v)
	}
}

// sizeHint is an upper bound of the number of items left when one is
// known (a pulled stream gives at most what its upstream has), else 0.
func (s *Stream) sizeHint() int {
	for s != nil && s.pull != nil {
		s = s.upstream
	}
	if s == nil || s.produce != nil {
		return 0
	}
	return max(0, len(s.items)-s.pos)
}

// Close stops the stream: its producer (and every producer upstream) is
// stopped and waited for. Close may be called more than once.
func (s *Stream) Close() {
	if s == nil {
		return
	}
	s.once.Do(func() {
		s.closed = true
		if s.pull != nil {
			s.upstream.Close()
			return
		}
		if s.produce == nil {
			s.items = nil
			return
		}
		if !s.started {
			s.upstream.Close()
			return
		}
		s.cancel()
		<-s.done
	})
}
