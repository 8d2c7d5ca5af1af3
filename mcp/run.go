//lint:file-ignore SA1019 Roots stay: clients of the older protocol generations confine the server with them.

package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/state"
)

// RunInput is the input of run.
type RunInput struct {
	Path   string         `json:"path" jsonschema:"the workflow file, inside the workspace roots"`
	Args   map[string]any `json:"args,omitempty" jsonschema:"the workflow's args, as for lobster run --args-json"`
	Engine string         `json:"engine,omitempty" jsonschema:"the engine that runs the workflow (default local)"`
}

// ResumeInput is the input of resume.
type ResumeInput struct {
	Token      string `json:"token,omitempty" jsonschema:"the resumeToken of the pause"`
	ApprovalID string `json:"approvalId,omitempty" jsonschema:"the approvalId of an approval pause, instead of token"`
	Cancel     bool   `json:"cancel,omitempty" jsonschema:"cancel the paused run"`
	Response   any    `json:"response,omitempty" jsonschema:"the answer to an input gate, matching its responseSchema"`
	// Approve is refused from the agent unless the server allows it: a
	// person approves through the client.
	Approve      *bool  `json:"approve,omitempty" jsonschema:"approve (true) or reject (false) an approval gate; approving is for a person and is refused from the agent unless the server was started with --allow-agent-approval; leave it out to have the person asked"`
	AllowChanged bool   `json:"allowChanged,omitempty" jsonschema:"continue even though the workflow file changed since the pause"`
	Engine       string `json:"engine,omitempty" jsonschema:"the engine that continues the run (default local)"`
}

// RunOutput is the outcome of run and resume.
type RunOutput struct {
	Envelope any                 `json:"envelope" jsonschema:"the tool envelope, as lobster run --mode tool prints it"`
	Warnings []source.Diagnostic `json:"warnings,omitempty" jsonschema:"the checker's warnings about the workflow (they do not stop a run)"`
	Log      string              `json:"log,omitempty" jsonschema:"what the run logged (retries, cost)"`
	Note     string              `json:"note,omitempty" jsonschema:"what to do next"`
}

func (s *Server) addRunTools() {
	addTool(s, &sdk.Tool{
		Name:  "run",
		Title: "Run a workflow",
		Description: "Check a workflow file and, when it has no errors, run it (as `lobster run --mode tool`); returns the tool envelope. " +
			"At an approval gate the server asks the person through the client; input gates come back as needs_input for you to answer with resume.",
		InputSchema: schemaFor[RunInput](), OutputSchema: schemaFor[RunOutput](),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	}, s.run)
	addTool(s, &sdk.Tool{
		Name:  "resume",
		Title: "Resume a paused run",
		Description: "Continue a run paused at a gate, by token or approvalId: answer an input gate with response, cancel, " +
			"or, for an approval gate, leave approve out to have the person asked through the client.",
		InputSchema: schemaFor[ResumeInput](), OutputSchema: schemaFor[RunOutput](),
		Annotations: &sdk.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	}, s.resume)
}

