//lint:file-ignore SA1019 Roots stay: clients of the older protocol generations confine the server with them.

package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/schema"
)

// The protocols the tests speak: the newest, where the server asks for
// input in results (multi round-trip), and an older one, where it asks
// with requests of its own.
var protocols = []struct{ name, version string }{
	{"2026-07-28", ""},
	{"2025-06-18", "2025-06-18"},
}

// typo is a workflow whose second step refers to a misspelt step.
const typo = "steps:\n  - id: build\n    run: echo hi\n  - id: use\n    run: cat\n    stdin: $biuld.stdout\n"

// workspace is a directory of workflow files for a server.
func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// newServer is a server on dir, its state in dir/.state.
func newServer(dir string, opts Options) *Server {
	opts.Dir = dir
	if opts.Env == nil {
		opts.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	}
	opts.StateDir = filepath.Join(dir, ".state")
	return New(opts)
}

// client connects a client to srv over in-memory transports, speaking
// version ("" for the newest), with roots when given.
func client(t *testing.T, srv *Server, version string, copts *sdk.ClientOptions, roots ...string) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, copts)
	for _, r := range roots {
		c.AddRoots(&sdk.Root{URI: "file://" + filepath.ToSlash(r)})
	}
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.SDK().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := c.Connect(ctx, ct, &sdk.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// callTool calls a tool and decodes its structured output into out (when
// not nil).
func callTool(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any, out any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if out != nil && !res.IsError {
		data, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s: decoding %s: %v", name, data, err)
		}
	}
	return res
}

// errorText is the text of an error result, or a test failure.
func errorText(t *testing.T, res *sdk.CallToolResult) string {
	t.Helper()
	if !res.IsError {
		t.Fatalf("not an error: %+v", res.StructuredContent)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestToolsList(t *testing.T) {
	dir := workspace(t, nil)
	for _, tt := range []struct {
		opts Options
		want []string
	}{
		{Options{}, []string{"check", "explain", "fix", "graph", "plan", "schema"}},
		{Options{AllowRun: true}, []string{"check", "explain", "fix", "graph", "plan", "resume", "run", "schema"}},
	} {
		cs := client(t, newServer(dir, tt.opts), "", nil)
		var names []string
		for tool, err := range cs.Tools(context.Background(), nil) {
			if err != nil {
				t.Fatal(err)
			}
			names = append(names, tool.Name)
			if tool.InputSchema == nil {
				t.Errorf("%s has no input schema", tool.Name)
			}
		}
		slices.Sort(names)
		if !slices.Equal(names, tt.want) {
			t.Errorf("AllowRun %v: tools %v, want %v", tt.opts.AllowRun, names, tt.want)
		}
	}
}

// cliJSON is what lobster check --format json prints for a text: the
// checker run as the CLI runs it.
func cliJSON(t *testing.T, name, text string) []source.Diagnostic {
	t.Helper()
	f, pd := parser.Parse(name, []byte(text))
	diags := check.Run(f, pd, check.Rules)
	source.Sort(diags)
	var b bytes.Buffer
	if err := source.WriteJSON(&b, diags); err != nil {
		t.Fatal(err)
	}
	var out []source.Diagnostic
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCheck(t *testing.T) {
	dir := workspace(t, map[string]string{"typo.lobster": typo, "sub/ok.lobster": "steps:\n  - id: a\n    run: echo a\n"})
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			cs := client(t, newServer(dir, Options{}), p.version, nil)
			for _, args := range []map[string]any{
				{"text": typo, "filename": "typo.lobster"},
				{"path": "typo.lobster"},
				{"path": filepath.Join(dir, "typo.lobster")},
			} {
				var out CheckOutput
				res := callTool(t, cs, "check", args, &out)
				if res.IsError {
					t.Fatalf("%v: %s", args, errorText(t, res))
				}
				if out.Errors != 1 || len(out.Diagnostics) != 1 {
					t.Fatalf("%v: %+v", args, out)
				}
				d := out.Diagnostics[0]
				if d.Code != "unknown-step-ref" || d.Range.String() != "6:13-6:18" || d.Range.Start.Offset != 75 {
					t.Errorf("%v: %s %s", args, d.Code, d.Range)
				}
				name := "typo.lobster"
				if p, ok := args["path"].(string); ok {
					name = p
				}
				want := cliJSON(t, name, typo)
				got, _ := json.Marshal(out.Diagnostics)
				wantJSON, _ := json.Marshal(want)
				if !bytes.Equal(got, wantJSON) {
					t.Errorf("%v: diagnostics\n%s\nwant (lobster check --format json)\n%s", args, got, wantJSON)
				}
			}
			var out CheckOutput
			if res := callTool(t, cs, "check", map[string]any{"path": "sub/ok.lobster"}, &out); res.IsError || len(out.Diagnostics) != 0 || out.File != "sub/ok.lobster" {
				t.Errorf("a clean file: %+v", out)
			}
		})
	}
}

