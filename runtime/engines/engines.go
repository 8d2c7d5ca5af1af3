// Package engines chooses what runs workflow files: the local engine (in
// this process, state in the local state directory) or Temporal (a
// workflow per run, steps on workers). lobster run and resume, and the
// MCP server's tools, open an Engine by name and call it the same way.
package engines

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/state"
	"github.com/lobsterdev/lobster/runtime/temporal"
)

// Engine names.
const (
	Local    = "local"
	Temporal = "temporal"
)

// Names are the engines there are, the default first.
var Names = []string{Local, Temporal}

// Config chooses an engine and says where it is.
type Config struct {
	Engine   string          // Local ("" too) or Temporal
	Temporal temporal.Config // where Temporal is, for Temporal
}

// FromEnv is the configuration an environment gives: Temporal's
// address and namespace from TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE, as
// Temporal's own tools read them. The engine stays local unless chosen.
func FromEnv(getenv func(string) string) Config {
	return Config{Temporal: temporal.ConfigFromEnv(getenv)}
}

// Flag applies a command-line flag of the engine, --engine,
// --temporal-address, --temporal-namespace or --task-queue, to c; ok is
// false for another flag.
func (c *Config) Flag(name, value string) (ok bool, err error) {
	switch name {
	case "--engine":
		if !isName(value) {
			return true, fmt.Errorf("--engine must be one of: %s", strings.Join(Names, ", "))
		}
		c.Engine = value
	case "--temporal-address":
		c.Temporal.Address = value
	case "--temporal-namespace":
		c.Temporal.Namespace = value
	case "--task-queue":
		c.Temporal.TaskQueue = value
	default:
		return false, nil
	}
	return true, nil
}

// IsFlag says whether name is a flag of the engine (all take a value).
func IsFlag(name string) bool {
	var c Config
	ok, _ := c.Flag(name, Local)
	return ok
}

func isName(s string) bool {
	for _, n := range Names {
		if s == n {
			return true
		}
	}
	return false
}

// An Engine runs workflow files and continues their paused runs.
type Engine interface {
	// Run runs a checked workflow file to its end or first pause.
	Run(ctx context.Context, req RunRequest) (envelope.Result, error)
	// Resume answers (or cancels) a paused run's gate and runs it on to
	// its end or next pause. Errors of the request itself (an unknown
	// token or id, a wrong approver, a response that fails its schema)
	// are *engine.ArgumentError.
	Resume(ctx context.Context, req ResumeRequest) (envelope.Result, error)
	// Paused describes the gate of the paused run a request names, for
	// a front end that asks a person about a pause it did not see begin.
	// Its errors are Resume's.
	Paused(ctx context.Context, req PauseRequest) (Pause, error)
	// Janitor lists the engine's paused runs and prunes what it keeps of
	// them (lobster state); stateDir is the local state directory.
	Janitor(stateDir string) state.Janitor
	Close()
}

// A RunRequest is a run to start.
type RunRequest struct {
	File   *ast.File // checked
	Path   string    // its absolute path
	Args   any       // the provided args, or nil
	Env    []string  // the environment of the command that runs it
	Dir    string    // the directory it runs from
	Stderr io.Writer // the run's log lines

	// For the local engine only:
	StateDir string           // where a pause writes its state
	Terminal *engine.Terminal // gates ask here instead of pausing
	Force    <-chan struct{}  // closed to kill running processes at once
	OnStep   func(engine.StepEvent)
}

// A ResumeRequest answers a paused run's gate: Approve for an approval,
// Response for an input, or Cancel.
type ResumeRequest struct {
	Token, ID    string // the pause's resume token, or its approval id
	Key          string // local: the state key they name (LocalKey), when known
	Approve      *bool
	Response     any // jsvalue.Undefined for none
	Cancel       bool
	AllowChanged bool      // local: resume though the file changed
	Env          []string  // the environment of the command that resumes
	Stderr       io.Writer // the run's log lines

	// For the local engine only:
	StateDir string
	Dir      string // the directory the run's steps run from ("" is this process's)
	Force    <-chan struct{}
	OnStep   func(engine.StepEvent)
	// Load reads and checks the paused run's workflow file again; its
	// error ends the resume as it is.
	Load func(path string) (*ast.File, error)
}

// A PauseRequest names a paused run: by its resume token, or its approval
// id.
type PauseRequest struct {
	Token, ID string
	Key       string // local: the state key they name (LocalKey), when known
	StateDir  string // local: the state directory
}

// A Pause is the gate a paused run waits at.
type Pause struct {
	Input  bool   // an input gate; else an approval gate
	StepID string // the gate's step, "" when not known
	// Approval is an approval gate's approval_request as the run's
	// envelope showed it (its resumeToken and approvalId aside), nil when
	// it cannot be told.
	Approval *jsvalue.Object
}

// Open opens the engine c chooses.
func Open(ctx context.Context, c Config) (Engine, error) {
	switch c.Engine {
	case "", Local:
		return localEngine{}, nil
	case Temporal:
		e, err := temporal.Dial(ctx, c.Temporal)
		if err != nil {
			return nil, err
		}
		return temporalEngine{e}, nil
	}
	return nil, fmt.Errorf("unknown engine %q", c.Engine)
}

// OnLocal is the local engine.
func OnLocal() Engine { return localEngine{} }

// OnTemporal is an engine over a temporal.Engine (a test environment's,
// for example).
func OnTemporal(e *temporal.Engine) Engine { return temporalEngine{e} }

// localEngine runs in this process.
type localEngine struct{}

func (localEngine) Close() {}

func (localEngine) Janitor(stateDir string) state.Janitor { return &state.Store{Dir: stateDir} }

