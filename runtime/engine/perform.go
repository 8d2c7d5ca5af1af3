package engine

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/pipeline"
)

// A Host is where Perform runs a command: this process for a local run, a
// worker for a run on Temporal.
type Host struct {
	// Env is the host's environment, under the command's own (a
	// worker's); nil adds nothing.
	Env []string
	// Dir is what a relative or empty command directory is relative to;
	// "" is the process's working directory.
	Dir string

	Stderr   io.Writer       // pipeline commands' log lines
	StateDir string          // for pipeline commands that keep state
	Force    <-chan struct{} // closed to kill running processes at once
	Terminal *Terminal       // pipeline gates ask here when set
	// BeforeEffect, when set, is called right before the command's
	// first effect; its error ends the command before it.
	BeforeEffect func() error
	// Dispatch, when set, is called right before a pipeline command
	// sends a request that must never be sent twice (see
	// pipeline.Env.Dispatch): an attempt that did is not retried.
	Dispatch func()
	// LLM hears of the LLM answers a pipeline produces (see
	// pipeline.LLMAccounting).
	LLM pipeline.LLMAccounting
}

// Perform runs a command: a shell command's process, or a pipeline's
// stages. It is the body of a local run's commands and of a Temporal
// activity. A top-level pipeline that stops to ask for input returns a
// *Suspension as its error (see SuspensionOf).
func Perform(ctx context.Context, cmd *Command, h Host) (*jsvalue.Object, error) {
	if h.Stderr == nil {
		h.Stderr = io.Discard
	}
	switch cmd.Kind {
	case ShellCommand:
		if h.BeforeEffect != nil {
			if err := h.BeforeEffect(); err != nil {
				return nil, err
			}
		}
		env := h.env(cmd.Env)
		limit := cmd.MaxOutput
		if limit <= 0 {
			var err error
			if limit, err = pipeline.OutputLimit(func(name string) string { return Getenv(env, name) }); err != nil {
				return nil, err
			}
		}
		return RunShell(ctx, Shell{
			ID:        cmd.ID,
			Text:      cmd.Text,
			Env:       env,
			Dir:       h.dir(cmd.Dir),
			Stdin:     ShellStdin(cmd.Stdin),
			MaxOutput: limit,
			Force:     h.Force,
		})
	case PipelineCommand:
		return performPipeline(ctx, cmd, h)
	}
	return syntheticResult(cmd.ID, cmd.Stdin), nil
}

func (h Host) env(cmd []string) []string {
	if len(h.Env) == 0 {
		return cmd
	}
	return append(slices.Clip(h.Env), cmd...)
}

func (h Host) dir(d string) string {
	if h.Dir == "" || filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(h.Dir, d)
}

// performPipeline runs a `pipeline:` step, sub-step or branch: its stdin as
// the input items; renderers writing into the step's stdout instead of the
// terminal.
func performPipeline(ctx context.Context, cmd *Command, h Host) (*jsvalue.Object, error) {
	p := parser.ParsePipelineText(cmd.Text)
	if p.Err != nil {
		return nil, fmt.Errorf("Workflow step %s pipeline parse failed: %s", cmd.ID, p.Err.Msg)
	}
	stages := pipeline.StagesOf(p.Stages, cmd.Text)
	var input []any
	switch v := cmd.Stdin.(type) {
	case nil:
	case []any:
		input = v
	default:
		if v != jsvalue.Undefined {
			input = []any{v}
		}
	}
	var rendered bytes.Buffer
	env := &pipeline.Env{
		Mode:     pipeline.Tool,
		Stdin:    strings.NewReader(""),
		Stdout:   &rendered,
		Stderr:   h.Stderr,
		Environ:  h.env(cmd.Env),
		Dir:      h.dir(cmd.Dir),
		BaseDir:  h.Dir,
		StateDir: h.StateDir,
		Force:    h.Force,
		Dispatch: h.Dispatch,
		LLM:      h.LLM,
	}
	if t := h.Terminal; t != nil {
		// On a terminal, approve and ask prompt there.
		env.Mode, env.Stdin, env.Interactive = pipeline.Human, t.In, true
	}
	opts := pipeline.Options{BeforeEffect: h.BeforeEffect}
	run := stages
	if k := cmd.Continue; k != nil {
		// The resume of this step's input request: the pipeline goes on
		// at the stage that asked, with the items it had and the answer.
		if k.Stage < 0 || k.Stage > len(stages) {
			return nil, fmt.Errorf("Workflow step %s pipeline changed since input request", cmd.ID)
		}
		run, input = stages[k.Stage:], k.Items
		opts.Resume = &pipeline.ResumeInput{Response: k.Response}
	}
	res, err := pipeline.RunWith(ctx, run, input, env, opts)
	if err != nil {
		return nil, err
	}
	if s, ok := res.Suspended(); ok && cmd.TopLevel {
		s.Stage += len(stages) - len(run)
		return nil, &Suspension{Stages: pipeline.StagesValue(stages), Items: input, Suspension: s}
	}
	if res.Halted {
		name := ""
		if res.HaltedAt >= 0 && res.HaltedAt < len(stages) {
			name = stages[res.HaltedAt].Name
		}
		switch haltKind(res.Items) {
		case "approval_request":
			return nil, &haltError{fmt.Sprintf("Workflow step %s halted for approval inside pipeline stage %s. Use a separate approval step in the workflow file.", cmd.ID, name)}
		case "input_request":
			return nil, &haltError{"requestInput is not supported in this pipeline context"}
		}
		return nil, &haltError{fmt.Sprintf("Workflow step %s halted before completion at pipeline stage %s", cmd.ID, name)}
	}
	record := pipelineResult(cmd.ID, res.Items, rendered.String())
	if s, ok := h.LLM.(renderedAccounting); ok && len(res.Items) == 0 && len(res.RenderedItems) > 0 {
		s.renderedItems(record, res.RenderedItems)
	}
	return record, nil
}

// A Suspension is a top-level pipeline step that asked for input: the
// workflow stops at an input request (of kind pipeline_command), and its
// answer continues the pipeline at the stage that asked. Perform returns
// it as an error.
type Suspension struct {
	Stages []any // the pipeline's stages (pipeline.StagesValue)
	Items  []any // the step's input items
	pipeline.Suspension
}

func (p *Suspension) Error() string { return "pipeline input suspension" }