// TestBadInput: every kind of bad input is an error result or a protocol
// error, and the server goes on serving.
func TestBadInput(t *testing.T) {
	dir := workspace(t, map[string]string{"typo.lobster": typo})
	outside := workspace(t, map[string]string{"secret.lobster": typo})
	if err := os.Symlink(filepath.Join(outside, "secret.lobster"), filepath.Join(dir, "link.lobster")); err != nil {
		t.Fatal(err)
	}
	cs := client(t, newServer(dir, Options{}), "", nil)
	big := strings.Repeat("#", bounded.DefaultLimit+1)
	for _, tt := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"check", map[string]any{}, "give the workflow's text or its path"},
		{"check", map[string]any{"text": "x", "path": "typo.lobster"}, "not both"},
		{"check", map[string]any{"text": 42}, "text"},
		{"check", map[string]any{"text": big}, "files over 8388608 bytes are not checked"},
		{"check", map[string]any{"path": "../x.lobster"}, "outside the workspace roots"},
		{"check", map[string]any{"path": filepath.Join(outside, "secret.lobster")}, "outside the workspace roots"},
		{"check", map[string]any{"path": "link.lobster"}, "outside the workspace roots"},
		{"check", map[string]any{"path": "missing.lobster"}, "no such file"},
		{"check", map[string]any{"path": "."}, "directory"},
		{"explain", map[string]any{"code": "no-such-code"}, `no documentation for "no-such-code"`},
		{"graph", map[string]any{"path": "typo.lobster", "format": "png"}, "format must be one of: mermaid, dot, ascii"},
		{"plan", map[string]any{"path": "typo.lobster", "args": "x"}, "args"},
		{"plan", map[string]any{"text": "steps: 3\n"}, "cannot be planned: the file does not load"},
	} {
		res := callTool(t, cs, tt.tool, tt.args, nil)
		if got := errorText(t, res); !strings.Contains(got, tt.want) {
			t.Errorf("%s %v: %q, want it to say %q", tt.tool, tt.args, got, tt.want)
		}
	}
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "nope"}); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("an unknown tool: %v", err)
	}
	// A state the server did not sign is refused.
	_, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "check", Arguments: map[string]any{"text": "x"}, RequestState: "e30.AAAA"})
	if err == nil || !strings.Contains(err.Error(), "requestState") {
		t.Errorf("a forged requestState: %v", err)
	}
	// Still serving.
	if res := callTool(t, cs, "check", map[string]any{"path": "typo.lobster"}, nil); res.IsError {
		t.Error(errorText(t, res))
	}
}

func TestFix(t *testing.T) {
	dir := workspace(t, map[string]string{"typo.lobster": typo})
	cs := client(t, newServer(dir, Options{}), "", nil)
	var out FixOutput
	if res := callTool(t, cs, "fix", map[string]any{"path": "typo.lobster"}, &out); res.IsError {
		t.Fatal(errorText(t, res))
	}
	if !out.Changed || out.Applied != 1 || !strings.Contains(out.Text, `stdin: $build.stdout`) || len(out.Edits) != 1 || len(out.Diagnostics) != 0 {
		t.Errorf("%+v", out)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "typo.lobster")); string(data) != typo {
		t.Error("fix wrote the file")
	}
	var again FixOutput
	callTool(t, cs, "fix", map[string]any{"text": out.Text}, &again)
	if again.Changed || again.Applied != 0 || again.Text != out.Text {
		t.Errorf("fixing a fixed text: %+v", again)
	}
}