func (localEngine) Run(ctx context.Context, req RunRequest) (envelope.Result, error) {
	return engine.Run(ctx, req.File, engine.Options{Args: req.Args, Env: req.Env, Dir: req.Dir, Stderr: req.Stderr,
		Force: req.Force, FilePath: req.Path, StateDir: req.StateDir, Terminal: req.Terminal, OnStep: req.OnStep})
}

func (localEngine) Resume(ctx context.Context, req ResumeRequest) (envelope.Result, error) {
	store := &state.Store{Dir: req.StateDir}
	key := req.Key
	if key == "" {
		var err error
		key, _, err = LocalKey(store, req.Token, req.ID, req.Cancel)
		if errors.Is(err, state.ErrLegacyToken) && req.Cancel {
			// Nothing is stored for a legacy token: cancelling it is
			// trivially done, as in the reference.
			return envelope.Result{Status: envelope.StatusCancelled}, nil
		}
		var gone *state.GoneError
		if err != nil && !errors.As(err, &gone) {
			return envelope.Result{}, &engine.ArgumentError{Msg: err.Error()}
		}
		if err != nil {
			return envelope.Result{}, err
		}
	}
	if req.Cancel {
		return engine.Cancel(ctx, store, key)
	}
	rs, err := engine.LoadResume(ctx, store, key)
	if err != nil {
		return envelope.Result{}, err
	}
	if err := rs.CheckDecision(req.Approve != nil, req.Response != jsvalue.Undefined); err != nil {
		return envelope.Result{}, err
	}
	if req.Approve != nil && !*req.Approve {
		return rs.Reject(ctx)
	}
	rs.Response = req.Response
	file, err := req.Load(rs.Saved.FilePath)
	if err != nil {
		return envelope.Result{}, err
	}
	return engine.Run(ctx, file, engine.Options{
		Env: req.Env, Stderr: req.Stderr, Force: req.Force, Dir: req.Dir,
		FilePath: rs.Saved.FilePath, StateDir: store.Dir,
		Resume: rs, AllowChanged: req.AllowChanged, OnStep: req.OnStep,
	})
}

func (localEngine) Paused(ctx context.Context, req PauseRequest) (Pause, error) {
	store := &state.Store{Dir: req.StateDir}
	key := req.Key
	if key == "" {
		var err error
		key, _, err = LocalKey(store, req.Token, req.ID, false)
		var gone *state.GoneError
		if err != nil && !errors.As(err, &gone) {
			return Pause{}, &engine.ArgumentError{Msg: err.Error()}
		}
		if err != nil {
			return Pause{}, err
		}
	}
	rs, err := engine.LoadResume(ctx, store, key)
	if err != nil {
		return Pause{}, err
	}
	if rs.Saved.InputStepID != "" {
		return Pause{Input: true, StepID: rs.Saved.InputStepID}, nil
	}
	p := Pause{StepID: rs.Saved.ApprovalStepID}
	if src, err := engine.ReadWorkflow(rs.Saved.FilePath); err == nil {
		f, _ := parser.Parse(rs.Saved.FilePath, src)
		p.Approval = rs.ApprovalRequest(f)
	}
	return p, nil
}

// temporalEngine runs on Temporal.
type temporalEngine struct{ e *temporal.Engine }

func (t temporalEngine) Close() { t.e.Close() }

func (t temporalEngine) Janitor(string) state.Janitor { return t.e.Janitor() }

func (t temporalEngine) Run(ctx context.Context, req RunRequest) (envelope.Result, error) {
	return t.e.Run(ctx, temporal.RunRequest{File: req.File, Path: req.Path, Args: req.Args, Env: req.Env, Dir: req.Dir, Stderr: req.Stderr})
}

func (t temporalEngine) Resume(ctx context.Context, req ResumeRequest) (envelope.Result, error) {
	res, err := t.e.Resume(ctx, temporal.Resume{Token: req.Token, ID: req.ID, Approve: req.Approve, Response: req.Response,
		Cancel: req.Cancel, Env: req.Env, Stderr: req.Stderr})
	if err != nil {
		return envelope.Result{}, argumentError(err)
	}
	return res, nil
}

func (t temporalEngine) Paused(ctx context.Context, req PauseRequest) (Pause, error) {
	res, err := t.e.Paused(ctx, req.Token, req.ID)
	if err != nil {
		return Pause{}, argumentError(err)
	}
	if res.Status == envelope.StatusNeedsInput {
		return Pause{Input: true}, nil
	}
	return Pause{Approval: res.RequiresApproval}, nil
}

// argumentError is err, as an *engine.ArgumentError when it is one of the
// request itself: a bad token, an unknown approval id.
func argumentError(err error) error {
	var notFound *state.ApprovalNotFoundError
	if state.IsTokenError(err) || errors.As(err, &notFound) {
		return &engine.ArgumentError{Msg: err.Error()}
	}
	return err
}

// LocalKey is the state key (and its kind) that an approval id or, else,
// a resume token names in the local state directory. A token whose key is
// not a state of its own kind is a *state.GoneError with the reference's
// message; a bad token or an unknown id is the store's error.
func LocalKey(store *state.Store, token, id string, cancel bool) (key, kind string, err error) {
	if id != "" {
		key, err := store.LookupApproval(id)
		if err != nil {
			return "", "", err
		}
		return key, state.ResumeKind(key), nil
	}
	tok, err := state.DecodeToken(token)
	if err != nil {
		return "", "", err
	}
	if state.ResumeKind(tok.StateKey) != tok.Kind {
		msg := "Workflow resume state not found"
		switch {
		case cancel:
			msg = "Resume state not found"
		case tok.Kind == state.KindPipeline:
			msg = "Pipeline resume state not found"
		}
		return "", "", &state.GoneError{Msg: msg}
	}
	return tok.StateKey, tok.Kind, nil
}
