package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lobsterdev/lobster/runtime/engines"
	"github.com/lobsterdev/lobster/runtime/temporal"
	"github.com/lobsterdev/lobster/runtime/temporal/temporaltest"
)

// engineNames are the engines the run and resume tests run on: the
// local engine, and Temporal in its in-process test environment.
var engineNames = []string{engines.Local, engines.Temporal}

// onEngines is each protocol on each engine, named engine/protocol.
func onEngines(protocols []struct{ name, version string }) []struct{ name, version, engine string } {
	var out []struct{ name, version, engine string }
	for _, e := range engineNames {
		for _, p := range protocols {
			out = append(out, struct{ name, version, engine string }{e + "/" + p.name, p.version, e})
		}
	}
	return out
}

// onEngine is opts with the engine named name as the server's default:
// for Temporal, an engine over Temporal's in-process test environment
// (workflow code, activities and child workflows in this process), the
// local engine beside it.
func onEngine(t *testing.T, name string, opts Options) Options {
	t.Helper()
	if name == engines.Local {
		return opts
	}
	backend := temporaltest.New(&temporal.Activities{})
	t.Cleanup(backend.Close)
	opts.Engines = map[string]engines.Engine{
		engines.Local:    engines.OnLocal(),
		engines.Temporal: engines.OnTemporal(temporal.NewEngine(backend, temporal.Config{})),
	}
	opts.Engine = name
	return opts
}

// comparable is the JSON text of an envelope without what differs from
// run to run (its resume token and approval id).
func comparable(t *testing.T, env map[string]any) string {
	t.Helper()
	for _, key := range []string{"requiresApproval", "requiresInput"} {
		if req, ok := env[key].(map[string]any); ok {
			delete(req, "resumeToken")
			delete(req, "approvalId")
		}
	}
	data, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestEnginesAgree runs a workflow with an approval gate on each engine,
// named by the tools' engine argument, through its pause and its resume:
// the envelopes are the same, and a pause is resumed on the engine the
// resume names.
func TestEnginesAgree(t *testing.T) {
	dir := workspace(t, map[string]string{"deploy.lobster": deploy})
	opts := onEngine(t, engines.Temporal, Options{AllowRun: true, AllowAgentApproval: true})
	opts.Engine = "" // the local engine unless a call names another
	cs := client(t, newServer(dir, opts), "", nil)

	var paused, resumed []string
	tokens := map[string]string{}
	for _, name := range engineNames {
		var out RunOutput
		if res := callTool(t, cs, "run", map[string]any{"path": "deploy.lobster", "engine": name}, &out); res.IsError {
			t.Fatalf("%s: %s", name, errorText(t, res))
		}
		env := envelopeOf(t, out)
		req, _ := env["requiresApproval"].(map[string]any)
		token, _ := req["resumeToken"].(string)
		if env["status"] != "needs_approval" || token == "" || req["approvalId"] == "" {
			t.Fatalf("%s: %v", name, env)
		}
		tokens[name] = token
		paused = append(paused, comparable(t, env))
	}
	// A resume goes to the engine it names (the server's by default),
	// as lobster resume --engine does: not to the one the token is from.
	var out RunOutput
	res := callTool(t, cs, "resume", map[string]any{"token": tokens[engines.Temporal], "approve": true}, &out)
	if text := errorText(t, res); !strings.Contains(text, "resume state not found") {
		t.Errorf("a token of a run on Temporal resumed on the local engine: %s", text)
	}
	res = callTool(t, cs, "resume", map[string]any{"token": tokens[engines.Local], "approve": true, "engine": engines.Temporal}, &out)
	if text := errorText(t, res); !strings.Contains(text, "not from a run on Temporal") {
		t.Errorf("a local token resumed on Temporal: %s", text)
	}
	for _, name := range engineNames {
		var out RunOutput
		if res := callTool(t, cs, "resume", map[string]any{"token": tokens[name], "approve": true, "engine": name}, &out); res.IsError {
			t.Fatalf("%s: %s", name, errorText(t, res))
		}
		env := envelopeOf(t, out)
		if env["status"] != "ok" {
			t.Errorf("%s: %v %s", name, env, out.Log)
		}
		resumed = append(resumed, comparable(t, env))
	}
	if paused[0] != paused[1] {
		t.Errorf("paused:\nlocal:    %s\ntemporal: %s", paused[0], paused[1])
	}
	if resumed[0] != resumed[1] {
		t.Errorf("resumed:\nlocal:    %s\ntemporal: %s", resumed[0], resumed[1])
	}

	// A person's answer goes to the engine of the run they were asked
	// about, in both protocols.
	for _, p := range protocols {
		rec := &recorder{action: "accept", content: map[string]any{"approve": true}}
		cs := client(t, newServer(dir, opts), p.version, &sdk.ClientOptions{ElicitationHandler: rec.handle})
		var out RunOutput
		if res := callTool(t, cs, "run", map[string]any{"path": "deploy.lobster", "engine": engines.Temporal}, &out); res.IsError {
			t.Fatalf("%s: %s", p.name, errorText(t, res))
		}
		if env := envelopeOf(t, out); comparable(t, env) != resumed[0] || len(rec.messages) != 1 {
			t.Errorf("%s: asked %q, then %v", p.name, rec.messages, env)
		}
	}
}

// TestEngineNotServed: a server without Temporal says how to get it.
func TestEngineNotServed(t *testing.T) {
	dir := workspace(t, map[string]string{"deploy.lobster": deploy})
	cs := client(t, newServer(dir, Options{AllowRun: true}), "", nil)
	res := callTool(t, cs, "run", map[string]any{"path": "deploy.lobster", "engine": "temporal"}, nil)
	if text := errorText(t, res); !strings.Contains(text, "start the server with --engine temporal") {
		t.Errorf("%s", text)
	}
}