func TestExplain(t *testing.T) {
	cs := client(t, newServer(workspace(t, nil), Options{}), "", nil)
	var out ExplainOutput
	callTool(t, cs, "explain", map[string]any{"code": "unknown-step-ref"}, &out)
	want, _ := check.Explain("unknown-step-ref")
	if out.Text != want || out.Code != "unknown-step-ref" {
		t.Errorf("%+v", out)
	}
}

func TestPlanAndGraph(t *testing.T) {
	wf := "args:\n  who: {default: world}\nsteps:\n  - id: greet\n    run: echo hello ${who}\n  - id: use\n    run: echo \"$gret.stdout\"\n"
	dir := workspace(t, map[string]string{"w.lobster": wf})
	cs := client(t, newServer(dir, Options{}), "", nil)
	var p PlanOutput
	if res := callTool(t, cs, "plan", map[string]any{"path": "w.lobster", "args": map[string]any{"who": "you"}}, &p); res.IsError {
		t.Fatal(errorText(t, res))
	}
	if !strings.Contains(p.Text, "echo hello you") || p.Errors != 1 || p.Plan == nil || p.File != "w.lobster" {
		t.Errorf("plan of a file with an error: %+v", p)
	}
	for _, format := range []string{"", "mermaid", "dot", "ascii"} {
		var g GraphOutput
		if res := callTool(t, cs, "graph", map[string]any{"path": "w.lobster", "format": format}, &g); res.IsError {
			t.Fatal(errorText(t, res))
		}
		if !strings.Contains(g.Graph, "greet") || g.Errors != 1 || (format != "" && g.Format != format) {
			t.Errorf("graph %q: %+v", format, g)
		}
	}
}

func TestSchema(t *testing.T) {
	cs := client(t, newServer(workspace(t, nil), Options{}), "", nil)
	res := callTool(t, cs, "schema", nil, nil)
	got, _ := json.Marshal(res.StructuredContent)
	var want any
	json.Unmarshal(schema.JSON, &want)
	wantJSON, _ := json.Marshal(want)
	if !bytes.Equal(got, wantJSON) {
		t.Error("the schema tool's output is not the committed schema")
	}
}

func TestResources(t *testing.T) {
	dir := workspace(t, map[string]string{"a.lobster": typo, "deep/b.lobster": typo, ".hidden/c.lobster": typo, "node_modules/d.lobster": typo, "notes.txt": "x",
		"f.lobster.yaml": typo, "deep/g.lobster.json": `{"steps": [{"id": "a", "run": "echo"}]}`, "data.json": `{"steps": [{"id": "a", "run": "echo"}]}`, ".lobsterrc.yaml": "rules: {}\n"})
	outside := workspace(t, map[string]string{"e.lobster": typo})
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			cs := client(t, newServer(dir, Options{}), p.version, nil)
			ctx := context.Background()
			var uris []string
			for r, err := range cs.Resources(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				uris = append(uris, r.URI)
				if strings.HasPrefix(r.URI, "file:") && strings.HasSuffix(r.URI, ".json") && r.MIMEType != "application/json" {
					t.Errorf("%s: %s", r.URI, r.MIMEType)
				}
			}
			want := []string{"file://" + dir + "/a.lobster", "file://" + dir + "/deep/b.lobster",
				"file://" + dir + "/f.lobster.yaml", "file://" + dir + "/deep/g.lobster.json",
				"lobster://docs/diagnostics.md", "lobster://schema/lobster.schema.json"}
			if _, err := os.Stat("../docs/workflow-format.md"); err == nil {
				want = append(want, "lobster://docs/workflow-format.md")
			}
			slices.Sort(uris)
			slices.Sort(want)
			if !slices.Equal(uris, want) {
				t.Errorf("resources\n%v\nwant\n%v", uris, want)
			}
			read := func(uri string) (string, error) {
				res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
				if err != nil {
					return "", err
				}
				return res.Contents[0].Text, nil
			}
			if got, err := read("lobster://docs/diagnostics.md"); err != nil || got != check.Markdown(check.All) {
				t.Errorf("diagnostics reference: %v", err)
			}
			if got, err := read("lobster://schema/lobster.schema.json"); err != nil || got != string(schema.JSON) {
				t.Errorf("schema: %v", err)
			}
			if got, err := read("file://" + dir + "/deep/b.lobster"); err != nil || got != typo {
				t.Errorf("a workspace file: %q, %v", got, err)
			}
			for _, uri := range []string{"file://" + outside + "/e.lobster", "file://" + dir + "/notes.txt", "file://" + dir + "/missing.lobster"} {
				if _, err := read(uri); err == nil {
					t.Errorf("%s was served", uri)
				}
			}
		})
	}
}

