package main

import (
	"errors"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/pipeline"
)

// This file runs pipelines from the command line: `lobster '<pipeline>'` and
// `lobster run [--mode tool] '<pipeline>'`. As in the reference, the words
// that are not run's own flags are joined with single spaces into the
// pipeline text.

// pipelineText is the pipeline run's arguments hold, and whether they hold
// one: not when --file names a workflow, nor when the only word looks like
// a workflow file (a workflow extension, or an existing file that is not a
// command name), which lobster run reports as a file error instead of the
// reference's "Unknown command: w.lobster".
func pipelineText(f runFlags) (string, bool) {
	if len(f.rest) == 0 {
		return "", false
	}
	if f.file != "" && (len(f.rest) != 1 || f.file != f.rest[0]) {
		return "", false // an explicit --file
	}
	if len(f.rest) == 1 && looksLikeWorkflowFile(f.rest[0]) {
		return "", false
	}
	return strings.Join(f.rest, " "), true
}

// looksLikeWorkflowFile says whether the single word arg is meant as a
// workflow file.
func looksLikeWorkflowFile(arg string) bool {
	if strings.Contains(arg, "|") {
		return false
	}
	if _, ok := commands.Lookup(strings.Fields(arg + " x")[0]); ok {
		return false
	}
	if parser.IsWorkflowName(arg) {
		return true
	}
	st, err := os.Stat(arg)
	return err == nil && st.Mode().IsRegular()
}

// isPipelineArgs says whether a command line that names no lobster command
// is a pipeline: its first stage is a registered command, or it has more
// than one stage, or it does not parse. Anything else stays an unknown
// lobster command.
func isPipelineArgs(args []string) bool {
	f, err := parseRunArgs(args)
	if err != nil {
		return false
	}
	text, ok := pipelineText(f)
	if !ok {
		return false
	}
	p := parser.ParsePipelineText(text)
	if p.Err != nil {
		return true // no lobster command has quotes or empty stages: report the parse error
	}
	_, known := commands.Lookup(p.Stages[0].Name.Text)
	return known || len(p.Stages) > 1
}

// commandHelp is the help of a pipeline command, from the registry.
func commandHelp(name string) (string, bool) {
	spec, ok := commands.Lookup(name)
	if !ok {
		return "", false
	}
	return strings.TrimRight(spec.Help, "\n") + "\n", true
}

// runPipeline runs the pipeline text in the mode of f and returns the exit
// code: 0 on success (a pause included), 1 for a runtime error, 2 for a
// parse error, 128+n after a signal.
func runPipeline(f runFlags, text string, stdin io.Reader, stdout, stderr io.Writer) int {
	out := runOutput{tool: f.tool, stdout: stdout, stderr: stderr}
	p := parser.ParsePipelineText(text)
	if p.Err != nil {
		if out.tool {
			return out.fail(envelope.ParseError, p.Err.Msg, exitUsage)
		}
		parseError(stderr, p.Err.Msg)
		return exitUsage
	}
	if f := pipeline.ReservedFlag(p.Stages); f != nil {
		const msg = `the flag "--_" is reserved for positional arguments`
		if out.tool {
			return out.fail(envelope.ParseError, msg, exitUsage)
		}
		parseError(stderr, msg)
		return exitUsage
	}
	stages := pipeline.StagesOf(p.Stages, text)
	mode := pipeline.Human
	if f.tool {
		mode = pipeline.Tool
	}

	ctx, force, stop, signalled := signalContext()
	defer stop()
	// What commands render themselves (table, template) is shown escaped
	// on a terminal, and exact when it goes to a file or a pipe.
	rendered := stdout
	if !out.tool && isTerminal(stdout) {
		w := source.NewPrintableWriter(stdout, false)
		defer w.Close()
		rendered = w
	}
	env := &pipeline.Env{
		Mode:        mode,
		Stdin:       stdin,
		Stdout:      rendered,
		Stderr:      stderr,
		Environ:     os.Environ(),
		Force:       force,
		Interactive: isTerminal(stdin),
	}
	fail := func(err error) int {
		code, msg := exitFindings, err.Error()
		if sig := signalled(); sig != 0 {
			// The reference's cancellation reason, e.g. "Received SIGINT".
			code, msg = sig, "Received "+signalNames[sig-128]
		}
		return out.fail(envelope.RuntimeError, msg, code)
	}

	if f.dryRun {
		if err := pipeline.DryRun(stages, stderr); err != nil {
			return fail(err)
		}
		if out.tool {
			envelope.Write(stdout, envelope.Tool(envelope.Result{Status: envelope.StatusOK}))
		}
		return exitOK
	}

	res, err := pipeline.Run(ctx, stages, nil, env)
	if err == nil && signalled() != 0 {
		err = errors.New("run cancelled by signal")
	}
	if err != nil {
		return fail(err)
	}
	if out.tool {
		r, err := pipeline.Finalize(ctx, stages, res, env, time.Now())
		if err != nil {
			return fail(err)
		}
		envelope.Write(stdout, envelope.Tool(r))
		return exitOK
	}
	if !res.Rendered {
		// JSON text: escaping DEL, C1 and bidirectional controls keeps its
		// value, so the items are escaped wherever they go, as run's are.
		w := source.NewPrintableWriter(stdout, true)
		pipeline.WriteItems(w, res.Items)
		w.Close()
	}
	return exitOK
}

// parseError reports a pipeline that does not parse, in human mode.
func parseError(stderr io.Writer, msg string) {
	if referenceVoice {
		textf(stderr, "Parse error: %s\n", msg)
		return
	}
	textf(stderr, "lobster: parse error: %s\n", msg)
}

// signalNames names the signals that stop a run, by number.
var signalNames = map[int]string{1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 15: "SIGTERM"}

// isTerminal reports whether the reader or writer f is a terminal.
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}
