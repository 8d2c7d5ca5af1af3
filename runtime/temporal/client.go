package temporal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	sdklog "go.temporal.io/sdk/log"
	sdk "go.temporal.io/sdk/temporal"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/state"
)

// Config says which Temporal service and namespace runs go to.
type Config struct {
	Address   string // host:port; "" is DefaultAddress
	Namespace string // "" is DefaultNamespace
	TaskQueue string // "" is the project's, else DefaultTaskQueue
}

// Defaults of Config, as Temporal's own tools have them.
const (
	DefaultAddress   = "localhost:7233"
	DefaultNamespace = "default"
)

// ConfigFromEnv reads TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE, the
// variables Temporal's own tools read.
func ConfigFromEnv(getenv func(string) string) Config {
	return Config{Address: getenv("TEMPORAL_ADDRESS"), Namespace: getenv("TEMPORAL_NAMESPACE")}
}

func (c Config) address() string {
	if c.Address == "" {
		return DefaultAddress
	}
	return c.Address
}

func (c Config) namespace() string {
	if c.Namespace == "" {
		return DefaultNamespace
	}
	return c.Namespace
}

// A Backend is the Temporal service as a client uses it. Dial's talks to
// a real one; tests use an in-process test environment.
type Backend interface {
	// Start starts a run's workflow and waits for its first outcome.
	Start(ctx context.Context, workflowID, taskQueue string, in *RunInput) (*Outcome, error)
	// Resume sends req to the run's workflow and waits for the outcome
	// that follows its answer.
	Resume(ctx context.Context, workflowID string, req *ResumeRequest) (*Outcome, error)
	// RunOf is the workflow id of the run paused with approval id, or a
	// *state.ApprovalNotFoundError.
	RunOf(ctx context.Context, approvalID string) (string, error)
	// Paused is the outcome of the pause the run's workflow waits at,
	// nil when it waits at none.
	Paused(ctx context.Context, workflowID string) (*Outcome, error)
	// List lists the runs that have not ended, newest first.
	List(ctx context.Context) ([]Listed, error)
	Close()
}

// Listed is a run that has not ended.
type Listed struct {
	WorkflowID string
	Started    time.Time
	Status     Status
}

// An Engine runs workflow files on Temporal and resumes their runs.
type Engine struct {
	b   Backend
	cfg Config
}

// NewEngine is an engine over b.
func NewEngine(b Backend, cfg Config) *Engine { return &Engine{b: b, cfg: cfg} }

// Dial connects to the service cfg names.
func Dial(ctx context.Context, cfg Config) (*Engine, error) {
	c, err := dial(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return NewEngine(&sdkBackend{c: c, namespace: cfg.namespace()}, cfg), nil
}

func dial(ctx context.Context, cfg Config) (client.Client, error) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	c, err := client.DialContext(ctx, client.Options{
		HostPort:      cfg.address(),
		Namespace:     cfg.namespace(),
		DataConverter: DataConverter(),
		Logger:        sdklog.NewStructuredLogger(discardLogger()),
	})
	if err != nil {
		return nil, fmt.Errorf("cannot reach Temporal at %s (namespace %s): %s", cfg.address(), cfg.namespace(), err)
	}
	return c, nil
}

// Close closes the connection.
func (e *Engine) Close() { e.b.Close() }

// A RunRequest is a run to start.
type RunRequest struct {
	File *ast.File // checked
	Path string    // its absolute path
	Args any       // the provided args, or nil
	// Env is the environment of the command that starts the run: its
	// LOBSTER_ settings go with the run (the rest of the environment
	// stays here; steps see their worker's).
	Env []string
	Dir string // the directory the run starts from
	// HeartbeatMs overrides how long a command's worker may be silent
	// (else the project configuration's heartbeat_ms, else 10 s).
	HeartbeatMs int64
	Stderr      io.Writer // the run's log lines
}

