package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"

	"golang.org/x/term"

	"github.com/lobsterdev/lobster/internal/flaghelp"
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/engines"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/state"
)

// The text of lobster help run.
var runUsage = []string{
	"lobster run [--mode tool] [--args-json JSON] [--progress MODE] [--engine local|temporal ...] [--file] FILE",
	"lobster run [--mode tool] [--dry-run] '<pipeline>'",
}

const runDoc = `Run checks the workflow file like "lobster check" and, when it has no
errors, runs its steps in order; the output of the last step goes to
standard output, as JSON. Errors stop the run before any step starts;
warnings go to standard error and do not stop it. "lobster FILE" is
"lobster run FILE".

Every step kind runs: shell commands, pipelines, approval and input gates,
for_each loops, parallel branches and workflow: sub-workflows. In tool mode,
or when standard input is not a terminal, a gate pauses the run and prints
a resume token (and, for an approval, a short approvalId) for
"lobster resume"; on a terminal it shows the request and asks there (an
approval checks LOBSTER_APPROVAL_APPROVED_BY first; an input asks again
until the answer matches its schema; Ctrl-D cancels the run). An ask stage
inside a pipeline step pauses the workflow the same way.

Instead of a file, run takes a pipeline: its words, joined with spaces, as
in lobster 'exec --json --shell "echo [1,2]" | json'.

With --engine temporal the run is a workflow on Temporal, its steps run on
"lobster worker" processes and its gates wait there, durably, for
"lobster resume --engine temporal" from any machine; this command follows
the run to its end or first pause (README: Running on Temporal).

Flags may come anywhere on the command line; a value follows its flag after
a space or "=".`

const runMore = `Exit codes: 0 success; 1 a step failed, or the run was cancelled at a gate;
2 a usage error, bad --args-json, or errors found by the checker;
130/143/129/131 on SIGINT/SIGTERM/SIGHUP/SIGQUIT.`

// runFlags are the parsed arguments of lobster run.
type runFlags struct {
	mode     string
	tool     bool // --mode tool
	file     string
	argsJSON *string
	dryRun   bool
	ignore   []string // --ignore codes: their errors do not stop the run
	progress string   // "" when not given
	rest     []string
	engine   engines.Config
}

// runFlagSet is the flags of lobster run, set in f.
func runFlagSet(f *runFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.StringVar(&f.mode, "mode", "human", "`human|tool` human prints the output items; tool prints one JSON envelope (protocolVersion, ok, status, output, requiresApproval, requiresInput), as the reference does (any other mode is human)")
	fs.StringVar(&f.file, "file", "", "the workflow `FILE` (.lobster, .yaml, .yml or .json)")
	fs.Func("args-json", "the workflow's args, as a `JSON` object", func(s string) error {
		f.argsJSON = &s
		return nil
	})
	fs.Func("ignore", "`CODES` the codes (comma-separated, or the flag repeated) whose errors do not stop this run: they are printed as warnings. Load errors cannot be ignored. For good, per file or directory, use the project configuration (.lobsterrc.yaml: rules, ignore)", func(s string) error {
		for _, code := range strings.Split(s, ",") {
			if code = strings.TrimSpace(code); code != "" {
				f.ignore = append(f.ignore, code)
			}
		}
		return nil
	})
	fs.BoolVar(&f.dryRun, "dry-run", false, "print the reference's plan of the run on standard error instead of running it (see lobster plan); a preview: checker errors are shown, not refused")
	fs.Func("progress", "`auto|tty|plain|none` how human mode shows the steps on standard error: auto (the default) is tty, a status line updated in place, on a terminal, and plain, a line per event, elsewhere; tool mode shows none unless asked", func(s string) error {
		if !slices.Contains(progressModes, s) {
			return fmt.Errorf("--progress must be one of %s, not %q", strings.Join(progressModes, ", "), s)
		}
		f.progress = s
		return nil
	})
	engineFlags(fs, &f.engine, true)
	return fs
}

// parseRunArgs scans args as the reference does: flags may appear
// anywhere, with their value after a space or "="; the other words,
// unknown flags among them, are rest.
func parseRunArgs(args []string) (runFlags, error) {
	f := runFlags{engine: engines.FromEnv(os.Getenv)}
	rest, err := scanFlags(runFlagSet(&f), args)
	f.rest, f.tool = rest, f.mode == "tool"
	if err != nil {
		return f, err
	}
	if f.file == "" && len(f.rest) == 1 {
		f.file = f.rest[0]
	}
	return f, nil
}

