package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/plan"
	"github.com/lobsterdev/lobster/runtime/preview"
)

// The commands of workspace/executeCommand.
const (
	cmdPlan     = "lobster.plan"
	cmdPlanDiff = "lobster.planDiff"
)

// planArgs is the argument of lobster.plan and lobster.planDiff.
type planArgs struct {
	URI  protocol.DocumentURI `json:"uri"`
	Step string               `json:"step,omitempty"` // one top-level step, by id; "" for the file
	// Args are the workflow's args: a JSON object, or a string holding one
	// (as --args-json).
	Args json.RawMessage `json:"args,omitempty"`
}

// planResult is what the commands return: the text, and the file it was
// written to and shown in, when the client can show documents.
type planResult struct {
	Text string               `json:"text"`
	URI  protocol.DocumentURI `json:"uri,omitempty"`
}

// codeLenses puts "Plan" and "Plan diff" on the file and on each top-level
// step.
func codeLenses(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
	an := doc.analysis()
	out := []protocol.CodeLens{}
	if an.file.Workflow == nil {
		return out, nil
	}
	add := func(r protocol.Range, step, title string) {
		args := planArgs{URI: doc.uri, Step: step}
		out = append(out,
			protocol.CodeLens{Range: r, Command: &protocol.Command{Title: "Plan" + title, Command: cmdPlan, Arguments: []any{args}}},
			protocol.CodeLens{Range: r, Command: &protocol.Command{Title: "Plan diff" + title, Command: cmdPlanDiff, Arguments: []any{args}}},
		)
	}
	add(protocol.Range{}, "", " (file)")
	for _, si := range an.info().Top {
		if si.ID == "" {
			continue
		}
		p := an.m.Position(si.Step.Pos())
		add(protocol.Range{Start: p, End: p}, si.ID, "")
	}
	return out, nil
}

// executeCommand runs lobster.plan or lobster.planDiff on the document
// named by the first argument.
func executeCommand(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
	var p struct {
		Command   string     `json:"command"`
		Arguments []planArgs `json:"arguments"`
	}
	if err := json.Unmarshal(raw, &p); err != nil || len(p.Arguments) == 0 {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: want one argument {uri, step?, args?}", p.Command)
	}
	a := p.Arguments[0]
	provided, err := parsePlanArgs(a.Args)
	if err != nil {
		return nil, err
	}
	var text, ext string
	switch p.Command {
	case cmdPlan:
		text, err = s.planText(doc, a.Step, provided)
		ext = ".plan"
	case cmdPlanDiff:
		text, err = s.planDiff(ctx, doc, a.Step, provided)
		ext = ".plan.diff"
	default:
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "unknown command %q", p.Command)
	}
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, err.Error())
	}
	res := planResult{Text: text}
	if u, ok := s.show(ctx, doc, a.Step, ext, text); ok {
		res.URI = u
	}
	return res, nil
}

// parsePlanArgs reads the args of a plan as --args-json does.
func parsePlanArgs(raw json.RawMessage) (any, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = []byte(s)
	}
	v, err := jsvalue.Parse(raw)
	if err != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "args must be valid JSON: %v", err)
	}
	if _, ok := v.(*jsvalue.Object); !ok {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "args must be a JSON object")
	}
	return v, nil
}

// buildPlan plans a text of the document (the buffer, the saved file or
// the committed one) as every preview does (runtime/preview): whatever the
// checker finds, which the editor shows as diagnostics; only what the
// reference rejects the file for stops it.
func (s *Server) buildPlan(doc *snapshot, text []byte, provided any) (*plan.Plan, error) {
	res := preview.Load(doc.name, text, preview.Options{Path: doc.name, Args: provided, ReadFile: s.readFile, NoCheck: true})
	if res.Plan == nil {
		return nil, refusedError(res.LoadErrors)
	}
	return res.Plan, nil
}

// refusedError says why a text has no plan: the first of its load errors.
func refusedError(loadErrors []source.Diagnostic) error {
	if len(loadErrors) == 0 {
		return fmt.Errorf("the file is not a workflow")
	}
	d := loadErrors[0]
	more := ""
	if n := len(loadErrors) - 1; n > 0 {
		more = fmt.Sprintf(" (and %d more)", n)
	}
	return fmt.Errorf("the reference cannot load the file, so it has no plan: %d:%d: %s [%s]%s",
		d.Range.Start.Line, d.Range.Start.Col, d.Message, d.Code, more)
}