func TestPrompt(t *testing.T) {
	cs := client(t, newServer(workspace(t, nil), Options{}), "", nil)
	ctx := context.Background()
	res, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "write-workflow", Arguments: map[string]string{"task": "back up the database nightly", "path": "backup.lobster"}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Messages[0].Content.(*sdk.TextContent).Text
	for _, want := range []string{"back up the database nightly", "backup.lobster", "Call the check tool", "approval", "$id.json"} {
		if !strings.Contains(text, want) {
			t.Errorf("the prompt does not say %q", want)
		}
	}
	if _, err := cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: "write-workflow"}); err == nil {
		t.Error("no task: no error")
	}
}

// TestRoots: paths resolve against the client's first root and must lie
// in one; a sub-workflow outside them is not read.
func TestRoots(t *testing.T) {
	a := workspace(t, map[string]string{"w.lobster": typo, "parent.lobster": "steps:\n  - id: child\n    workflow: ../x/child.lobster\n"})
	b := workspace(t, map[string]string{"only-b.lobster": "steps:\n  - id: ok\n    run: echo ok\n"})
	x := filepath.Join(filepath.Dir(a), "x")
	os.MkdirAll(x, 0o755)
	os.WriteFile(filepath.Join(x, "child.lobster"), []byte("steps: 3\n"), 0o644)
	t.Cleanup(func() { os.RemoveAll(x) })
	server := workspace(t, map[string]string{"w.lobster": typo})
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			cs := client(t, newServer(server, Options{}), p.version, nil, b, a)
			var out CheckOutput
			if res := callTool(t, cs, "check", map[string]any{"path": "only-b.lobster"}, &out); res.IsError || len(out.Diagnostics) != 0 {
				t.Errorf("a relative path in the second root: %+v", out)
			}
			callTool(t, cs, "check", map[string]any{"path": filepath.Join(a, "w.lobster")}, &out)
			if out.Errors != 1 {
				t.Errorf("a file of the second root: %+v", out)
			}
			res := callTool(t, cs, "check", map[string]any{"path": filepath.Join(server, "w.lobster")}, nil)
			if !strings.Contains(errorText(t, res), "outside the workspace roots") {
				t.Error("the server's directory is not a root when the client declares roots")
			}
			// The child lies outside the roots: it is reported as unreadable,
			// its text is never read.
			text, _ := os.ReadFile(filepath.Join(a, "parent.lobster"))
			callTool(t, cs, "check", map[string]any{"text": string(text), "filename": filepath.Join(a, "parent.lobster")}, &out)
			for _, d := range out.Diagnostics {
				if strings.Contains(d.Message, "steps must be") {
					t.Errorf("the child outside the roots was read: %s", d.Message)
				}
			}
		})
	}
}

// recorder is an elicitation handler that answers with action and
// content, and records the requests.
type recorder struct {
	mu       sync.Mutex
	action   string
	content  map[string]any
	messages []string
	schemas  []string
}

func (r *recorder) handle(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.messages = append(r.messages, req.Params.Message)
	s, _ := json.Marshal(req.Params.RequestedSchema)
	r.schemas = append(r.schemas, string(s))
	res := &sdk.ElicitResult{Action: r.action}
	if r.action == "accept" {
		res.Content = r.content
	}
	return res, nil
}

