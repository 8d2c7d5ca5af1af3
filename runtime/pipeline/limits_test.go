package pipeline

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestByteLimit(t *testing.T) {
	env := func(v string) func(string) string { return func(string) string { return v } }
	for v, want := range map[string]int64{"": DefaultMaxOutput, "  ": DefaultMaxOutput, "1024": 1024, " 007\n": 7, "9007199254740991": 1<<53 - 1} {
		if got, err := OutputLimit(env(v)); err != nil || got != want {
			t.Errorf("OutputLimit(%q) = %d, %v; want %d", v, got, err, want)
		}
	}
	for _, bad := range []string{"0", "-1", "+5", "1e3", "1.5", "0x10", "x", "9007199254740992", "99999999999999999999"} {
		if _, err := HTTPResponseLimit(env(bad)); err == nil || err.Error() != "LOBSTER_MAX_HTTP_RESPONSE_BYTES must be a positive safe integer (bytes)" {
			t.Errorf("HTTPResponseLimit(%q): %v", bad, err)
		}
	}
}

// TestOutputLimit: LOBSTER_MAX_OUTPUT_BYTES of a command's environment
// bounds its processes' output; going over fails the command.
func TestOutputLimit(t *testing.T) {
	with := func(v string) *Env {
		return &Env{Mode: Human, Environ: []string{"PATH=/usr/bin:/bin", "LOBSTER_MAX_OUTPUT_BYTES=" + v}}
	}
	checkEnv(t, with("10"), "exec --shell 'printf 0123456789'", `[]`, `["0123456789"]`)
	checkEnv(t, with("10"), "exec --shell 'printf 0123456789a'", `[]`, "error: Process output exceeded 10 bytes")
	checkEnv(t, with("10"), "exec --shell 'printf 0123456789a >&2'", `[]`, "error: Process output exceeded 10 bytes")
	checkEnv(t, with("ten"), "exec --shell 'true'", `[]`, "error: LOBSTER_MAX_OUTPUT_BYTES must be a positive safe integer (bytes)")
	// openclaw.agent keeps its own 10 MiB limit, and its message, unless
	// the variable is lower.
	agent := fakeOpenclaw(t, "args")
	agent.Environ = append(agent.Environ, "LOBSTER_MAX_OUTPUT_BYTES=5")
	checkEnv(t, agent, "openclaw.agent hi --agent a", `[]`, "error: Process output exceeded 5 bytes")
	gog := fakeGog(t, "args")
	gog.Environ = append(gog.Environ, "LOBSTER_MAX_OUTPUT_BYTES=0")
	checkEnv(t, gog, "gog.gmail.search", `[]`, "error: LOBSTER_MAX_OUTPUT_BYTES must be a positive safe integer (bytes)")
}

// TestHTTPResponseLimit: a response body over LOBSTER_MAX_HTTP_RESPONSE_BYTES
// fails the command, whether the server declares its length or not; it
// is never cut.
func TestHTTPResponseLimit(t *testing.T) {
	body := `{"ok":true,"result":"` + strings.Repeat("x", 98) + `"}` // 121 bytes
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("chunked") == "" {
			w.Header().Set("Content-Length", "121")
		} else {
			w.(http.Flusher).Flush() // no length: the body arrives in chunks
		}
		io.WriteString(w, body)
	}))
	defer srv.Close()
	with := func(v string) *Env {
		return &Env{Mode: Human, Environ: []string{"LOBSTER_MAX_HTTP_RESPONSE_BYTES=" + v}}
	}
	for _, u := range []string{srv.URL, srv.URL + "/?chunked=1"} {
		invoke := "openclaw.invoke --url " + u + " --tool t --action a"
		checkEnv(t, with("121"), invoke, `[]`, `["`+strings.Repeat("x", 98)+`"]`)
		checkEnv(t, with("120"), invoke, `[]`, "error: HTTP response body exceeded 120 bytes")
	}
	checkEnv(t, with("-"), "openclaw.invoke --url "+srv.URL+" --tool t --action a", `[]`, "error: LOBSTER_MAX_HTTP_RESPONSE_BYTES must be a positive safe integer (bytes)")
	llm := with("50")
	llm.Environ = append(llm.Environ, "LOBSTER_LLM_ADAPTER_URL="+srv.URL, "LOBSTER_CACHE_DIR="+t.TempDir())
	checkEnv(t, llm, "llm.invoke --prompt hi", `[]`, "error: llm.invoke request failed: HTTP response body exceeded 50 bytes")
}