// scanFlags reads the flags of fs in args as the reference reads a
// command's: "--name value" or "--name=value" anywhere (a flag that takes
// no value ignores one given with "="); every other word, in order, is
// rest.
func scanFlags(fs *flag.FlagSet, args []string) (rest []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := strings.Cut(a, "=")
		var f *flag.Flag
		if bare, ok := strings.CutPrefix(name, "--"); ok {
			f = fs.Lookup(bare)
		}
		switch {
		case f == nil:
			rest = append(rest, a)
			continue
		case flaghelp.IsBool(f):
			value = "true"
		case !hasValue:
			if i+1 >= len(args) {
				return rest, fmt.Errorf("%s needs a value", name)
			}
			i++
			value = args[i]
		}
		if err := fs.Set(f.Name, value); err != nil {
			return rest, err
		}
	}
	return rest, nil
}

// runOutput writes a run's outcome in the chosen mode and returns the exit
// code.
type runOutput struct {
	tool           bool
	stdout, stderr io.Writer
}

func (o runOutput) fail(errorType, message string, code int, extra ...any) int {
	switch {
	case o.tool:
		envelope.Write(o.stdout, envelope.Failure(errorType, message, extra...))
	case referenceVoice && errorType == envelope.RuntimeError:
		textf(o.stderr, "Error: %s\n", message)
	case referenceVoice:
		textf(o.stderr, "%s\n", message)
	default:
		textf(o.stderr, "lobster: %s\n", message)
	}
	return code
}

func runRun(args []string, stdout, stderr io.Writer) int {
	cmd := cmdNamed("run")
	if asksHelp(args) {
		fmt.Fprint(stdout, helpPage(cmd))
		return exitOK
	}
	flags, err := parseRunArgs(args)
	out := runOutput{tool: flags.tool, stdout: stdout, stderr: stderr}
	if !out.tool && err == nil {
		// The reference takes what is not a flag of run for a pipeline,
		// and fails with "Unknown command: --frob"; a person gets the
		// flag's name and the usage.
		if msg := strayWords(cmd, flags.rest); msg != "" {
			return usageError(stderr, cmd, "%s", msg)
		}
	}
	if text, ok := pipelineText(flags); ok && err == nil {
		return runPipeline(flags, text, os.Stdin, stdout, stderr)
	}
	switch {
	case err != nil && !out.tool:
		return usageError(stderr, cmd, "run %s", err)
	case err != nil:
		return out.fail(envelope.ParseError, "run "+err.Error(), exitUsage)
	case flags.file == "" && !out.tool:
		return usageError(stderr, cmd, "run needs a workflow file or a pipeline")
	case flags.file == "":
		return out.fail(envelope.ParseError, "run needs a workflow file or a pipeline: lobster run [--file] PATH, or lobster run '<pipeline>'", exitUsage)
	}
	var provided any
	if flags.argsJSON != nil {
		if provided, err = jsvalue.Parse([]byte(*flags.argsJSON)); err != nil {
			return out.fail(envelope.ParseError, "run --args-json must be valid JSON", exitUsage)
		}
	}
	if err := checkIgnoreCodes(flags.ignore); err != nil {
		return out.fail(envelope.ParseError, "run "+err.Error(), exitUsage)
	}
	if flags.dryRun {
		return runDryRun(out, flags.file, provided)
	}
	file, code := loadValidated(flags.file, out, flags.ignore)
	if file == nil {
		return code
	}
	abs, err := filepath.Abs(flags.file)
	if err != nil {
		return out.fail(envelope.RuntimeError, err.Error(), exitFindings)
	}
	stateDir, err := state.DefaultDir(os.Getenv)
	if err != nil {
		return out.fail(envelope.RuntimeError, err.Error(), exitFindings)
	}

	ctx, force, stop, signalled := signalContext()
	defer stop()
	e, err := openEngine(ctx, flags.engine)
	if err != nil {
		return out.fail(envelope.RuntimeError, err.Error(), exitFindings)
	}
	defer e.Close()
	dir, _ := os.Getwd()
	req := engines.RunRequest{File: file, Path: abs, Args: provided, Env: os.Environ(), Dir: dir,
		Force: force, StateDir: stateDir}
	mode := progressNone
	if isLocal(flags.engine) && (!out.tool || flags.progress != "") {
		// A run on Temporal tells no step events to the client.
		mode = progressMode(flags.progress, stderr, os.Getenv)
	}
	display := newProgress(mode, stderr, os.Getenv)
	req.Stderr, req.OnStep = display.logWriter(), display.event
	if !out.tool && isLocal(flags.engine) {
		req.Terminal = terminal(os.Stdin, stdout, stderr, display)
	}
	if isLocal(flags.engine) {
		stepsOnOneCore()
	}
	display.start()
	res, err := e.Run(ctx, req)
	display.end(err == nil && res.Status != envelope.StatusCancelled)
	if code := signalled(); code != 0 {
		msg := "run cancelled by signal"
		if !isLocal(flags.engine) {
			msg = "stopped following the run (signal); it goes on on Temporal"
		}
		out.fail(envelope.RuntimeError, msg, code)
		return code
	}
	if err != nil {
		if out.tool {
			return out.fail(envelope.RuntimeError, err.Error(), exitFindings)
		}
		fmt.Fprint(stderr, display.runFailure(err))
		return exitFindings
	}
	if out.tool {
		envelope.Write(stdout, envelope.Tool(res))
		return exitOK
	}
	if res.Status == envelope.StatusCancelled {
		// Ctrl-D at a gate on the terminal.
		textf(stderr, "lobster: cancelled at step %s: nothing after it ran\n", display.lastStep())
		return exitFindings
	}
	// The output items as JSON; JSON leaves DEL and C1 controls raw.
	if v := envelope.Human(res); v != nil {
		io.WriteString(stdout, source.PrintableJSON(jsvalue.Stringify(v, "  "))+"\n")
	}
	return exitOK
}