// runFunc is the engine named name.
func (s *Server) runFunc(name string) (RunFunc, error) {
	if name == "" {
		name = LocalEngine
	}
	fn, ok := s.opts.Engines[name]
	if !ok {
		var names []string
		for n := range s.opts.Engines {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("unknown engine %q: want %s", name, strings.Join(names, ", "))
	}
	return fn, nil
}

// A runLog collects what a run logs, up to a limit.
type runLog struct {
	mu sync.Mutex
	b  strings.Builder
}

const maxLog = 64 << 10

func (l *runLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := maxLog - l.b.Len(); room > 0 {
		l.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (l *runLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// progress reports each step of a run to the client, when it asked for
// progress: one notification as a step starts (or is skipped), the
// progress being the number of steps before it.
func (c *call) progress(ctx context.Context) func(engine.StepEvent) {
	token := c.req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	last := -1
	return func(e engine.StepEvent) {
		var msg string
		switch e.Phase {
		case engine.StepStarted:
			msg = fmt.Sprintf("step %d/%d %s: running", e.Index+1, e.Total, e.ID)
		case engine.StepSkipped:
			msg = fmt.Sprintf("step %d/%d %s: skipped", e.Index+1, e.Total, e.ID)
		default:
			return
		}
		if e.Index <= last {
			return // progress must grow
		}
		last = e.Index
		c.req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{
			ProgressToken: token, Progress: float64(e.Index), Total: float64(e.Total), Message: msg,
		})
	}
}

// loadChecked reads, parses and checks a workflow file for a run,
// validation first: the file, its warnings, or the validation_error
// envelope of its errors.
func (c *call) loadChecked(ctx context.Context, name, path string) (*ast.File, []source.Diagnostic, *RunOutput, error) {
	src, err := engine.ReadWorkflow(path)
	if err != nil {
		return nil, nil, failure(envelope.ParseError, err.Error()), nil
	}
	var needRoots atomic.Bool
	file, parseDiags := parser.Parse(name, src)
	diags, err := check.RunContext(ctx, file, parseDiags, check.Rules, check.Options{Path: path, ReadFile: c.readFile(&needRoots)})
	if err != nil {
		return nil, nil, nil, err
	}
	if needRoots.Load() {
		return nil, nil, nil, c.ask("roots", &sdk.ListRootsParams{}, c.state)
	}
	source.Sort(diags)
	var errs, warnings []source.Diagnostic
	for _, d := range diags {
		switch d.Severity {
		case source.Error:
			errs = append(errs, d)
		case source.Warning:
			warnings = append(warnings, d)
		}
	}
	if len(errs) > 0 {
		return nil, nil, &RunOutput{Envelope: envelope.Validation(errs), Warnings: warnings,
			Note: "nothing ran: fix the errors (the check and fix tools) and run again"}, nil
	}
	return file, warnings, nil, nil
}

// failure is the output of a failed run.
func failure(errorType, message string) *RunOutput {
	return &RunOutput{Envelope: envelope.Failure(errorType, message)}
}

// result is a tool result for out: an error result when the envelope is
// not ok.
func result(out *RunOutput) (*sdk.CallToolResult, RunOutput, error) {
	env, _ := out.Envelope.(*jsvalue.Object)
	text := jsvalue.Stringify(out.Envelope, "  ")
	out.Envelope = json.RawMessage(jsvalue.Stringify(out.Envelope, ""))
	if out.Note != "" {
		text += "\n" + out.Note
	}
	res := &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}
	if ok, _ := get(env, "ok").(bool); !ok {
		res.IsError = true
	}
	return res, *out, nil
}

// get is o[key], nil when missing.
func get(o *jsvalue.Object, key string) any {
	if o == nil {
		return nil
	}
	v, _ := o.Get(key)
	return v
}

func (s *Server) run(ctx context.Context, c *call, in RunInput) (*sdk.CallToolResult, RunOutput, error) {
	if c.state.Key != "" {
		return s.answered(ctx, c, in.Engine)
	}
	fn, err := s.runFunc(in.Engine)
	if err != nil {
		return nil, RunOutput{}, err
	}
	roots, err := c.roots()
	if err != nil {
		return nil, RunOutput{}, err
	}
	path, err := resolve(roots, in.Path)
	if err != nil {
		return nil, RunOutput{}, err
	}
	provided, err := args(in.Args)
	if err != nil {
		return nil, RunOutput{}, err
	}
	file, warnings, refused, err := c.loadChecked(ctx, in.Path, path)
	if err != nil {
		return nil, RunOutput{}, err
	}
	if refused != nil {
		return result(refused)
	}
	dir, err := s.stateDir()
	if err != nil {
		return nil, RunOutput{}, err
	}
	var log runLog
	res, err := fn(ctx, file, engine.Options{
		Args: provided, Env: s.opts.Env, Stderr: &log, FilePath: path, StateDir: dir, Dir: roots[0], OnStep: c.progress(ctx),
	})
	return s.outcome(ctx, c, res, err, warnings, &log)
}

// outcome is the tool result of a run or a resume: at an approval gate,
// the person is asked when the client can ask them.
func (s *Server) outcome(ctx context.Context, c *call, res envelope.Result, err error, warnings []source.Diagnostic, log *runLog) (*sdk.CallToolResult, RunOutput, error) {
	if ctx.Err() != nil {
		return nil, RunOutput{}, fmt.Errorf("the run was cancelled: %v", context.Cause(ctx))
	}
	var argErr *engine.ArgumentError
	switch {
	case errors.As(err, &argErr):
		out := failure(envelope.ParseError, err.Error())
		out.Warnings, out.Log = warnings, log.String()
		return result(out)
	case err != nil:
		out := failure(envelope.RuntimeError, err.Error())
		out.Warnings, out.Log = warnings, log.String()
		return result(out)
	}
	out := &RunOutput{Envelope: envelope.Tool(res), Warnings: warnings, Log: log.String()}
	switch res.Status {
	case envelope.StatusNeedsApproval:
		req := res.RequiresApproval
		token, _ := get(req, "resumeToken").(string)
		id, _ := get(req, "approvalId").(string)
		tok, err := state.DecodeToken(token)
		if err != nil {
			return nil, RunOutput{}, err
		}
		if c.canElicit() {
			st := c.state
			st.Key, st.Token, st.ApprovalID = tok.StateKey, token, id
			return nil, RunOutput{}, c.ask("approval", approvalElicitation(req), st)
		}
		out.Note = s.approvalNote(id, token)
	case envelope.StatusNeedsInput:
		out.Note = "the run waits for input: answer with the resume tool (token and a response matching responseSchema)"
	}
	return result(out)
}

// approvalNote says who may approve a pause the client cannot ask about.
func (s *Server) approvalNote(id, token string) string {
	ref := "--token " + token
	if id != "" {
		ref = "--id " + id
	}
	note := "the run waits for a person's approval, and this client cannot ask them (no elicitation): " +
		"ask the user to run `lobster resume " + ref + " --approve yes` (or no) in a terminal."
	if s.opts.AllowAgentApproval {
		note += " This server also accepts approve: true from the agent through resume (--allow-agent-approval)."
	} else {
		note += " Approving through the resume tool is refused: gates are for people."
	}
	return note
}

// approvalElicitation asks the person about an approval request.
func approvalElicitation(req *jsvalue.Object) *sdk.ElicitParams {
	var b strings.Builder
	prompt := get(req, "prompt")
	if p, ok := prompt.(string); ok {
		b.WriteString(p)
	} else if prompt != nil {
		b.WriteString(jsvalue.Stringify(prompt, ""))
	}
	if p, ok := get(req, "preview").(string); ok && p != "" {
		b.WriteString("\n\nPreview:\n" + p)
	}
	if items, ok := get(req, "items").([]any); ok && len(items) > 0 {
		t := jsvalue.Stringify(items, "  ")
		if len(t) > 2000 {
			t = t[:2000] + "…"
		}
		fmt.Fprintf(&b, "\n\nItems (%d):\n%s", len(items), t)
	}
	props := map[string]*jsonschema.Schema{
		"approve": {Type: "boolean", Title: "Approve", Description: "Approve the step and let the run go on; leave unchecked to reject it (the run is cancelled)", Default: []byte("false")},
	}
	required := []string{"approve"}
	policy := identityPolicy(req)
	if policy != "" {
		b.WriteString("\n\nApprover policy: " + policy)
		props["approvedBy"] = &jsonschema.Schema{Type: "string", Title: "Approved by", Description: "Your identity as the approver: " + policy}
		required = append(required, "approvedBy")
	}
	return &sdk.ElicitParams{
		Mode:    "form",
		Message: "A Lobster workflow run waits for your approval.\n\n" + b.String(),
		RequestedSchema: &jsonschema.Schema{
			Type: "object", Properties: props, Required: required,
		},
	}
}

// identityPolicy describes the identity policy of an approval request, ""
// when it has none.
func identityPolicy(req *jsvalue.Object) string {
	var parts []string
	if a, _ := get(req, "requiredApprover").(string); a != "" {
		parts = append(parts, fmt.Sprintf("must be approved by %q", a))
	}
	if d, _ := get(req, "requireDifferentApprover").(bool); d {
		who, _ := get(req, "initiatedBy").(string)
		if who != "" {
			parts = append(parts, fmt.Sprintf("must be approved by someone other than %q", who))
		} else {
			parts = append(parts, "must be approved by someone other than who started the run")
		}
	}
	return strings.Join(parts, "; ")
}

// answered continues the pause a person was asked about with their
// answer: accept with approve continues the run (their identity applied
// to the gate's policy), decline or approve unchecked rejects it, cancel
// (dismissed) leaves it paused.
func (s *Server) answered(ctx context.Context, c *call, engineName string) (*sdk.CallToolResult, RunOutput, error) {
	resp, _ := c.response("approval").(*sdk.ElicitResult)
	if resp == nil {
		return nil, RunOutput{}, errors.New("the client did not answer the approval request")
	}
	key := c.state.Key
	switch resp.Action {
	case "accept":
		approve, _ := resp.Content["approve"].(bool)
		if !approve {
			return s.continueRun(ctx, c, key, decision{approve: ptr(false)}, false, engineName)
		}
		d := decision{approve: ptr(true)}
		if by, ok := resp.Content["approvedBy"].(string); ok {
			d.approver, d.hasApprover = strings.TrimSpace(by), true
		}
		return s.continueRun(ctx, c, key, d, false, engineName)
	case "decline":
		return s.continueRun(ctx, c, key, decision{approve: ptr(false)}, false, engineName)
	}
	// Dismissed: the run stays paused.
	req := s.pausedRequest(ctx, key)
	req.Set("resumeToken", c.state.Token)
	if c.state.ApprovalID != "" {
		req.Set("approvalId", c.state.ApprovalID)
	}
	out := &RunOutput{
		Envelope: envelope.Tool(envelope.Result{Status: envelope.StatusNeedsApproval, RequiresApproval: req}),
		Note:     "the person dismissed the approval request: the run stays paused; call resume with the token to ask again",
	}
	return result(out)
}

// pausedRequest is the approval request of the pause under key, rebuilt
// from its state and its workflow file.
func (s *Server) pausedRequest(ctx context.Context, key string) *jsvalue.Object {
	req := jsvalue.Obj("type", "approval_request", "prompt", "Approve?")
	dir, err := s.stateDir()
	if err != nil {
		return req
	}
	rs, err := engine.LoadResume(ctx, &state.Store{Dir: dir}, key)
	if err != nil {
		return req
	}
	req.Set("prompt", "Approve "+rs.Saved.ApprovalStepID+"?")
	if src, err := engine.ReadWorkflow(rs.Saved.FilePath); err == nil {
		f, _ := parser.Parse(rs.Saved.FilePath, src)
		if r := rs.ApprovalRequest(f); r != nil {
			return r
		}
	}
	return req
}

// A decision about a pause.
type decision struct {
	approve     *bool
	approver    string // the person's identity, when hasApprover
	hasApprover bool
	response    any // jsvalue.Undefined for none
}

// continueRun applies a decision to the pause under key and runs on.
func (s *Server) continueRun(ctx context.Context, c *call, key string, d decision, allowChanged bool, engineName string) (*sdk.CallToolResult, RunOutput, error) {
	if d.response == nil {
		d.response = jsvalue.Undefined
	}
	fn, err := s.runFunc(engineName)
	if err != nil {
		return nil, RunOutput{}, err
	}
	dir, err := s.stateDir()
	if err != nil {
		return nil, RunOutput{}, err
	}
	store := &state.Store{Dir: dir}
	rs, err := engine.LoadResume(ctx, store, key)
	if err != nil {
		return result(failure(envelope.RuntimeError, err.Error()))
	}
	if err := rs.CheckDecision(d.approve != nil, d.response != jsvalue.Undefined); err != nil {
		return result(failure(envelope.ParseError, err.Error()))
	}
	if d.approve != nil && !*d.approve {
		res, err := rs.Reject(ctx)
		return s.outcome(ctx, c, res, err, nil, &runLog{})
	}
	rs.Response = d.response
	roots, err := c.roots()
	if err != nil {
		return nil, RunOutput{}, err
	}
	if _, err := resolve(roots, rs.Saved.FilePath); err != nil {
		return nil, RunOutput{}, fmt.Errorf("the paused run's workflow: %v", err)
	}
	file, warnings, refused, err := c.loadChecked(ctx, rs.Saved.FilePath, rs.Saved.FilePath)
	if err != nil {
		return nil, RunOutput{}, err
	}
	if refused != nil {
		return result(refused)
	}
	env := s.opts.Env
	if d.hasApprover {
		env = setEnv(env, "LOBSTER_APPROVAL_APPROVED_BY", d.approver)
	}
	var log runLog
	res, err := fn(ctx, file, engine.Options{
		Env: env, Stderr: &log, FilePath: rs.Saved.FilePath, StateDir: dir, Dir: roots[0],
		Resume: rs, AllowChanged: allowChanged, OnStep: c.progress(ctx),
	})
	return s.outcome(ctx, c, res, err, warnings, &log)
}

// setEnv is env with name set to value.
func setEnv(env []string, name, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); k != name {
			out = append(out, kv)
		}
	}
	return append(out, name+"="+value)
}

