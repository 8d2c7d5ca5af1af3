package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/engines"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/pipeline"
	"github.com/lobsterdev/lobster/runtime/state"
)

// The text of lobster help resume.
var resumeUsage = []string{"lobster resume (--token TOKEN | --id ID) (--approve yes|no | --response-json JSON | --cancel) [--allow-changed] [--ignore CODES] [--engine local|temporal ...]"}

const resumeDoc = `Resume continues a workflow run or a pipeline that paused at an approval
or input gate, and always prints one JSON envelope, as the reference does.
"lobster state list" lists the paused runs. A run started with --engine
temporal waits on Temporal: resume it with --engine temporal, from any
machine that reaches the service; its gate checks the approver and the
response before it accepts them, and the run goes on on the workers.

An approval with required_approver or require_different_approver needs
LOBSTER_APPROVAL_APPROVED_BY in the environment of the resume.`

const resumeMore = `Exit codes: 0 success (also a new pause or a cancellation); 1 a runtime
error; 2 a bad argument, an unknown, spent or foreign token or id (one
that names no paused run of its kind), a wrong approver or a response
that fails its schema.`

// resumeFlagSet is the flags of lobster resume, for its help and for
// telling its flags from other words: parseResumeArgs reads them, as the
// reference does.
func resumeFlagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("resume", flag.ContinueOnError)
	fs.String("token", "", "`TOKEN` the resumeToken of the pause")
	fs.String("id", "", "`ID` the approvalId of an approval pause (instead of --token)")
	fs.String("approve", "", "`yes|no` grant or reject an approval; a rejection cancels the run")
	fs.String("decision", "", "`yes|no` the same as --approve")
	fs.String("response-json", "", "the response to an input request, as `JSON` checked against its responseSchema")
	fs.Bool("cancel", false, "cancel the paused run (--cancel false: do not)")
	fs.Bool("allow-changed", false, "continue even though the workflow file changed since the pause (by default the resume is refused and the changed steps are named)")
	fs.String("ignore", "", "as for run, `CODES` whose errors do not stop it: the file is checked again before it continues")
	engineFlags(fs, new(engines.Config), false)
	return fs
}

// resumeFlags are the parsed arguments of lobster resume.
type resumeFlags struct {
	token, id    string
	approve      *bool
	response     any // Undefined when not given
	cancel       bool
	intents      int
	allowChanged bool
	ignore       []string
	unknown      string // the first word that looks like a flag and is none
	engine       engines.Config
}

// parseResumeArgs reads the flags as the reference does (value after a
// space or "="; unknown words ignored), with its messages.
func parseResumeArgs(args []string) (resumeFlags, error) {
	f := resumeFlags{response: jsvalue.Undefined, engine: engines.FromEnv(os.Getenv)}
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(args[i], "=")
		next := func() string {
			if hasValue {
				return value
			}
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		if engines.IsFlag(name) && name != "--task-queue" {
			if _, err := f.engine.Flag(name, next()); err != nil {
				return f, errors.New("resume " + err.Error())
			}
			continue
		}
		switch name {
		case "--token":
			f.token = next()
		case "--id":
			f.id = next()
		case "--approve", "--decision":
			f.intents++
			switch strings.ToLower(next()) {
			case "yes", "y":
				f.approve = ptr(true)
			case "no", "n":
				f.approve = ptr(false)
			default:
				return f, errors.New("resume --approve must be yes or no")
			}
		case "--response-json":
			f.intents++
			v, err := jsvalue.Parse([]byte(next()))
			if err != nil {
				return f, errors.New("resume --response-json must be valid JSON")
			}
			f.response = v
		case "--cancel":
			text := "true"
			if hasValue {
				text = value
			} else if i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
				i++
				text = args[i]
			}
			switch strings.ToLower(text) {
			case "1", "true", "yes", "y":
				f.cancel = true
				f.intents++
			case "0", "false", "no", "n": // as if not given
			default:
				return f, errors.New("resume --cancel must be true or false")
			}
		case "--allow-changed":
			f.allowChanged = true
		case "--ignore":
			for _, code := range strings.Split(next(), ",") {
				if code = strings.TrimSpace(code); code != "" {
					f.ignore = append(f.ignore, code)
				}
			}
		default:
			// The reference ignores other words; a mistyped flag is
			// worth a word on standard error all the same.
			if isFlagWord(args[i]) && f.unknown == "" {
				f.unknown = args[i]
			}
		}
	}
	switch {
	case f.token == "" && f.id == "":
		return f, errors.New("resume requires --token or --id")
	case f.intents > 1:
		return f, errors.New("resume accepts only one of --approve, --response-json, or --cancel")
	case f.intents == 0:
		return f, errors.New("resume requires --approve yes|no, --response-json, or --cancel")
	}
	if err := checkIgnoreCodes(f.ignore); err != nil {
		return f, errors.New("resume " + err.Error())
	}
	return f, nil
}