const deploy = `steps:
  - id: build
    run: echo built
  - id: confirm
    approval:
      prompt: Deploy the build?
      preview: artifact app-1
    run: echo checked
  - id: deploy
    run: echo deployed
    when: $confirm.approved
`

const guarded = `steps:
  - id: gate
    run: echo v2
    approval:
      prompt: Ship it?
      required_approver: ann
  - id: ship
    run: echo shipped
`

// envelopeOf is the envelope of a run's output.
func envelopeOf(t *testing.T, out RunOutput) map[string]any {
	t.Helper()
	env, ok := out.Envelope.(map[string]any)
	if !ok {
		t.Fatalf("no envelope: %+v", out)
	}
	return env
}

func TestRunElicitation(t *testing.T) {
	for _, p := range onEngines(protocols) {
		t.Run(p.name, func(t *testing.T) {
			dir := workspace(t, map[string]string{"deploy.lobster": deploy, "guarded.lobster": guarded})
			srv := newServer(dir, onEngine(t, p.engine, Options{AllowRun: true}))
			rec := &recorder{}
			cs := client(t, srv, p.version, &sdk.ClientOptions{ElicitationHandler: rec.handle})

			// Accepted: the run goes on.
			rec.action, rec.content = "accept", map[string]any{"approve": true}
			var out RunOutput
			if res := callTool(t, cs, "run", map[string]any{"path": "deploy.lobster"}, &out); res.IsError {
				t.Fatal(errorText(t, res))
			}
			env := envelopeOf(t, out)
			if env["status"] != "ok" || !slices.Equal(toStrings(env["output"]), []string{"deployed\n"}) {
				t.Errorf("accepted: %v", env)
			}
			if len(rec.messages) != 1 || !strings.Contains(rec.messages[0], "Deploy the build?") || !strings.Contains(rec.messages[0], "artifact app-1") {
				t.Errorf("the person was asked %q", rec.messages)
			}

			// Accepted without approving, and declined: rejected, the run is cancelled.
			for _, answer := range []struct {
				action  string
				content map[string]any
			}{{"accept", map[string]any{"approve": false}}, {"decline", nil}} {
				rec.action, rec.content = answer.action, answer.content
				callTool(t, cs, "run", map[string]any{"path": "deploy.lobster"}, &out)
				if env := envelopeOf(t, out); env["status"] != "cancelled" {
					t.Errorf("%s: %v", answer.action, env)
				}
			}

			// Cancelled (dismissed): the run stays paused; resume asks again.
			rec.action = "cancel"
			callTool(t, cs, "run", map[string]any{"path": "deploy.lobster"}, &out)
			env = envelopeOf(t, out)
			req, _ := env["requiresApproval"].(map[string]any)
			if env["status"] != "needs_approval" || req["prompt"] != "Deploy the build?" || req["resumeToken"] == "" {
				t.Fatalf("dismissed: %v", env)
			}
			rec.action, rec.content = "accept", map[string]any{"approve": true}
			if res := callTool(t, cs, "resume", map[string]any{"approvalId": req["approvalId"]}, &out); res.IsError {
				t.Fatal(errorText(t, res))
			}
			if env := envelopeOf(t, out); env["status"] != "ok" {
				t.Errorf("asked again through resume: %v", env)
			}
			if last := rec.messages[len(rec.messages)-1]; !strings.Contains(last, "Deploy the build?") {
				t.Errorf("resume asked %q", last)
			}

			// The gate's identity policy applies to the person's answer.
			rec.content = map[string]any{"approve": true, "approvedBy": "bob"}
			res := callTool(t, cs, "run", map[string]any{"path": "guarded.lobster"}, &out)
			if !res.IsError || !strings.Contains(errorText(t, res), "requires approver 'ann', got 'bob'") {
				t.Errorf("the wrong approver: %+v", out)
			}
			if s := rec.schemas[len(rec.schemas)-1]; !strings.Contains(s, "approvedBy") {
				t.Errorf("the form does not ask who approves: %s", s)
			}
			rec.content = map[string]any{"approve": true, "approvedBy": "ann"}
			callTool(t, cs, "run", map[string]any{"path": "guarded.lobster"}, &out)
			if env := envelopeOf(t, out); env["status"] != "ok" {
				t.Errorf("the right approver: %v", env)
			}
		})
	}
}

