package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/lobsterdev/lobster/mcp"
	"github.com/lobsterdev/lobster/runtime/engines"
)

// mcpDoc is the text of lobster help mcp.
const mcpDoc = `Lobster mcp serves the toolchain to AI agents over the Model Context
Protocol, on standard input and output (newline-delimited JSON-RPC), or
with --http on the streamable HTTP transport at ADDR (for example
127.0.0.1:8765).

Tools: check, fix, explain, plan, graph, schema (always); run and resume
(with --allow-run). Resources: the diagnostics reference, the workflow
JSON Schema, the language reference when this build has it, and the
workspace's workflow files. Prompt: write-workflow.

Paths must lie in the roots the client declares (or the working
directory). Approval gates are for people: a run that reaches one asks the
person through the client (elicitation) when it can, and otherwise returns
needs_approval for "lobster resume" in a terminal; the agent's own
approval is refused unless --allow-agent-approval. Input gates may be
answered by the agent.

With --engine temporal (and --temporal-address, --temporal-namespace,
--task-queue, TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE, as lobster run
takes them) run and resume go to Temporal by default: runs are workflows
there, their steps run on lobster worker processes, and their gates wait
there, for the resume tool or for lobster resume --engine temporal in any
terminal. The tools' engine argument picks local or temporal for one call;
as with lobster resume, a resume goes to the engine it names (else the
server's), so resume a run with the engine it paused on. The gates' rules
are the same on both engines.`

// mcpFlags are the options of lobster mcp.
type mcpFlags struct {
	addr                 string
	allowRun, allowAgent bool
	shellcheck           string
	engine               engines.Config
}

// mcpFlagSet is the flags of lobster mcp, set in f.
func mcpFlagSet(f *mcpFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.StringVar(&f.addr, "http", "", "serve the streamable HTTP transport at `ADDR` instead of standard I/O")
	fs.BoolVar(&f.allowRun, "allow-run", false, "offer the run and resume tools")
	fs.BoolVar(&f.allowAgent, "allow-agent-approval", false, "accept approve: true from the agent (resume)")
	fs.StringVar(&f.shellcheck, "shellcheck", "auto", "`auto|off|PATH` run shellcheck in check and fix, as lobster check does")
	engineFlags(fs, &f.engine, true)
	return fs
}

func runMCP(args []string, stdin io.ReadCloser, stdout io.WriteCloser, stderr io.Writer) int {
	cmd := cmdNamed("mcp")
	f := mcpFlags{engine: engines.FromEnv(os.Getenv)}
	pos, code, done := parseFlags(cmd, mcpFlagSet(&f), args, false, stdout, stderr)
	if done {
		return code
	}
	if len(pos) > 0 {
		return usageError(stderr, cmd, "mcp takes no arguments")
	}
	bin, err := shellcheckProgram(f.shellcheck)
	if err != nil {
		textf(stderr, "lobster: mcp: %v\n", err)
		return exitUsage
	}
	if !isLocal(f.engine) && !f.allowRun {
		return usageError(stderr, cmd, "--engine %s runs workflows: give --allow-run too", f.engine.Engine)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	opts := mcp.Options{Version: version(), AllowRun: f.allowRun, AllowAgentApproval: f.allowAgent, Shellcheck: bin}
	if !isLocal(f.engine) {
		// The local engine stays, for calls that name it.
		e, err := openEngine(ctx, f.engine)
		if err != nil {
			textf(stderr, "lobster: mcp: %v\n", err)
			return exitFindings
		}
		defer e.Close()
		opts.Engines = map[string]engines.Engine{engines.Local: engines.OnLocal(), f.engine.Engine: e}
		opts.Engine = f.engine.Engine
	}
	srv := mcp.New(opts)
	if f.addr == "" {
		if err := srv.ServeStdio(ctx, stdin, stdout); err != nil && ctx.Err() == nil && !errors.Is(err, io.EOF) {
			textf(stderr, "lobster: mcp: %v\n", err)
			return exitFindings
		}
		return exitOK
	}
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		textf(stderr, "lobster: mcp: %v\n", err)
		return exitUsage
	}
	hs := &http.Server{Handler: srv.HTTPHandler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(shutdown)
	}()
	textf(stderr, "lobster: serving MCP at http://%s/\n", ln.Addr())
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		textf(stderr, "lobster: mcp: %v\n", err)
		return exitFindings
	}
	return exitOK
}