// loadValidated reads, parses and checks a workflow file, validation first:
// warnings go to stderr; errors are reported (human mode: as lobster check
// prints them; tool mode: a validation_error envelope) and file is nil,
// with the exit code to return. The project configuration applies; errors
// of the codes in ignore (run --ignore) are shown as warnings and do not
// stop the run.
func loadValidated(path string, out runOutput, ignore []string) (file *ast.File, code int) {
	src, err := engine.ReadWorkflow(path)
	limit, tooLarge := parser.LimitDiagnostic(path, err)
	if err != nil && !tooLarge {
		return nil, out.fail(envelope.ParseError, err.Error(), exitUsage)
	}
	var diags []source.Diagnostic
	files := map[string]*source.File{}
	if tooLarge {
		diags = []source.Diagnostic{limit} // no text: no snippet
	} else {
		var parseDiags []source.Diagnostic
		cfg := projectConfig(path, out.stderr)
		file, parseDiags = parser.Parse(path, src)
		opts := cfg.CheckOptions(check.Options{Path: path})
		diags, files[path] = cfg.Apply(path, check.RunWith(file, parseDiags, check.Rules, opts)), file.Src
		diags = demoteIgnored(diags, ignore)
	}
	var errs, others []source.Diagnostic
	for _, d := range diags {
		if d.Severity == source.Error {
			errs = append(errs, d)
		} else if d.Severity == source.Warning {
			others = append(others, d)
		}
	}
	switch {
	case len(errs) > 0 && !out.tool:
		// What stops the run first, then what does not, then what
		// happened.
		source.WriteText(out.stderr, files, errs, false)
		if len(others) > 0 {
			source.WriteText(out.stderr, files, others, false)
		}
		textf(out.stderr, "lobster: nothing ran: %s has %s (shown above)\n", path, count(len(errs), "error"))
		return nil, exitUsage
	case len(errs) > 0:
		if len(others) > 0 {
			source.WriteText(out.stderr, files, others, false)
		}
		envelope.Write(out.stdout, envelope.Validation(errs))
		return nil, exitUsage
	case len(others) > 0:
		source.WriteText(out.stderr, files, others, false)
	}
	return file, exitOK
}

// count is "1 error", "3 errors".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// openEngine opens the engine a command chose (tests replace it).
var openEngine = engines.Open

// isLocal says whether c chooses the local engine.
func isLocal(c engines.Config) bool { return c.Engine == "" || c.Engine == engines.Local }

