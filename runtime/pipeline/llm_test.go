package pipeline

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeLLM is a local LLM adapter: it answers every request with reply
// (a JSON text) and records the request bodies.
type fakeLLM struct {
	mu     sync.Mutex
	reply  string
	bodies []string
	paths  []string
	auth   []string
}

func (f *fakeLLM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	data, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	defer f.mu.Unlock()
	f.bodies = append(f.bodies, string(data))
	f.paths = append(f.paths, r.URL.Path)
	f.auth = append(f.auth, r.Header.Get("authorization"))
	io.WriteString(w, f.reply)
}

func (f *fakeLLM) calls() int { f.mu.Lock(); defer f.mu.Unlock(); return len(f.bodies) }

func newFakeLLM(t *testing.T, reply string) (*fakeLLM, string) {
	f := &fakeLLM{reply: reply}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	return f, srv.URL
}

// stripTime removes the createdAt value, which is the time of the call.
func stripTime(s string) string {
	i := strings.Index(s, `"createdAt":"`)
	if i < 0 {
		return s
	}
	j := strings.Index(s[i+13:], `"`)
	return s[:i+13] + "T" + s[i+13+j:]
}

func TestLLMInvoke(t *testing.T) {
	f, u := newFakeLLM(t, `{"ok":true,"result":{"runId":"r1","model":"m","output":{"text":"hello","data":{"a":1}},"usage":{"inputTokens":3}}}`)
	dir := t.TempDir()
	env := &Env{Mode: Human, StateDir: filepath.Join(dir, "state"), Dir: dir, BaseDir: dir,
		Environ: []string{"LOBSTER_LLM_ADAPTER_URL=" + u + "/", "LOBSTER_LLM_ADAPTER_TOKEN=tk"}}
	text := `llm.invoke --prompt 'Do it' --model gpt --temperature 0.5 --max-output-tokens 100 --metadata-json '{"m":1}'`
	items, _, err := runEnv(t, env, text, parseItems(t, `[1,"s",{"k":true},[2]]`)...)
	if err != nil {
		t.Fatal(err)
	}
	// The cache key and artifact hashes were checked against the
	// reference for this request.
	want := `[{"kind":"llm.invoke","runId":"r1","prompt":null,"model":"m","schemaVersion":"v1","status":"completed",` +
		`"cacheKey":"ecc07bfb44a54b6540389c0b1947cae1fe7b627f4d85d3e1d4f87ce3dc8c7e9f",` +
		`"artifactHashes":["15f41b99f6db3755930908399361bbb88d181698cad6a7670f84110516f7dd96","49a79d0e6133e76f85c5fa8b201484515147c15d77c1e691489abd7d6a414bc9","083f11265e69cc86c458e3b282bf580b065ffc252c62bf9a0b473a29f12b2e0c","08f0bb0c6cb3430f2f781196eb95a7c39e4c211eb1e76af05f2b55765f7c0382"],` +
		`"output":{"format":"json","text":"hello","data":{"a":1}},"usage":{"inputTokens":3},"metadata":null,"warnings":null,"diagnostics":null,` +
		`"createdAt":"T","source":"http","cached":false,"attemptCount":1}]`
	if got := stripTime(compact(items)); got != want {
		t.Errorf("item\n got %s\nwant %s", got, want)
	}
	wantBody := `{"prompt":"Do it","model":"gpt","artifacts":[{"kind":"text","text":"1"},{"kind":"text","text":"s"},{"k":true},{"kind":"json","data":[2]}],` +
		`"artifactHashes":["15f41b99f6db3755930908399361bbb88d181698cad6a7670f84110516f7dd96","49a79d0e6133e76f85c5fa8b201484515147c15d77c1e691489abd7d6a414bc9","083f11265e69cc86c458e3b282bf580b065ffc252c62bf9a0b473a29f12b2e0c","08f0bb0c6cb3430f2f781196eb95a7c39e4c211eb1e76af05f2b55765f7c0382"],` +
		`"metadata":{"m":1},"schemaVersion":"v1","maxOutputTokens":100,"temperature":0.5}`
	if f.bodies[0] != wantBody || f.paths[0] != "/invoke" || f.auth[0] != "Bearer tk" {
		t.Errorf("request %s %s %s", f.paths[0], f.auth[0], f.bodies[0])
	}

	// The same request again comes from the cache, without a call.
	items, _, err = runEnv(t, env, text, parseItems(t, `[1,"s",{"k":true},[2]]`)...)
	if err != nil || f.calls() != 1 || !strings.Contains(compact(items), `"source":"cache","cached":true,"attemptCount":1,"replayed":true`) {
		t.Errorf("cache reuse: %d calls, %s %v", f.calls(), compact(items), err)
	}
	// --refresh calls again; a run-state key then makes the next run reuse it.
	runEnv(t, env, "llm.invoke hi --state-key rs --refresh")
	items, _, _ = runEnv(t, env, "llm.invoke hi --state-key rs --disable-cache")
	if f.calls() != 2 || !strings.Contains(compact(items), `"source":"run_state"`) {
		t.Errorf("run state reuse: %d calls, %s", f.calls(), compact(items))
	}
	if _, err := os.Stat(filepath.Join(dir, "state", "rs.json")); err != nil {
		t.Errorf("run state file: %v", err)
	}

	// Output schema: a failing answer is retried with the errors, then fails.
	n := f.calls()
	_, _, err = runEnv(t, env, `llm.invoke q --output-schema '{"type":"object","required":["b"]}'`)
	if err == nil || err.Error() != "llm.invoke output failed schema validation: / must have required property 'b'" || f.calls() != n+2 {
		t.Errorf("schema retries: %v after %d calls", err, f.calls()-n)
	}
	if last := f.bodies[len(f.bodies)-1]; !strings.Contains(last, `"retryContext":{"attempt":2,"validationErrors":["/ must have required property 'b'"]}`) {
		t.Errorf("retry request %s", last)
	}
	n = f.calls()
	runEnv(t, env, `llm.invoke q2 --output-schema '{"required":["b"]}' --max-validation-retries 0`)
	if f.calls() != n+1 {
		t.Errorf("--max-validation-retries 0 made %d calls", f.calls()-n)
	}
}