func toStrings(v any) []string {
	items, _ := v.([]any)
	var out []string
	for _, it := range items {
		s, _ := it.(string)
		out = append(out, s)
	}
	return out
}

// TestAgentApproval: without elicitation a gate returns needs_approval,
// and the agent's approval is refused unless the server allows it.
func TestAgentApproval(t *testing.T) {
	for _, name := range engineNames {
		t.Run(name, func(t *testing.T) { testAgentApproval(t, name) })
	}
}

func testAgentApproval(t *testing.T, engineName string) {
	dir := workspace(t, map[string]string{"deploy.lobster": deploy})
	for _, allow := range []bool{false, true} {
		cs := client(t, newServer(dir, onEngine(t, engineName, Options{AllowRun: true, AllowAgentApproval: allow})), "", nil)
		var out RunOutput
		callTool(t, cs, "run", map[string]any{"path": "deploy.lobster"}, &out)
		env := envelopeOf(t, out)
		req, _ := env["requiresApproval"].(map[string]any)
		if env["status"] != "needs_approval" || !strings.Contains(out.Note, "lobster resume --id") {
			t.Fatalf("allow %v: %v %s", allow, env, out.Note)
		}
		res := callTool(t, cs, "resume", map[string]any{"token": req["resumeToken"], "approve": true}, &out)
		if !allow {
			if !strings.Contains(errorText(t, res), "refused: an approval gate is for a person") {
				t.Error("the agent's approval was not refused")
			}
			// Without approve and without elicitation: refused too, saying how.
			res = callTool(t, cs, "resume", map[string]any{"token": req["resumeToken"]}, nil)
			if !strings.Contains(errorText(t, res), "cannot ask them") {
				t.Error("no way to ask, no refusal")
			}
			// Rejecting is the agent's to do.
			callTool(t, cs, "resume", map[string]any{"token": req["resumeToken"], "approve": false}, &out)
			if env := envelopeOf(t, out); env["status"] != "cancelled" {
				t.Errorf("rejected by the agent: %v", env)
			}
			continue
		}
		if env := envelopeOf(t, out); env["status"] != "ok" {
			t.Errorf("approved by the agent when allowed: %v", env)
		}
	}
}

// TestInputGate: the agent answers an input gate through resume.
func TestInputGate(t *testing.T) {
	for _, name := range engineNames {
		t.Run(name, func(t *testing.T) { testInputGate(t, name) })
	}
}

func testInputGate(t *testing.T, engineName string) {
	wf := `steps:
  - id: ask
    input:
      prompt: How many?
      responseSchema: {type: object, properties: {n: {type: number}}, required: [n]}
  - id: use
    run: echo "$N"
    env: {N: $ask.response.n}
`
	dir := workspace(t, map[string]string{"ask.lobster": wf})
	cs := client(t, newServer(dir, onEngine(t, engineName, Options{AllowRun: true})), "", &sdk.ClientOptions{ElicitationHandler: (&recorder{action: "cancel"}).handle})
	var out RunOutput
	if res := callTool(t, cs, "run", map[string]any{"path": "ask.lobster"}, &out); res.IsError {
		t.Fatal(errorText(t, res))
	}
	env := envelopeOf(t, out)
	req, _ := env["requiresInput"].(map[string]any)
	if env["status"] != "needs_input" || req == nil {
		t.Fatalf("%v", env)
	}
	res := callTool(t, cs, "resume", map[string]any{"token": req["resumeToken"], "response": map[string]any{"n": "three"}}, &out)
	if !res.IsError {
		t.Errorf("a response that fails the schema: %v", out.Envelope)
	}
	callTool(t, cs, "resume", map[string]any{"token": req["resumeToken"], "response": map[string]any{"n": 3}}, &out)
	if env := envelopeOf(t, out); env["status"] != "ok" {
		t.Errorf("answered: %v %s", env, out.Log)
	}
}

