package pipeline

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// fakeGateway is a local OpenClaw gateway: the tool name picks the answer;
// every request is recorded.
func fakeGateway(t *testing.T) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var body struct{ Tool string }
		json.Unmarshal(data, &body)
		mu.Lock()
		seen = append(seen, fmt.Sprintf("%s %s auth=%q ct=%q %s", r.Method, r.URL.Path, r.Header.Get("authorization"), r.Header.Get("content-type"), data))
		mu.Unlock()
		switch body.Tool {
		case "ok":
			io.WriteString(w, `{"ok":true,"result":[1,{"b":2}]}`)
		case "one":
			io.WriteString(w, `{"ok":true,"result":{"x":1}}`)
		case "err":
			io.WriteString(w, `{"ok":false,"error":{"message":"bad thing"}}`)
		case "errnomsg":
			io.WriteString(w, `{"ok":"yes"}`)
		case "raw":
			io.WriteString(w, `[3,4]`)
		case "status":
			w.WriteHeader(503)
			io.WriteString(w, strings.Repeat("x", 500))
		case "text":
			io.WriteString(w, "not json")
		case "empty":
		default:
			io.WriteString(w, `{"ok":true,"result":"done"}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), seen...) }
}

func TestOpenclawInvoke(t *testing.T) {
	srv, seen := fakeGateway(t)
	u := srv.URL
	check(t, "openclaw.invoke --url "+u+"/some/path --tool ok --action a", `[]`, `[1,{"b":2}]`)
	check(t, "clawd.invoke --url "+u+" --tool one --action a", `[]`, `[{"x":1}]`)
	check(t, "openclaw.invoke --url "+u+" --tool raw --action a", `[]`, `[3,4]`)
	check(t, "openclaw.invoke --url "+u+" --tool empty --action a", `[]`, `[null]`)
	checkErr(t, "openclaw.invoke --url "+u+" --tool err --action a", `[]`, "openclaw.invoke tool error: bad thing")
	checkErr(t, "clawd.invoke --url "+u+" --tool errnomsg --action a", `[]`, "clawd.invoke tool error: Unknown error")
	checkErr(t, "openclaw.invoke --url "+u+" --tool status --action a", `[]`, "openclaw.invoke failed (503): "+strings.Repeat("x", 400))
	checkErr(t, "openclaw.invoke --url "+u+" --tool text --action a", `[]`, "openclaw.invoke expected JSON response")

	n := len(seen())
	check(t, "openclaw.invoke --url "+u+"/x?y=1 --tool send --action go --args-json '{\"c\":1}' --session-key s1 --dry-run false --token tk", `[9]`, `["done"]`)
	got := seen()[n:]
	want := `POST /tools/invoke auth="Bearer tk" ct="application/json" {"tool":"send","action":"go","args":{"c":1},"sessionKey":"s1","dryRun":true}`
	if len(got) != 1 || got[0] != want {
		t.Errorf("request %q\nwant %q", got, want)
	}

	n = len(seen())
	check(t, "openclaw.invoke --url "+u+" --tool send --action a --each --item-key msg --args-json '{\"c\":1}'", `["a",{"b":1}]`, `["done","done"]`)
	got = seen()[n:]
	if len(got) != 2 || !strings.HasSuffix(got[0], `"args":{"c":1,"msg":"a"}}`) || !strings.HasSuffix(got[1], `"args":{"c":1,"msg":{"b":1}}}`) {
		t.Errorf("--each requests %q", got)
	}

	checkErr(t, "openclaw.invoke", `[]`, "openclaw.invoke requires --url or OPENCLAW_URL")
	checkErr(t, "openclaw.invoke --url "+u, `[]`, "openclaw.invoke requires --tool and --action")
	checkErr(t, "openclaw.invoke --url ftp://x --tool a --action b", `[]`, "openclaw.invoke requires an http(s) --url")
	checkErr(t, "openclaw.invoke --url "+u+" --tool a --action b --args-json nope", `[]`, "openclaw.invoke --args-json must be valid JSON")
	checkErr(t, "openclaw.invoke --url "+u+" --tool a --action b --args-json [1] --each", `[]`, "openclaw.invoke --each requires --args-json to be an object")
}

func TestOpenclawCredentialGuard(t *testing.T) {
	srv, seen := fakeGateway(t)
	// An environment token goes to a local URL...
	env := &Env{Mode: Human, Environ: []string{"OPENCLAW_URL=" + srv.URL, "OPENCLAW_TOKEN=envtok"}}
	items, _, err := runEnv(t, env, "openclaw.invoke --tool ok --action a")
	if err != nil || compact(items) != `[1,{"b":2}]` {
		t.Fatalf("local: %s %v", compact(items), err)
	}
	if got := seen(); len(got) != 1 || !strings.Contains(got[0], `auth="Bearer envtok"`) {
		t.Errorf("requests %q", got)
	}
	// ...never to another host, and nothing is sent.
	for _, environ := range [][]string{
		{"OPENCLAW_TOKEN=envtok"},
		{"CLAWD_TOKEN=envtok"},
	} {
		env := &Env{Mode: Human, Environ: environ}
		_, _, err := runEnv(t, env, "clawd.invoke --url https://example.com --tool a --action b")
		if err == nil || err.Error() != "clawd.invoke refuses to send OPENCLAW_TOKEN/CLAWD_TOKEN to non-local --url; pass --token explicitly for remote endpoints" {
			t.Errorf("%v: %v", environ, err)
		}
	}
	// CLAWD_URL is read when OPENCLAW_URL is not set.
	env = &Env{Mode: Human, Environ: []string{"CLAWD_URL=" + srv.URL}}
	if items, _, err := runEnv(t, env, "openclaw.invoke --tool one --action a"); err != nil || compact(items) != `[{"x":1}]` {
		t.Errorf("CLAWD_URL: %s %v", compact(items), err)
	}
}