func TestLLMEnvelopes(t *testing.T) {
	for reply, want := range map[string]string{
		`{"ok":false,"error":{"message":"model down"}}`: "error: llm.invoke remote error: model down",
		`{"ok":false}`:                                      "error: llm.invoke remote error: llm adapter returned an error",
		`{"ok":false,"error":"x"}`:                          "error: llm.invoke received invalid response envelope",
		`{"ok":true,"result":{}}`:                           "error: llm.invoke received invalid response envelope",
		`{"ok":true,"result":{"output":{"text":5}}}`:        "error: llm.invoke received invalid response envelope",
		`{"ok":true,"result":{"output":{},"runId":7}}`:      "error: llm.invoke received invalid response envelope",
		`{"ok":true,"result":{"output":{},"warnings":[1]}}`: "error: llm.invoke received invalid response envelope",
		`{"ok":true,"result":{"output":{},"metadata":[1]}}`: "error: llm.invoke received invalid response envelope",
		`{"result":{"output":{"text":"a"}}}`:                "error: llm.invoke received invalid response envelope",
		`{"output":{"text":"a"}}`:                           `"output":{"format":"text","text":"a","data":null}`, // the result alone
		`not json`:                                          "error: llm.invoke request failed: Response was not JSON",
		` `:                                                 "error: llm.invoke request failed: Response was not JSON",
		``:                                                  "error: llm.invoke received invalid response envelope",
		`{"ok":true,"result":{"output":{"text":"a","format":"markdown"},"status":"partial"}}`: `"output":{"format":"markdown","text":"a","data":null}`,
		`{"ok":true,"result":{"output":{}}}`:                                                  `"output":{"format":"text","text":null,"data":null}`,
	} {
		_, u := newFakeLLM(t, reply)
		env := &Env{Mode: Human, BaseDir: t.TempDir(), Environ: []string{"LOBSTER_LLM_ADAPTER_URL=" + u}}
		items, _, err := runEnv(t, env, "llm.invoke hi --disable-cache")
		got := compact(items)
		if err != nil {
			got = "error: " + err.Error()
		}
		if !strings.Contains(got, want) {
			t.Errorf("reply %s: %s, want %s", reply, got, want)
		}
	}
}