// engineFlags adds the flags that choose the engine to fs, set in c; the
// task queue only where a run starts.
func engineFlags(fs *flag.FlagSet, c *engines.Config, taskQueue bool) {
	set := func(name string) func(string) error {
		return func(v string) error { _, err := c.Flag("--"+name, v); return err }
	}
	fs.Func("engine", "`local|temporal` where the run happens: local, in this process (the default), or temporal, a workflow on Temporal whose steps run on lobster worker processes and whose gates wait there for lobster resume --engine temporal from anywhere", set("engine"))
	fs.Func("temporal-address", "`HOST:PORT` the Temporal service, for --engine temporal (default TEMPORAL_ADDRESS, else localhost:7233)", set("temporal-address"))
	fs.Func("temporal-namespace", "`NS` its namespace (default TEMPORAL_NAMESPACE, else default)", set("temporal-namespace"))
	if taskQueue {
		fs.Func("task-queue", "`QUEUE` the task queue of the run on Temporal, served by lobster worker --task-queue QUEUE (default: the temporal section of the project's .lobsterrc.yaml, else lobster)", set("task-queue"))
	}
}

// terminal is where interactive gates ask, when standard input is a
// terminal; else nil, and gates pause the run. They ask on standard error
// when it is a terminal (through the progress display, which makes room),
// so that standard output keeps only the output items; else on standard
// output, as the reference does.
func terminal(in *os.File, stdout, stderr io.Writer, display *progress) *engine.Terminal {
	if !term.IsTerminal(int(in.Fd())) {
		return nil
	}
	t := &engine.Terminal{In: bufio.NewReader(in), Out: stdout}
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		t.Out = display.promptWriter()
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil {
			t.Width = cols
		}
	}
	return t
}

// strayWords is what is wrong with the words of a human-mode run that
// are not its flags, when they are meant as a workflow file and more, not
// as a pipeline: an unknown flag, or a second word after the file; "" when
// nothing is.
func strayWords(cmd *command, rest []string) string {
	if len(rest) == 0 {
		return ""
	}
	if isFlagWord(rest[0]) {
		return unknownFlag(cmd, rest[0]) // no pipeline starts with a dash
	}
	if !looksLikeWorkflowFile(rest[0]) {
		return "" // a pipeline: its words are its stages' flags and arguments
	}
	for _, w := range rest[1:] {
		if isFlagWord(w) {
			return unknownFlag(cmd, w)
		}
	}
	if len(rest) > 1 {
		return fmt.Sprintf("run takes one workflow file: %q is one word too many", rest[1])
	}
	return ""
}

// isFlagWord says whether a word of a command line is meant as a flag.
func isFlagWord(w string) bool { return len(w) > 1 && w[0] == '-' }

// asksHelp says whether any argument is -h or --help: as in the
// reference, that wins over everything else on the command line.
func asksHelp(args []string) bool {
	for _, a := range args {
		if a == "-h" || a == "--help" {
			return true
		}
	}
	return false
}

// isWorkflowPath says whether arg names a workflow file: an existing regular
// file with a workflow extension.
func isWorkflowPath(arg string) bool {
	if !parser.IsWorkflowName(arg) {
		return false
	}
	st, err := os.Stat(arg)
	return err == nil && st.Mode().IsRegular()
}

// signalContext is cancelled by SIGINT, SIGTERM, SIGHUP or SIGQUIT; force
// is closed by a second signal, to kill running processes at once.
// signalled reports the exit code for the first signal (128 + its number),
// or 0.
func signalContext() (ctx context.Context, force <-chan struct{}, stop func(), signalled func() int) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	forced := make(chan struct{})
	done := make(chan struct{})
	var code atomic.Int32
	go func() {
		select {
		case sig := <-ch:
			if s, ok := sig.(syscall.Signal); ok {
				code.Store(128 + int32(s))
			}
			cancel(fmt.Errorf("received %v", sig))
		case <-done:
			return
		}
		select {
		case <-ch:
			close(forced)
		case <-done:
		}
	}()
	stop = func() {
		signal.Stop(ch)
		close(done)
	}
	return ctx, forced, stop, func() int { return int(code.Load()) }
}

// stepsOnOneCore runs a workflow's steps with one P. Once the file is
// loaded, lobster mostly waits for child processes, and on these 2-core
// machines the hand-offs of a waiting goroutine between two CPUs cost more
// than they save: 100 shell steps take 3% longer with two Ps (1.11 vs 1.08
// times a shell loop spawning the same commands). Pipeline steps then
// render and parse on one core too; pipelines run on their own
// (`lobster '<pipeline>'`) keep every core.
func stepsOnOneCore() { runtime.GOMAXPROCS(1) }