// Run starts a run and follows it to its first pause or its end.
func (e *Engine) Run(ctx context.Context, req RunRequest) (envelope.Result, error) {
	ps := project(req.Path)
	queue := e.cfg.TaskQueue
	if queue == "" {
		queue = ps.queue
	}
	if queue == "" {
		queue = DefaultTaskQueue
	}
	runID := state.NewUUID()
	in := &RunInput{RunID: runID, Path: req.Path, Source: source.DecodeUTF8String(string(req.File.Src.Content)), Env: Settings(req.Env),
		BaseDir: req.Dir, Active: []string{realPath(req.Path)}, Routes: ps.routes, TaskQueue: queue,
		HeartbeatMs: req.HeartbeatMs}
	if in.HeartbeatMs <= 0 {
		in.HeartbeatMs = ps.heartbeatMs
	}
	if req.Args != nil {
		in.Args = &JSON{req.Args}
	}
	if p, err := DataConverter().ToPayload(in); err == nil && len(p.GetData()) > DefaultMaxPayload {
		return envelope.Result{}, fmt.Errorf("the workflow file and its args are %d bytes encoded, over the %d bytes of a Temporal payload", len(p.GetData()), DefaultMaxPayload)
	}
	out, err := e.b.Start(ctx, WorkflowIDPrefix+runID, queue, in)
	return result(out, err, req.Stderr)
}

// A Resume is a resume to send: the gate (a token or an approval id) and
// the decision.
type Resume struct {
	Token, ID string
	Approve   *bool
	Response  any // jsvalue.Undefined for none
	Cancel    bool
	Env       []string // the resuming command's environment
	Stderr    io.Writer
}

// Resume answers the gate a run waits at and follows the run to its next
// pause or its end.
func (e *Engine) Resume(ctx context.Context, rs Resume) (envelope.Result, error) {
	req := &ResumeRequest{Approve: rs.Approve, Response: optional(rs.Response), Cancel: rs.Cancel,
		Approver: engine.ApproverIn(rs.Env), Env: Settings(rs.Env)}
	workflowID, gate, err := e.target(ctx, rs.Token, rs.ID)
	if err != nil {
		return envelope.Result{}, err
	}
	if rs.ID != "" {
		req.ApprovalID = rs.ID
	} else {
		req.Gate = gate
	}
	out, err := e.b.Resume(ctx, workflowID, req)
	var app *sdk.ApplicationError
	if rs.ID != "" && (errors.As(err, &app) && app.Type() == approvalNotFoundKind || engine.ErrorKind(clientError(err)) == engine.StateNotFoundKind) {
		// The id named a gate that is gone (answered, or its run ended
		// while the id's workflow was being closed).
		return envelope.Result{}, &state.ApprovalNotFoundError{ID: rs.ID}
	}
	if rs.Cancel && engine.ErrorKind(clientError(err)) == engine.StateNotFoundKind {
		// As a local cancel of a state that is gone says it.
		return envelope.Result{}, &state.GoneError{Msg: "Resume state not found"}
	}
	return result(out, err, rs.Stderr)
}

// target is the workflow id of the run a resume token or (else) an
// approval id names, and the token's gate.
func (e *Engine) target(ctx context.Context, token, id string) (workflowID string, gate int, err error) {
	if id != "" {
		workflowID, err := e.b.RunOf(ctx, id)
		return workflowID, 0, err
	}
	tok, err := state.DecodeToken(token)
	if err != nil {
		return "", 0, err
	}
	runID, gate, ok := ParseTokenKey(tok.StateKey)
	if !ok {
		return "", 0, &engine.ArgumentError{Msg: "this resume token is not from a run on Temporal; resume it without --engine temporal"}
	}
	return WorkflowIDPrefix + runID, gate, nil
}

