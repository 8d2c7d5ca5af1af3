package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/pipeline"
	"github.com/lobsterdev/lobster/runtime/state"
)

// doctorDoc is the text of lobster help doctor.
const doctorDoc = `Doctor checks that this lobster can run things: it runs the pipeline
exec --json --shell 'echo [1]' in tool mode (the shell, process handling and
JSON parsing) and checks that the state directory can be created, then
prints one tool envelope whose output is {toolMode, protocolVersion,
version, notes?}, as the reference does. Any words after doctor come back as
notes. A failure is a doctor_error envelope and exit code 1.`

// doctorProbe is the reference's doctor pipeline.
const doctorProbe = `exec --json --shell 'echo [1]'`

func runDoctor(args []string, stdout, stderr io.Writer) int {
	if asksHelp(args) {
		fmt.Fprint(stdout, helpPage(cmdNamed("doctor")))
		return exitOK
	}
	out := runOutput{tool: true, stdout: stdout, stderr: stderr}
	if err := doctor(); err != nil {
		return out.fail(envelope.DoctorError, err.Error(), exitFindings)
	}
	report := jsvalue.Obj("toolMode", true, "protocolVersion", 1.0, "version", version())
	if len(args) > 0 {
		notes := make([]any, len(args))
		for i, a := range args {
			notes[i] = a
		}
		report.Set("notes", notes)
	}
	envelope.Write(stdout, envelope.Tool(envelope.Result{Status: envelope.StatusOK, Output: []any{report}}))
	return exitOK
}

// doctor runs the probe pipeline and opens the state directory.
func doctor() error {
	p := parser.ParsePipelineText(doctorProbe)
	if p.Err != nil {
		return fmt.Errorf("doctor pipeline: %s", p.Err.Msg)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var discard bytes.Buffer
	res, err := pipeline.Run(ctx, pipeline.StagesOf(p.Stages, doctorProbe), nil, &pipeline.Env{
		Mode: pipeline.Tool, Stdin: bytes.NewReader(nil), Stdout: &discard, Stderr: &discard, Environ: os.Environ(),
	})
	if err != nil {
		return err
	}
	if got := jsvalue.Stringify(res.Items, ""); got != "[1]" {
		return fmt.Errorf("doctor pipeline gave %s, want [1]", got)
	}
	dir, err := state.DefaultDir(os.Getenv)
	if err != nil {
		return err
	}
	if _, err := state.Open(dir); err != nil {
		return fmt.Errorf("state directory: %w", err)
	}
	return nil
}