func TestRunValidation(t *testing.T) {
	dir := workspace(t, map[string]string{"typo.lobster": typo})
	cs := client(t, newServer(dir, Options{AllowRun: true}), "", nil)
	var out RunOutput
	res := callTool(t, cs, "run", map[string]any{"path": "typo.lobster"}, nil)
	if !strings.Contains(errorText(t, res), "validation_error") || !strings.Contains(errorText(t, res), "unknown-step-ref") {
		t.Errorf("%s", errorText(t, res))
	}
	if res := callTool(t, cs, "run", map[string]any{"path": "typo.lobster", "engine": "warp"}, &out); !strings.Contains(errorText(t, res), `unknown engine "warp"`) {
		t.Error("an unknown engine")
	}
}

// TestProgressAndCancel: a run reports each step, and a cancelled call
// stops the run.
func TestProgressAndCancel(t *testing.T) {
	marker := "never"
	wf := "steps:\n  - id: one\n    run: echo 1\n  - id: two\n    run: echo 2\n  - id: slow\n    run: sleep 30 && touch " + marker + "\n"
	dir := workspace(t, map[string]string{"slow.lobster": wf})
	var mu sync.Mutex
	var got []string
	started := make(chan struct{})
	returned := make(chan string, 10)
	srv := newServer(dir, Options{AllowRun: true})
	srv.afterCall = func(tool string) { returned <- tool }
	cs := client(t, srv, "", &sdk.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *sdk.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, req.Params.Message)
			if strings.Contains(req.Params.Message, "slow") {
				close(started)
			}
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	begin := time.Now()
	go func() {
		_, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "run", Arguments: map[string]any{"path": "slow.lobster"}, Meta: sdk.Meta{"progressToken": "p1"}})
		done <- err
	}()
	select {
	case <-started:
	case <-time.After(20 * time.Second):
		t.Fatal("no progress for the slow step")
	}
	cancel()
	if err := <-done; err == nil {
		t.Error("the cancelled call succeeded")
	}
	mu.Lock()
	want := []string{"step 1/3 one: running", "step 2/3 two: running", "step 3/3 slow: running"}
	if !slices.Equal(got, want) {
		t.Errorf("progress %q, want %q", got, want)
	}
	mu.Unlock()
	// The run stops: the call returns long before the slow step would
	// have finished, and it never finishes.
	select {
	case tool := <-returned:
		if tool != "run" {
			t.Errorf("%s returned", tool)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the cancelled run went on")
	}
	if d := time.Since(begin); d > 20*time.Second {
		t.Errorf("the cancelled run took %v", d)
	}
	if _, err := os.Stat(filepath.Join(dir, marker)); err == nil {
		t.Error("the slow step finished")
	}
}

// TestStdioBadLines: on standard I/O, a line that is not one JSON-RPC
// message gets an error response, and the server goes on.
func TestStdioBadLines(t *testing.T) {
	srv := newServer(workspace(t, nil), Options{})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(context.Background(), inR, outW) }()
	lines := bufio.NewReader(outR)
	send := func(s string) {
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	next := func() string {
		line, err := lines.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		return line
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if got := next(); !strings.Contains(got, `"id":1,"result"`) {
		t.Fatalf("initialize: %s", got)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for i, bad := range []string{"garbage", "42", "[]", "{}", `{"jsonrpc":"2.0","id":7}`, `{"jsonrpc":"2.0","id":{},"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":10,"method":"ping"}]`, "{" + strings.Repeat(" ", maxLine) + "}"} {
		send(bad)
		if got := next(); !strings.Contains(got, `"id":null,"error":{"code":-32`) {
			t.Errorf("%.40q: %s", bad, got)
		}
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, 100+i))
		if got := next(); !strings.Contains(got, fmt.Sprintf(`"id":%d,"result"`, 100+i)) {
			t.Errorf("after %.40q: %s", bad, got)
		}
	}
	inW.Close()
	if err := <-done; err != nil && !errors.Is(err, io.EOF) {
		t.Errorf("serve: %v", err)
	}
}