// Paused is the envelope result of the pause a resume token or (else) an
// approval id names, as the run's envelope showed it when it paused: for
// a client that asks a person about a pause it did not see begin. A pause
// that is gone is a *state.GoneError (a token's) or a
// *state.ApprovalNotFoundError (an id's).
func (e *Engine) Paused(ctx context.Context, token, id string) (envelope.Result, error) {
	workflowID, gate, err := e.target(ctx, token, id)
	if err != nil {
		return envelope.Result{}, err
	}
	out, err := e.b.Paused(ctx, workflowID)
	if err != nil && engine.ErrorKind(err) != engine.StateNotFoundKind {
		return envelope.Result{}, err
	}
	if out != nil && id != "" {
		var aid any
		if req := out.Result().RequiresApproval; req != nil {
			aid, _ = req.Get("approvalId")
		}
		if aid != id {
			out = nil
		}
	}
	if out != nil && id == "" && out.Gate != gate {
		out = nil
	}
	switch {
	case out == nil && id != "":
		return envelope.Result{}, &state.ApprovalNotFoundError{ID: id}
	case out == nil:
		return envelope.Result{}, &state.GoneError{Msg: "Workflow resume state not found"}
	}
	return out.Result(), nil
}

// List lists the runs on Temporal that have not ended.
func (e *Engine) List(ctx context.Context) ([]Listed, error) { return e.b.List(ctx) }

// result is the envelope result of an outcome, its log written to stderr.
func result(out *Outcome, err error, stderr io.Writer) (envelope.Result, error) {
	if err != nil {
		return envelope.Result{}, clientError(err)
	}
	if stderr != nil {
		io.WriteString(stderr, out.Log)
	}
	if out.Error != "" {
		return envelope.Result{}, engine.KindError(out.ErrorKind, out.Error)
	}
	return out.Result(), nil
}

// clientError is the error of a call to the service, as lobster reports
// it: the run's own error with its kind, a resume the run refused.
func clientError(err error) error {
	var app *sdk.ApplicationError
	if errors.As(err, &app) {
		if app.Type() == engine.StateNotFoundKind || app.Type() == engine.ArgumentKind {
			return engine.KindError(app.Type(), app.Message())
		}
		var out Outcome
		if app.HasDetails() && app.Details(&out) == nil {
			return engine.KindError(out.ErrorKind, out.Error)
		}
		return engine.KindError(app.Type(), app.Message())
	}
	return err
}

// Settings are the variables of env that go with a run: its LOBSTER_
// settings, but not LOBSTER_STATE_DIR (each worker has its own).
func Settings(env []string) []string {
	var out []string
	for _, kv := range env {
		if strings.HasPrefix(kv, "LOBSTER_") && !strings.HasPrefix(kv, "LOBSTER_STATE_DIR=") {
			out = append(out, kv)
		}
	}
	return out
}

