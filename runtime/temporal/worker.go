package temporal

import (
	"context"
	"fmt"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"
)

// Register registers the workflows of runs and the activities a on r (a
// worker, a replayer, a test environment).
func Register(r interface {
	worker.WorkflowRegistry
	worker.ActivityRegistry
}, a *Activities) {
	RegisterWorkflows(r)
	r.RegisterActivityWithOptions(a.Command, activity.RegisterOptions{Name: commandActivity})
	r.RegisterActivityWithOptions(a.Load, activity.RegisterOptions{Name: loadActivity})
}

// RegisterWorkflows registers the workflows of runs on r.
func RegisterWorkflows(r worker.WorkflowRegistry) {
	r.RegisterWorkflowWithOptions(Workflow, workflow.RegisterOptions{Name: WorkflowName})
	r.RegisterWorkflowWithOptions(ApprovalWorkflow, workflow.RegisterOptions{Name: approvalWorkflowName})
}

// DeadlockDetectionTimeout is how long a workflow task of a run may go on
// without yielding before the SDK takes it for a deadlock: 10 s, not the
// SDK's 1 s, which a busy machine exceeds (the first task of a run parses
// and decodes its file; the race detector slows it more).
const DeadlockDetectionTimeout = 10 * time.Second

// WorkerOptions configure a worker.
type WorkerOptions struct {
	Config
	Activities
	// MaxConcurrentCommands bounds the commands the worker runs at once;
	// 0 is the SDK's default.
	MaxConcurrentCommands int
	// OnReady, when set, is called once the worker polls.
	OnReady func()
}

// RunWorker runs a worker for cfg.TaskQueue until ctx ends: it takes the
// runs started there and the commands routed there.
func RunWorker(ctx context.Context, opts WorkerOptions) error {
	c, err := dial(ctx, opts.Config)
	if err != nil {
		return err
	}
	defer c.Close()
	queue := opts.TaskQueue
	if queue == "" {
		queue = DefaultTaskQueue
	}
	w := worker.New(c, queue, worker.Options{
		MaxConcurrentActivityExecutionSize: opts.MaxConcurrentCommands,
		// A command's processes are stopped when the worker stops.
		WorkerStopTimeout: 0,
		// Heartbeats go out within a second: the one that says a command
		// sent a request that must not be sent twice must reach the
		// service before the worker can be lost.
		MaxHeartbeatThrottleInterval: time.Second,
		DeadlockDetectionTimeout:     DeadlockDetectionTimeout,
	})
	Register(w, &opts.Activities)
	if err := w.Start(); err != nil {
		return fmt.Errorf("worker: %s", err)
	}
	if opts.OnReady != nil {
		opts.OnReady()
	}
	<-ctx.Done()
	w.Stop()
	return nil
}