func TestLLMProviders(t *testing.T) {
	gw, u := newFakeLLM(t, `{"ok":true,"result":{"ok":true,"result":{"output":{"text":"wrapped"}}}}`)
	env := &Env{Mode: Human, BaseDir: t.TempDir(), Environ: []string{"OPENCLAW_URL=" + u + "/ignored/path", "OPENCLAW_TOKEN=gt"}}
	items, _, err := runEnv(t, env, "llm_task.invoke hi --disable-cache")
	if err != nil || !strings.Contains(compact(items), `"text":"wrapped"`) || !strings.Contains(compact(items), `"source":"clawd"`) {
		t.Fatalf("llm_task.invoke: %s %v", compact(items), err)
	}
	if gw.paths[0] != "/tools/invoke" || gw.auth[0] != "Bearer gt" || !strings.HasPrefix(gw.bodies[0], `{"tool":"llm-task","action":"invoke","args":{"prompt":"hi"`) {
		t.Errorf("gateway request %s %s %s", gw.paths[0], gw.auth[0], gw.bodies[0])
	}
	gw.reply = `{"ok":false,"error":{"message":"gw down"}}`
	if _, _, err := runEnv(t, env, "llm_task.invoke hi2 --disable-cache"); err == nil || err.Error() != "llm_task.invoke request failed: openclaw adapter error: gw down" {
		t.Errorf("gateway error: %v", err)
	}

	pi, pu := newFakeLLM(t, `{"ok":true,"result":{"output":{"text":"pi"}}}`)
	env = &Env{Mode: Human, BaseDir: t.TempDir(), Environ: []string{"LOBSTER_PI_LLM_ADAPTER_URL=" + pu + "/pi", "LOBSTER_PI_LLM_ADAPTER_TOKEN=pt", "LOBSTER_LLM_MODEL=envmodel"}}
	if items, _, err := runEnv(t, env, "llm.invoke hi --disable-cache"); err != nil || !strings.Contains(compact(items), `"source":"pi"`) {
		t.Errorf("pi: %s %v", compact(items), err)
	}
	if pi.paths[0] != "/pi" || pi.auth[0] != "Bearer pt" || !strings.Contains(pi.bodies[0], `"model":"envmodel"`) {
		t.Errorf("pi request %s %s %s", pi.paths[0], pi.auth[0], pi.bodies[0])
	}

	for text, want := range map[string]string{
		"llm.invoke --provider pi --model m":                "llm.invoke requires --prompt or positional text",
		"llm.invoke hi":                                     "llm.invoke could not resolve a provider. Set --provider or LOBSTER_LLM_PROVIDER",
		"llm.invoke hi --provider nope":                     "Unsupported llm provider: nope",
		"llm.invoke hi --provider http":                     "llm.invoke requires LOBSTER_LLM_ADAPTER_URL for provider=http",
		"llm_task.invoke hi":                                "llm_task.invoke requires OPENCLAW_URL (or CLAWD_URL) for provider=openclaw",
		"llm.invoke hi --provider pi --artifacts-json '{}'": "llm.invoke --artifacts-json must be a JSON array",
		"llm.invoke hi --provider pi --metadata-json '[1]'": "llm.invoke --metadata-json must be a JSON object",
		"llm.invoke hi --provider pi --output-schema x":     "llm.invoke --output-schema must be a JSON object",
	} {
		env := &Env{Mode: Human, BaseDir: t.TempDir()}
		if strings.Contains(text, "--provider pi ") {
			env.Environ = []string{"LOBSTER_PI_LLM_ADAPTER_URL=http://127.0.0.1:9"}
		}
		if _, _, err := runEnv(t, env, text); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", text, err, want)
		}
	}
}