// ParseTokenKey reads the run and gate of a TokenKey.
func ParseTokenKey(key string) (runID string, gate int, ok bool) {
	rest, ok := strings.CutPrefix(key, state.WorkflowPrefix)
	if !ok {
		return "", 0, false
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 {
		return "", 0, false
	}
	gate, err := strconv.Atoi(rest[i+1:])
	if err != nil || gate < 1 {
		return "", 0, false
	}
	return rest[:i], gate, true
}

// sdkBackend is a Backend over a Temporal client.
type sdkBackend struct {
	c         client.Client
	namespace string
}

func (b *sdkBackend) Close() { b.c.Close() }

func (b *sdkBackend) Start(ctx context.Context, workflowID, taskQueue string, in *RunInput) (*Outcome, error) {
	start := b.c.NewWithStartWorkflowOperation(client.StartWorkflowOptions{
		ID:                       workflowID,
		TaskQueue:                taskQueue,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_FAIL,
		WorkflowIDReusePolicy:    enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	}, WorkflowName, in)
	watch := client.UpdateWorkflowOptions{UpdateName: watchUpdate, Args: []any{0}, WaitForStage: client.WorkflowUpdateStageCompleted}
	h, err := b.c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{
		StartWorkflowOperation: start,
		UpdateOptions:          watch,
	})
	var out Outcome
	if err == nil {
		err = h.Get(ctx, &out)
	}
	var notReady *serviceerror.WorkflowNotReady
	if errors.As(err, &notReady) {
		// The run started; the watch was not taken in (see update).
		watch.WorkflowID = workflowID
		return update(ctx, b.c, watch)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

func (b *sdkBackend) Resume(ctx context.Context, workflowID string, req *ResumeRequest) (*Outcome, error) {
	out, err := update(ctx, b.c, client.UpdateWorkflowOptions{
		WorkflowID: workflowID, UpdateName: resumeUpdate, Args: []any{req},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err == nil {
		return out, nil
	}
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) || strings.Contains(err.Error(), "workflow execution already completed") {
		return nil, engine.KindError(engine.StateNotFoundKind, "Workflow resume state not found")
	}
	return nil, err
}

// updateSends bounds the sends of an update, updateBackoff the first
// wait between two (see update).
const updateSends = 6

var updateBackoff = 100 * time.Millisecond

// update sends an update and waits for its outcome. The service refuses
// an update with WorkflowNotReady when the workflow task that carried it
// failed before the workflow accepted it (UnhandledCommand: an event, such
// as a gate's approval workflow ending, came in while the task completed
// the run): nothing of it is in the run's history, so it is sent again,
// after 0.1 s, 0.2 s, … (the validator decides again).
func update(ctx context.Context, c client.Client, opts client.UpdateWorkflowOptions) (*Outcome, error) {
	for send := 1; ; send++ {
		h, err := c.UpdateWorkflow(ctx, opts)
		if err == nil {
			var out Outcome
			if err = h.Get(ctx, &out); err == nil {
				return &out, nil
			}
		}
		var notReady *serviceerror.WorkflowNotReady
		if !errors.As(err, &notReady) || send == updateSends {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(updateBackoff << (send - 1)):
		}
	}
}

func (b *sdkBackend) Paused(ctx context.Context, workflowID string) (*Outcome, error) {
	v, err := b.c.QueryWorkflow(ctx, workflowID, "", pauseQuery)
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out *Outcome
	if err := v.Get(&out); err != nil {
		return nil, err
	}
	return out, nil
}

func (b *sdkBackend) RunOf(ctx context.Context, approvalID string) (string, error) {
	d, err := b.c.DescribeWorkflow(ctx, approvalIDPrefix+approvalID, "")
	var notFound *serviceerror.NotFound
	if errors.As(err, &notFound) {
		return "", &state.ApprovalNotFoundError{ID: approvalID}
	}
	if err != nil {
		return "", err
	}
	info := d.RawResponse.GetWorkflowExecutionInfo()
	if info.GetStatus() != enumspb.WORKFLOW_EXECUTION_STATUS_RUNNING || info.GetParentExecution() == nil {
		return "", &state.ApprovalNotFoundError{ID: approvalID}
	}
	return info.GetParentExecution().GetWorkflowId(), nil
}

func (b *sdkBackend) List(ctx context.Context) ([]Listed, error) {
	var out []Listed
	var token []byte
	for {
		resp, err := b.c.ListWorkflow(ctx, &workflowservice.ListWorkflowExecutionsRequest{
			Namespace:     b.namespace,
			Query:         fmt.Sprintf("WorkflowType = '%s' AND ExecutionStatus = 'Running'", WorkflowName),
			NextPageToken: token,
		})
		if err != nil {
			return nil, err
		}
		for _, ex := range resp.GetExecutions() {
			if ex.GetParentExecution() != nil {
				continue // a sub-workflow's run
			}
			l := Listed{WorkflowID: ex.GetExecution().GetWorkflowId(), Started: ex.GetStartTime().AsTime()}
			if p, ok := ex.GetMemo().GetFields()["lobster"]; ok {
				DataConverter().FromPayload(p, &l.Status)
			}
			out = append(out, l)
		}
		if token = resp.GetNextPageToken(); len(token) == 0 {
			return out, nil
		}
	}
}

// realPath is path with symbolic links resolved, or path.
func realPath(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	return path
}

// discardLogger drops the SDK's log lines: lobster reports what matters.
func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