// stepPlan narrows a plan to one top-level step. The args are left out:
// where they matter, the step's own lines show their values.
func stepPlan(p *plan.Plan, step string) (*plan.Plan, bool) {
	if step == "" {
		return p, true
	}
	for _, st := range p.Steps {
		if st.ID == step {
			return &plan.Plan{File: p.File, Steps: []*plan.Step{st}}, true
		}
	}
	return &plan.Plan{File: p.File}, false
}

func (s *Server) planText(doc *snapshot, step string, provided any) (string, error) {
	p, err := s.buildPlan(doc, doc.text, provided)
	if err != nil {
		return "", err
	}
	sp, ok := stepPlan(p, step)
	if !ok {
		return "", fmt.Errorf("no step %q in the plan", step)
	}
	return sp.Text(), nil
}

// planDiff compares the buffer's plan with the saved file's and, when the
// file is tracked by git, with the one committed at HEAD.
func (s *Server) planDiff(ctx context.Context, doc *snapshot, step string, provided any) (string, error) {
	cur, err := s.buildPlan(doc, doc.text, provided)
	if err != nil {
		return "", err
	}
	cur, _ = stepPlan(cur, step)
	var b strings.Builder
	section := func(label string, text []byte) {
		old, err := s.buildPlan(doc, text, provided)
		if err != nil {
			fmt.Fprintf(&b, "# %s: cannot be planned: %v\n", label, err)
			return
		}
		old, _ = stepPlan(old, step)
		d := plan.Diff(old, cur)
		if d == "" {
			fmt.Fprintf(&b, "# the plan is the same as the %s\n", label)
			return
		}
		// Name the two sides in the headers.
		lines := strings.SplitAfterN(d, "\n", 3)
		if len(lines) == 3 && strings.HasPrefix(lines[0], "--- ") && strings.HasPrefix(lines[1], "+++ ") {
			d = strings.TrimSuffix(lines[0], "\n") + " (" + label + ")\n" + strings.TrimSuffix(lines[1], "\n") + " (editor)\n" + lines[2]
		}
		b.WriteString(d)
	}
	if doc.path == "" {
		return "", fmt.Errorf("the document is not a file: there is no saved version to compare with")
	}
	if saved, err := parser.ReadFile(doc.path); err == nil {
		section("saved file", saved)
	} else {
		fmt.Fprintf(&b, "# no saved file: %v\n", err)
	}
	if head, ok := gitHead(ctx, doc.path); ok {
		section("git HEAD", head)
	}
	return b.String(), nil
}

// gitHead is the text of a file at git HEAD, when git tracks it.
func gitHead(ctx context.Context, path string) ([]byte, bool) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	cmd := exec.CommandContext(ctx, "git", "-C", dir, "show", "HEAD:./"+base)
	out, err := cmd.Output()
	if err != nil {
		return nil, false
	}
	return out, true
}

// show writes text to a file of the server's temporary directory and asks
// the client to open it (window/showDocument), when the client can.
func (s *Server) show(ctx context.Context, doc *snapshot, step, ext, text string) (protocol.DocumentURI, bool) {
	s.mu.Lock()
	can := s.showDocument
	s.mu.Unlock()
	if !can || s.conn == nil {
		return "", false
	}
	dir, err := s.tempDir()
	if err != nil {
		s.log.Printf("plan: %v", err)
		return "", false
	}
	name := filepath.Base(doc.name)
	if step != "" {
		name += "." + step
	}
	p := filepath.Join(dir, name+ext)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		s.log.Printf("plan: %v", err)
		return "", false
	}
	u := uri.File(p)
	var res struct {
		Success bool `json:"success"`
	}
	if _, err := s.conn.Call(ctx, "window/showDocument", map[string]any{"uri": u, "takeFocus": true}, &res); err != nil {
		s.log.Printf("window/showDocument: %v", err)
	}
	return u, true
}

// tempDir is the server's directory for shown plans, made on first use and
// removed when the server stops.
func (s *Server) tempDir() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tmp != "" {
		return s.tmp, nil
	}
	dir, err := os.MkdirTemp("", "lobster-lsp-")
	if err != nil {
		return "", err
	}
	s.tmp = dir
	return dir, nil
}
