//lint:file-ignore SA1019 Roots stay: clients of the older protocol generations confine the server with them.

// Package mcp serves the Lobster toolchain to AI agents over the Model
// Context Protocol (`lobster mcp`): the checker, the fixer, the planner,
// the graph renderer and the runtime as tools, the references and the
// workspace's workflow files as resources, and a prompt for writing a
// workflow. It shares every one of them with the CLI and the language
// server; this package only translates.
//
// Gates stay human. A run that reaches an approval gate asks the person
// through the client (elicitation) when the client can, and otherwise
// returns needs_approval: the agent cannot approve its own gates unless the
// server was started with AllowAgentApproval. Input gates may be answered
// by the agent. Runs are off unless AllowRun is set, and every path a tool
// is given must lie in the client's roots (or the server's directory).
package mcp

import (
	"context"
	"crypto/rand"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/engines"
	"github.com/lobsterdev/lobster/runtime/state"
)

// LocalEngine is the name of the engine that runs workflows in this
// process, the default.
const LocalEngine = engines.Local

// Options configure a server.
type Options struct {
	// Version is the server's version, for its serverInfo.
	Version string
	// AllowRun makes the run and resume tools available.
	AllowRun bool
	// AllowAgentApproval lets the agent approve approval gates through
	// resume; without it only a person, asked through the client, can.
	AllowAgentApproval bool
	// Shellcheck is the shellcheck program check and fix run on shell
	// text ("" for none), as lobster check --shellcheck.
	Shellcheck string
	// Dir is the directory paths are confined to when the client declares
	// no roots, and relative paths are resolved against; "" is the
	// working directory.
	Dir string
	// Env is the environment runs start from; nil is the process's.
	Env []string
	// StateDir is where paused runs keep their state; "" is lobster's
	// default (LOBSTER_STATE_DIR or ~/.lobster/state).
	StateDir string
	// Engines are the engines run and resume may use, by name; nil is
	// the local engine alone. A call picks one with its engine argument,
	// else Engine.
	Engines map[string]engines.Engine
	// Engine is the name of the engine of calls that name none; "" is
	// LocalEngine. As with lobster resume, a resume goes to the engine it
	// names (or this one), whatever engine the run paused on.
	Engine string
	// Logger logs the server's activity; nil logs nothing.
	Logger *slog.Logger
}

// A Server is the MCP server of the toolchain.
type Server struct {
	opts       Options
	sdk        *sdk.Server
	key        []byte                 // signs the state of multi-round-trip calls
	shellcheck *check.ShellcheckCache // shellcheck's findings, kept from call to call

	mu    sync.Mutex
	roots map[*sdk.ServerSession][]string // legacy sessions' roots, until they change

	afterCall func(tool string) // for tests: a tool call returned
}

// New returns a server with every tool, resource and prompt.
func New(opts Options) *Server {
	if opts.Dir == "" {
		opts.Dir, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(opts.Dir); err == nil {
		opts.Dir = abs
	}
	if opts.Env == nil {
		opts.Env = os.Environ()
	}
	if opts.Engines == nil {
		opts.Engines = map[string]engines.Engine{LocalEngine: engines.OnLocal()}
	}
	if opts.Version == "" {
		opts.Version = "devel"
	}
	s := &Server{opts: opts, key: make([]byte, 32), shellcheck: check.NewShellcheckCache(10000), roots: map[*sdk.ServerSession][]string{}}
	rand.Read(s.key)
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "lobster", Title: "Lobster workflow toolchain", Version: opts.Version}, &sdk.ServerOptions{
		Instructions:            s.instructions(),
		Logger:                  logger,
		RootsListChangedHandler: s.rootsChanged,
	})
	s.addTools()
	s.addResources()
	s.addPrompts()
	return s
}

// SDK is the server as the SDK's, to connect to a transport.
func (s *Server) SDK() *sdk.Server { return s.sdk }

// ServeStdio serves one client on in and out (newline-delimited JSON-RPC)
// until it disconnects or ctx ends.
func (s *Server) ServeStdio(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
	w := &lockedWriter{w: out}
	return s.sdk.Run(ctx, &sdk.IOTransport{Reader: newLineFilter(in, w), Writer: w, MaxLineLength: -1})
}

// maxRequestBody bounds an HTTP request: a text at the checker's limit,
// escaped, with room for the rest of the request.
const maxRequestBody = 2*bounded.DefaultLimit + 1<<20

// HTTPHandler serves clients over the streamable HTTP transport.
func (s *Server) HTTPHandler() http.Handler {
	return sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s.sdk },
		&sdk.StreamableHTTPOptions{MaxRequestBodyBytes: maxRequestBody})
}

// instructions tell the client what the server offers and how gates work.
func (s *Server) instructions() string {
	text := "Lobster checks, fixes, plans and graphs Lobster workflow files (.lobster, YAML or JSON). " +
		"Check a workflow after every change and before you finish: the check tool reports the same " +
		"findings, with exact ranges and fixes, as `lobster check`. Paths must lie in the client's roots."
	if s.opts.AllowRun {
		text += " The run and resume tools run workflows. Approval gates are for a person: " +
			"the server asks them through the client when it can; you may answer input gates."
		if s.opts.AllowAgentApproval {
			text += " This server also accepts approvals from the agent (--allow-agent-approval)."
		}
		if s.opts.Engine != "" && s.opts.Engine != LocalEngine {
			text += " Runs go to the " + s.opts.Engine + " engine unless a call names another (engine: local); " +
				"resume a run with the engine it paused on."
		}
	} else {
		text += " Running workflows is off: start the server with --allow-run to enable run and resume."
	}
	return text
}

// stateDir is where paused runs keep their state.
func (s *Server) stateDir() (string, error) {
	if s.opts.StateDir != "" {
		return s.opts.StateDir, nil
	}
	return state.DefaultDir(func(name string) string { return engine.Getenv(s.opts.Env, name) })
}
