// Command lobster-lsp is the Lobster language server. It speaks LSP over
// standard input and output; its log goes to standard error.
//
// Usage:
//
//	lobster-lsp [--stdio] [--debounce DURATION] [--shellcheck off|auto|PATH] [--log FILE]
//	lobster-lsp --version | version
//
// --shellcheck is auto by default, as for lobster check: shellcheck from
// PATH when there is one. It exits 0 when the client sent shutdown before exit, 1 otherwise (as
// LSP asks), and 2 on a usage error. --version (or version) prints the
// version, the same line as "lobster version", and starts no server.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/lobsterdev/lobster/internal/flaghelp"
	"github.com/lobsterdev/lobster/internal/version"
	"github.com/lobsterdev/lobster/lsp"
)

// usage heads the help page; the flags follow it.
const usage = `usage: lobster-lsp [flags]
       lobster-lsp version

Lobster-lsp is the language server of Lobster workflow files. An editor
starts it and speaks the Language Server Protocol with it over standard
input and output; the log goes to standard error (or --log). It checks each
open file as lobster check does, with the same project configuration, and
offers completion, hover, definitions, references, renames, fixes and the
plan of a workflow.

It exits 0 when the client sent shutdown before exit, 1 otherwise, and 2 on
a usage error.

Flags:

`

// usageError reports a mistake on the command line and returns its exit
// status.
func usageError(stderr io.Writer, problem string) int {
	fmt.Fprintf(stderr, "lobster-lsp: %s\nRun \"lobster-lsp -h\" for usage.\n", problem)
	return 2
}

// defaultShellcheck is --shellcheck's default: lobster check's, and the
// VS Code extension's (its package.json; a test holds them together).
const defaultShellcheck = "auto"

func main() {
	tuneGC(os.Getenv)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// stdio joins standard input and output into one connection. Close does
// nothing: closing standard input would not unblock a read in progress.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lobster-lsp", flag.ContinueOnError)
	fs.SetOutput(io.Discard) // problems are reported by usageError, help by -h
	fs.Bool("stdio", true, "serve over standard input and output (the only transport)")
	debounce := fs.Duration("debounce", lsp.DefaultDebounce, "wait this long after a change before checking")
	shellcheck := fs.String("shellcheck", defaultShellcheck, "run shellcheck on shell text: auto, off or the `program`")
	logFile := fs.String("log", "", "append the log to this `file` instead of standard error")
	showVersion := fs.Bool("version", false, "print the version and exit")
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage+flaghelp.List(fs))
			return 0
		}
		problem, _ := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
		if problem != err.Error() {
			problem = "there is no flag --" + strings.TrimLeft(problem, "-")
		}
		return usageError(stderr, problem)
	}
	switch {
	case *showVersion || fs.NArg() == 1 && fs.Arg(0) == "version":
		fmt.Fprintln(stdout, version.String())
		return 0
	case fs.NArg() > 0:
		return usageError(stderr, fmt.Sprintf("unexpected argument %q", fs.Arg(0)))
	}
	opts := lsp.Options{Debounce: *debounce, Log: stderr, Version: version.String()}
	switch *shellcheck {
	case "off":
	case "auto":
		opts.Shellcheck, _ = exec.LookPath("shellcheck")
	default:
		opts.Shellcheck = *shellcheck
	}
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
		if err != nil {
			fmt.Fprintf(stderr, "lobster-lsp: %v\n", err)
			return 2
		}
		defer f.Close()
		opts.Log = f
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if lsp.Serve(ctx, stdio{stdin, stdout}, opts) {
		return 0
	}
	return 1
}

// tuneGC trades memory for latency: each version of a document is parsed
// in full, and a large file's parse allocates several MiB, so the default
// GC target (100%) collects several times per keystroke. The heap may grow
// to 5× the live data instead, with a soft limit of 128 MiB that makes the
// collector work harder before the server's memory budget (150 MiB on
// a 5000-step file) is reached. GOGC and GOMEMLIMIT, when set, win.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(128 << 20)
	}
}