func (s *Server) resume(ctx context.Context, c *call, in ResumeInput) (*sdk.CallToolResult, RunOutput, error) {
	if c.state.Key != "" {
		return s.answered(ctx, c, in.Engine)
	}
	intents := 0
	if in.Cancel {
		intents++
	}
	if in.Approve != nil {
		intents++
	}
	if in.Response != nil {
		intents++
	}
	if intents > 1 {
		return nil, RunOutput{}, errors.New("give only one of approve, response or cancel")
	}
	// The roots first: a person's answer must not be followed by a round
	// that asks for them.
	if _, err := c.roots(); err != nil {
		return nil, RunOutput{}, err
	}
	dir, err := s.stateDir()
	if err != nil {
		return nil, RunOutput{}, err
	}
	store := &state.Store{Dir: dir}
	var key, token string
	switch {
	case in.ApprovalID != "":
		if key, err = store.LookupApproval(in.ApprovalID); err != nil {
			return result(failure(envelope.ParseError, err.Error()))
		}
		token = state.Token{Kind: state.KindOf(key), StateKey: key}.Encode()
	case in.Token != "":
		tok, err := state.DecodeToken(in.Token)
		if errors.Is(err, state.ErrLegacyToken) && in.Cancel {
			return result(&RunOutput{Envelope: envelope.Tool(envelope.Result{Status: envelope.StatusCancelled})})
		}
		if err != nil {
			return result(failure(envelope.ParseError, err.Error()))
		}
		key, token = tok.StateKey, in.Token
	default:
		return nil, RunOutput{}, errors.New("give the pause's token or approvalId")
	}
	if state.KindOf(key) == state.KindPipeline {
		return nil, RunOutput{}, errors.New("this token belongs to a pipeline run: continue it with lobster resume in a terminal")
	}
	if in.Cancel {
		res, err := engine.Cancel(ctx, store, key)
		return s.outcome(ctx, c, res, err, nil, &runLog{})
	}
	rs, err := engine.LoadResume(ctx, store, key)
	if err != nil {
		return result(failure(envelope.RuntimeError, err.Error()))
	}
	if rs.Saved.InputStepID != "" {
		var response any = jsvalue.Undefined
		if in.Response != nil {
			if response, err = toJS(in.Response); err != nil {
				return nil, RunOutput{}, err
			}
		}
		return s.continueRun(ctx, c, key, decision{response: response, approve: in.Approve}, in.AllowChanged, in.Engine)
	}
	// An approval gate.
	switch {
	case in.Approve != nil && !*in.Approve:
		return s.continueRun(ctx, c, key, decision{approve: in.Approve}, in.AllowChanged, in.Engine)
	case in.Approve != nil && s.opts.AllowAgentApproval:
		return s.continueRun(ctx, c, key, decision{approve: in.Approve}, in.AllowChanged, in.Engine)
	case in.Approve != nil:
		return nil, RunOutput{}, errors.New("refused: an approval gate is for a person, not for the agent that runs the workflow. " +
			"Call resume without approve to have the person asked through the client, or ask the user to approve in a terminal " +
			"(lobster resume --token … --approve yes). The server accepts the agent's approval only when started with --allow-agent-approval")
	case in.Response != nil:
		return result(failure(envelope.ParseError, "Workflow resume requires --approve yes|no for approval requests"))
	}
	id := in.ApprovalID
	if !c.canElicit() {
		return nil, RunOutput{}, errors.New(s.approvalNote(id, token))
	}
	req := s.pausedRequest(ctx, key)
	st := c.state
	st.Key, st.Token, st.ApprovalID = key, token, id
	return nil, RunOutput{}, c.ask("approval", approvalElicitation(req), st)
}
