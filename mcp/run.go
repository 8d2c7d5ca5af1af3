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
	"github.com/lobsterdev/lobster/runtime/engines"
	"github.com/lobsterdev/lobster/runtime/envelope"
	"github.com/lobsterdev/lobster/runtime/state"
)

// RunInput is the input of run.
type RunInput struct {
	Path   string         `json:"path" jsonschema:"the workflow file, inside the workspace roots"`
	Args   map[string]any `json:"args,omitempty" jsonschema:"the workflow's args, as for lobster run --args-json"`
	Engine string         `json:"engine,omitempty" jsonschema:"the engine that runs the workflow: local or temporal (default: the server's, local unless it was started with --engine)"`
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
	Engine       string `json:"engine,omitempty" jsonschema:"the engine that continues the run, the one it paused on: local or temporal (default: the server's)"`
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

// engineNamed is the engine named name, else the server's default, and
// its name.
func (s *Server) engineNamed(name string) (engines.Engine, string, error) {
	if name == "" {
		name = s.opts.Engine
	}
	if name == "" {
		name = LocalEngine
	}
	e, ok := s.opts.Engines[name]
	if !ok {
		var names []string
		for n := range s.opts.Engines {
			names = append(names, n)
		}
		sort.Strings(names)
		msg := fmt.Sprintf("unknown engine %q: want %s", name, strings.Join(names, ", "))
		if name == engines.Temporal {
			msg = fmt.Sprintf("engine %q is not served: start the server with --engine temporal (and --temporal-address) to run on Temporal; this server has %s", name, strings.Join(names, ", "))
		}
		return nil, "", errors.New(msg)
	}
	return e, name, nil
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
		return s.answered(ctx, c)
	}
	e, name, err := s.engineNamed(in.Engine)
	if err != nil {
		return nil, RunOutput{}, err
	}
	c.state.Engine = name
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
	res, err := e.Run(ctx, engines.RunRequest{
		File: file, Path: path, Args: provided, Env: s.opts.Env, Dir: roots[0], Stderr: &log,
		StateDir: dir, OnStep: c.progress(ctx),
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
			st := c.state // with the engine the run is on
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
// answer, on the engine it is on: accept with approve continues the run
// (their identity applied to the gate's policy), decline or approve
// unchecked rejects it, cancel (dismissed) leaves it paused.
func (s *Server) answered(ctx context.Context, c *call) (*sdk.CallToolResult, RunOutput, error) {
	resp, _ := c.response("approval").(*sdk.ElicitResult)
	if resp == nil {
		return nil, RunOutput{}, errors.New("the client did not answer the approval request")
	}
	p := pauseRef{key: c.state.Key, token: c.state.Token, id: c.state.ApprovalID, engine: c.state.Engine}
	switch resp.Action {
	case "accept":
		approve, _ := resp.Content["approve"].(bool)
		if !approve {
			return s.continueRun(ctx, c, p, decision{approve: ptr(false)}, false)
		}
		d := decision{approve: ptr(true)}
		if by, ok := resp.Content["approvedBy"].(string); ok {
			d.approver, d.hasApprover = strings.TrimSpace(by), true
		}
		return s.continueRun(ctx, c, p, d, false)
	case "decline":
		return s.continueRun(ctx, c, p, decision{approve: ptr(false)}, false)
	}
	// Dismissed: the run stays paused.
	req := s.pausedRequest(ctx, p)
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

// A pauseRef names a paused run on an engine: its local state key (on
// the local engine), its resume token and its approval id.
type pauseRef struct {
	key, token, id string
	engine         string
}

// request is the engine's request that names the pause.
func (p pauseRef) request(stateDir string) engines.PauseRequest {
	return engines.PauseRequest{Token: p.token, ID: p.id, Key: p.localKey(), StateDir: stateDir}
}

// localKey is the state key of the pause on the local engine, "" on
// another (where the token and id name it).
func (p pauseRef) localKey() string {
	if p.engine != LocalEngine {
		return ""
	}
	return p.key
}

// pausedRequest is the approval request of the pause p, as its engine
// tells it, else a plain one.
func (s *Server) pausedRequest(ctx context.Context, p pauseRef) *jsvalue.Object {
	return approvalOf(s.pause(ctx, p))
}

// pause is what p's engine says of the pause; the zero Pause when it
// cannot say.
func (s *Server) pause(ctx context.Context, p pauseRef) engines.Pause {
	e, _, err := s.engineNamed(p.engine)
	if err != nil {
		return engines.Pause{}
	}
	dir, err := s.stateDir()
	if err != nil {
		return engines.Pause{}
	}
	pause, _ := e.Paused(ctx, p.request(dir))
	return pause
}

// approvalOf is the approval request of a pause, a plain one when its
// engine could not tell it.
func approvalOf(p engines.Pause) *jsvalue.Object {
	if p.Approval != nil {
		return p.Approval
	}
	if p.StepID != "" {
		return jsvalue.Obj("type", "approval_request", "prompt", "Approve "+p.StepID+"?")
	}
	return jsvalue.Obj("type", "approval_request", "prompt", "Approve?")
}

// A decision about a pause.
type decision struct {
	approve     *bool
	approver    string // the person's identity, when hasApprover
	hasApprover bool
	response    any // jsvalue.Undefined for none
	cancel      bool
}

// errRefused ends a resume whose workflow file does not pass the checker.
var errRefused = errors.New("the workflow file has errors")

// continueRun applies a decision to the pause p and runs on, on p's
// engine.
func (s *Server) continueRun(ctx context.Context, c *call, p pauseRef, d decision, allowChanged bool) (*sdk.CallToolResult, RunOutput, error) {
	if d.response == nil {
		d.response = jsvalue.Undefined
	}
	e, _, err := s.engineNamed(p.engine)
	if err != nil {
		return nil, RunOutput{}, err
	}
	dir, err := s.stateDir()
	if err != nil {
		return nil, RunOutput{}, err
	}
	env := s.opts.Env
	if d.hasApprover {
		env = setEnv(env, "LOBSTER_APPROVAL_APPROVED_BY", d.approver)
	}
	// Loading the file again is the local engine's: a run on another
	// keeps its own copy.
	var stop error
	var refused *RunOutput
	var warnings []source.Diagnostic
	var runDir string
	load := func(path string) (*ast.File, error) {
		roots, err := c.roots()
		if err != nil {
			stop = err
			return nil, err
		}
		if _, err := resolve(roots, path); err != nil {
			stop = fmt.Errorf("the paused run's workflow: %v", err)
			return nil, stop
		}
		file, w, ref, err := c.loadChecked(ctx, path, path)
		if err != nil {
			stop = err
			return nil, err
		}
		if ref != nil {
			refused = ref
			return nil, errRefused
		}
		warnings = w
		return file, nil
	}
	if p.engine == LocalEngine {
		// The steps run from the first root, as the run's did.
		roots, err := c.roots()
		if err != nil {
			return nil, RunOutput{}, err
		}
		runDir = roots[0]
	}
	var log runLog
	res, err := e.Resume(ctx, engines.ResumeRequest{
		Token: p.token, ID: p.id, Key: p.localKey(), Approve: d.approve, Response: d.response, Cancel: d.cancel,
		AllowChanged: allowChanged, Env: env, Stderr: &log,
		StateDir: dir, Dir: runDir, OnStep: c.progress(ctx), Load: load,
	})
	switch {
	case stop != nil:
		return nil, RunOutput{}, stop
	case refused != nil:
		return result(refused)
	}
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
		return s.answered(ctx, c)
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
	e, name, err := s.engineNamed(in.Engine)
	if err != nil {
		return nil, RunOutput{}, err
	}
	c.state.Engine = name
	// The roots first: a person's answer must not be followed by a round
	// that asks for them.
	if _, err := c.roots(); err != nil {
		return nil, RunOutput{}, err
	}
	dir, err := s.stateDir()
	if err != nil {
		return nil, RunOutput{}, err
	}
	p := pauseRef{token: in.Token, id: in.ApprovalID, engine: name}
	switch {
	case in.ApprovalID == "" && in.Token == "":
		return nil, RunOutput{}, errors.New("give the pause's token or approvalId")
	case name != LocalEngine:
		// The engine reads the token or id; the key only marks the
		// rounds of a person's answer.
		p.key = in.ApprovalID
		if tok, err := state.DecodeToken(in.Token); err == nil {
			p.key = tok.StateKey
		}
	case in.ApprovalID != "":
		store := &state.Store{Dir: dir}
		if p.key, err = store.LookupApproval(in.ApprovalID); err != nil {
			return result(failure(envelope.ParseError, err.Error()))
		}
		p.token = state.Token{Kind: state.KindOf(p.key), StateKey: p.key}.Encode()
	default:
		tok, err := state.DecodeToken(in.Token)
		if errors.Is(err, state.ErrLegacyToken) && in.Cancel {
			return result(&RunOutput{Envelope: envelope.Tool(envelope.Result{Status: envelope.StatusCancelled})})
		}
		if err != nil {
			return result(failure(envelope.ParseError, err.Error()))
		}
		p.key = tok.StateKey
	}
	if name == LocalEngine && state.KindOf(p.key) == state.KindPipeline {
		return nil, RunOutput{}, errors.New("this token belongs to a pipeline run: continue it with lobster resume in a terminal")
	}
	if in.Cancel {
		return s.continueRun(ctx, c, p, decision{cancel: true}, in.AllowChanged)
	}
	pause, err := e.Paused(ctx, p.request(dir))
	var argErr *engine.ArgumentError
	switch {
	case errors.As(err, &argErr):
		return result(failure(envelope.ParseError, err.Error()))
	case err != nil:
		return result(failure(envelope.RuntimeError, err.Error()))
	}
	if pause.Input {
		var response any = jsvalue.Undefined
		if in.Response != nil {
			if response, err = toJS(in.Response); err != nil {
				return nil, RunOutput{}, err
			}
		}
		return s.continueRun(ctx, c, p, decision{response: response, approve: in.Approve}, in.AllowChanged)
	}
	// An approval gate: the same rules on every engine.
	switch {
	case in.Approve != nil && !*in.Approve:
		return s.continueRun(ctx, c, p, decision{approve: in.Approve}, in.AllowChanged)
	case in.Approve != nil && s.opts.AllowAgentApproval:
		return s.continueRun(ctx, c, p, decision{approve: in.Approve}, in.AllowChanged)
	case in.Approve != nil:
		return nil, RunOutput{}, errors.New("refused: an approval gate is for a person, not for the agent that runs the workflow. " +
			"Call resume without approve to have the person asked through the client, or ask the user to approve in a terminal " +
			"(lobster resume --token … --approve yes). The server accepts the agent's approval only when started with --allow-agent-approval")
	case in.Response != nil:
		return result(failure(envelope.ParseError, "Workflow resume requires --approve yes|no for approval requests"))
	}
	if !c.canElicit() {
		return nil, RunOutput{}, errors.New(s.approvalNote(in.ApprovalID, p.token))
	}
	st := c.state
	st.Key, st.Token, st.ApprovalID = p.key, p.token, in.ApprovalID
	return nil, RunOutput{}, c.ask("approval", approvalElicitation(approvalOf(pause)), st)
}
