package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/lobsterdev/lobster/runtime/engines"
	"github.com/lobsterdev/lobster/runtime/proc"
	"github.com/lobsterdev/lobster/runtime/state"
	"github.com/lobsterdev/lobster/runtime/temporal"
)

// The text of lobster help worker.
var workerUsage = []string{"lobster worker [--temporal-address HOST:PORT] [--temporal-namespace NS] [--task-queue QUEUE] [--max-concurrent-steps N] [--max-payload BYTES]"}

const workerDoc = `Worker is a Temporal worker for runs started with lobster run --engine
temporal: it executes the runs' workflows (their control logic) and their
steps' commands, in this worker's environment and on this machine, until
it is interrupted (SIGINT or SIGTERM). A worker for a task queue that the
project's .lobsterrc.yaml routes steps to takes only those.

A step runs in this worker's environment with the run's LOBSTER_ settings,
args and env over it; without a cwd it runs in the directory lobster run
was started from, so workers need the same paths (and the sub-workflow
files) as the machine that starts runs. A worker that is lost (killed, its
machine gone) loses its steps' attempts: their processes die with it, and
each step's retry decides whether another worker makes the next attempt.`

const workerMore = `Exit codes: 0 interrupted; 1 the service could not be reached; 2 a usage
error.`

// workerOptions are the parsed flags of lobster worker.
type workerOptions struct {
	engine   engines.Config
	maxSteps int
	payload  int
}

// workerFlagSet is the flags of lobster worker, set in o.
func workerFlagSet(o *workerOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	set := func(name string) func(string) error {
		return func(v string) error { _, err := o.engine.Flag("--"+name, v); return err }
	}
	positive := func(p *int) func(string) error {
		return func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n <= 0 {
				return errors.New("must be a positive integer")
			}
			*p = n
			return nil
		}
	}
	fs.Func("temporal-address", "`HOST:PORT` the Temporal service (default TEMPORAL_ADDRESS, else localhost:7233)", set("temporal-address"))
	fs.Func("temporal-namespace", "`NS` its namespace (default TEMPORAL_NAMESPACE, else default)", set("temporal-namespace"))
	fs.Func("task-queue", "`QUEUE` the task queue to serve (default lobster)", set("task-queue"))
	fs.Func("max-concurrent-steps", "at most `N` step commands at once (default: the SDK's, 1000)", positive(&o.maxSteps))
	fs.Func("max-payload", "the largest step result sent back, encoded, in `BYTES` (default 2000000, under Temporal's 2 MiB)", positive(&o.payload))
	return fs
}

func runWorker(args []string, stdout, stderr io.Writer) int {
	cmd := cmdNamed("worker")
	o := workerOptions{engine: engines.FromEnv(os.Getenv)}
	pos, code, done := parseFlags(cmd, workerFlagSet(&o), args, false, stdout, stderr)
	if done {
		return code
	}
	if len(pos) > 0 {
		return usageError(stderr, cmd, "worker: unexpected argument %q", pos[0])
	}
	stateDir, err := state.DefaultDir(os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "lobster: %v\n", err)
		return exitFindings
	}
	opts := temporal.WorkerOptions{Config: o.engine.Temporal, MaxConcurrentCommands: o.maxSteps}
	opts.Activities.StateDir = stateDir
	opts.Activities.Log = stderr
	opts.Activities.MaxPayload = o.payload
	queue := o.engine.Temporal.TaskQueue
	if queue == "" {
		queue = temporal.DefaultTaskQueue
	}
	opts.OnReady = func() {
		fmt.Fprintf(stderr, "lobster worker: serving task queue %s\n", queue)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	// A worker that is lost loses its steps' attempts with it.
	proc.StopWithThisProcess()
	if err := temporal.RunWorker(ctx, opts); err != nil {
		fmt.Fprintf(stderr, "lobster: worker: %s\n", err)
		return exitFindings
	}
	return exitOK
}