func ptr[T any](v T) *T { return &v }

func runResume(args []string, stdout, stderr io.Writer) int {
	cmd := cmdNamed("resume")
	if asksHelp(args) {
		fmt.Fprint(stdout, helpPage(cmd))
		return exitOK
	}
	out := runOutput{tool: true, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		// A person gets the usage; a program, which has no terminal for
		// standard output, the reference's envelope as well.
		printUsage(stderr, cmd)
		if isTerminal(stdout) {
			return exitUsage
		}
	}
	flags, err := parseResumeArgs(args)
	if flags.unknown != "" {
		name := flagName(flags.unknown)
		textf(stderr, "lobster: resume has no flag --%s, and ignores it%s\n", name, flagSuggestion(cmd, name))
	}
	if err != nil {
		return out.fail(envelope.ParseError, err.Error(), exitUsage)
	}
	dir, err := state.DefaultDir(os.Getenv)
	if err != nil {
		return out.fail(envelope.RuntimeError, err.Error(), exitFindings)
	}
	store := &state.Store{Dir: dir}
	var key, kind string // a run on Temporal keeps no local state
	if isLocal(flags.engine) {
		key, kind, err = engines.LocalKey(store, flags.token, flags.id, flags.cancel)
	}
	if errors.Is(err, state.ErrLegacyToken) && flags.cancel {
		// Nothing is stored for a legacy token: cancelling it is
		// trivially done, as in the reference.
		envelope.Write(stdout, envelope.Tool(envelope.Result{Status: envelope.StatusCancelled}))
		return exitOK
	}
	var gone *state.GoneError
	if errors.As(err, &gone) {
		return out.fail(envelope.RuntimeError, err.Error(), exitUsage)
	}
	if err != nil {
		return out.fail(envelope.ParseError, err.Error(), exitUsage)
	}

	ctx, force, stop, signalled := signalContext()
	defer stop()
	var res envelope.Result
	if kind == state.KindPipeline && !flags.cancel {
		res, err = pipeline.Resume(ctx, store, key, pipeline.Decision{Approved: flags.approve, Response: flags.response},
			&pipeline.Env{Mode: pipeline.Tool, Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr,
				Environ: os.Environ(), StateDir: store.Dir, Force: force}, time.Now())
	} else {
		res, err = resume(ctx, store, key, flags, out, force)
	}
	if code := signalled(); code != 0 {
		out.fail(envelope.RuntimeError, "resume cancelled by signal", code)
		return code
	}
	var argErr *engine.ArgumentError
	var intentErr *pipeline.IntentError
	switch {
	case errors.As(err, &argErr), errors.As(err, &intentErr):
		return out.fail(envelope.ParseError, err.Error(), exitUsage)
	case errors.As(err, &gone):
		// An unknown, spent or foreign token or id: the reference's
		// message, the README's exit code.
		return out.fail(envelope.RuntimeError, err.Error(), exitUsage)
	case errors.Is(err, errReported):
		return exitUsage
	case err != nil:
		return out.fail(envelope.RuntimeError, err.Error(), exitFindings)
	}
	envelope.Write(stdout, envelope.Tool(res))
	return exitOK
}

// errReported is a failure resume already printed.
var errReported = errors.New("reported")

func resume(ctx context.Context, store *state.Store, key string, flags resumeFlags, out runOutput, force <-chan struct{}) (envelope.Result, error) {
	e, err := openEngine(ctx, flags.engine)
	if err != nil {
		return envelope.Result{}, err
	}
	defer e.Close()
	return e.Resume(ctx, engines.ResumeRequest{
		Token: flags.token, ID: flags.id, Key: key, Approve: flags.approve, Response: flags.response, Cancel: flags.cancel,
		AllowChanged: flags.allowChanged, Env: os.Environ(), Stderr: out.stderr, StateDir: store.Dir, Force: force,
		Load: func(path string) (*ast.File, error) {
			file, code := loadValidated(path, out, flags.ignore)
			if file == nil {
				if code == exitUsage {
					return nil, errReported
				}
				return nil, fmt.Errorf("workflow file %s could not be loaded", path)
			}
			stepsOnOneCore()
			return file, nil
		},
	})
}