// TestProjectConfig: the tools check and preview a workflow with its
// project configuration, as lobster check does, and report the
// configuration's own problems; a configuration above the client's roots
// is not read.
func TestProjectConfig(t *testing.T) {
	const cfg = "rules: {unknown-step-ref: warning}\ncommands:\n  ado.pr.monitor:\n    flags: {pr: {type: int, required: true}}\n    json: true\nbogus: 1\n"
	const wf = "steps:\n  - id: watch\n    pipeline: ado.pr.monitor --pr 3\n  - id: use\n    run: cat\n    stdin: $wach.json\n"
	dir := workspace(t, map[string]string{".lobsterrc.yaml": cfg, "w.lobster": wf, "sub/w.lobster": wf})
	codes := func(diags []source.Diagnostic) string {
		var out []string
		for _, d := range diags {
			out = append(out, d.File+":"+d.Severity.String()+":"+d.Code)
		}
		return strings.Join(out, " ")
	}
	cs := client(t, newServer(dir, Options{}), "", nil)
	var out CheckOutput
	if res := callTool(t, cs, "check", map[string]any{"path": "w.lobster"}, &out); res.IsError {
		t.Fatal(errorText(t, res))
	}
	if got, want := codes(out.Diagnostics), ".lobsterrc.yaml:warning:config-unknown-key w.lobster:warning:unknown-step-ref"; got != want {
		t.Errorf("check with the configuration:\n got %s\nwant %s", got, want)
	}
	var p PlanOutput
	if res := callTool(t, cs, "plan", map[string]any{"path": "w.lobster"}, &p); res.IsError {
		t.Fatal(errorText(t, res))
	}
	if p.Errors != 0 || !strings.Contains(codes(p.Diagnostics), "w.lobster:warning:unknown-step-ref") {
		t.Errorf("plan with the configuration: %d errors, %s", p.Errors, codes(p.Diagnostics))
	}

	// The client's root is sub/: the configuration above it is not the
	// workspace's.
	cs = client(t, newServer(dir, Options{}), "", nil, filepath.Join(dir, "sub"))
	out = CheckOutput{}
	if res := callTool(t, cs, "check", map[string]any{"path": "w.lobster"}, &out); res.IsError {
		t.Fatal(errorText(t, res))
	}
	if got := codes(out.Diagnostics); !strings.Contains(got, "w.lobster:error:unknown-pipeline-command") || !strings.Contains(got, "w.lobster:error:unknown-step-ref") || strings.Contains(got, ".lobsterrc") {
		t.Errorf("check with the configuration above the root: %s", got)
	}
}

// TestShellcheckKept: shellcheck's findings on a text are kept from one
// call to the next, as the language server keeps them: checking and
// planning the same file again runs shellcheck once.
func TestShellcheckKept(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake shellcheck is a shell script")
	}
	dir := workspace(t, map[string]string{"w.lobster": "steps:\n  - id: a\n    run: echo $x\n"})
	runs := filepath.Join(t.TempDir(), "runs")
	bin := filepath.Join(t.TempDir(), "shellcheck")
	script := "#!/bin/sh\necho run >> '" + runs + "'\n" +
		`echo '{"comments":[{"file":"0.sh","line":1,"endLine":1,"column":6,"endColumn":8,"level":"info","code":2086,"message":"Double quote."}]}'` + "\nexit 1\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	cs := client(t, newServer(dir, Options{Shellcheck: bin}), "", nil)
	for i := range 3 {
		var out CheckOutput
		if res := callTool(t, cs, "check", map[string]any{"path": "w.lobster"}, &out); res.IsError || len(out.Diagnostics) != 1 || out.Diagnostics[0].Code != "shellcheck/SC2086" {
			t.Fatalf("check %d: %+v", i, out)
		}
	}
	if res := callTool(t, cs, "plan", map[string]any{"path": "w.lobster"}, nil); res.IsError {
		t.Fatal(errorText(t, res))
	}
	data, err := os.ReadFile(runs)
	if n := strings.Count(string(data), "run\n"); err != nil || n != 1 {
		t.Errorf("shellcheck ran %d times (%v), want once", n, err)
	}
}
