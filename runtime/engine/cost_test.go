package engine

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestLLMUsageIsBilled: the usage llm.invoke reports (here from a local
// fake adapter) counts against cost_limit like any step output's usage.
func TestLLMUsageIsBilled(t *testing.T) {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		io.WriteString(w, `{"ok":true,"result":{"runId":"r1","model":"gpt-4o","output":{"text":"hi"},"usage":{"inputTokens":100}}}`)
	}))
	defer srv.Close()
	src := `cost_limit:
  max_usd: 0.0001
  action: stop
env:
  LOBSTER_LLM_ADAPTER_URL: ` + srv.URL + `/
steps:
  - id: ask
    pipeline: llm.invoke --prompt hi --model gpt-4o --disable-cache
  - id: after
    run: echo never
`
	_, err := run(t, src, "")
	if err == nil || err.Error() != "Cost limit exceeded: $0.0003 > $0.00 limit" || calls != 1 {
		t.Errorf("got %v after %d calls; want the cost limit after one call", err, calls)
	}
	got, log, err := runLogged(t, strings.Replace(src, "action: stop", "action: warn", 1), "")
	if err != nil || !strings.Contains(got, "never") || !strings.Contains(log, "[WARN] Cost $0.0003 exceeds limit $0.00") {
		t.Errorf("warn: %s, %v, log %q", got, err, log)
	}
}

// TestLLMAnswerBilledOnce: an answer re-emitted by a later step (the same
// kind and cache key) is billed once; a shell step printing usage of its
// own is billed as always.
func TestLLMAnswerBilledOnce(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"ok":true,"result":{"runId":"r1","model":"gpt-4o","output":{"text":"hi"},"usage":{"inputTokens":100}}}`)
	}))
	defer srv.Close()
	src := `cost_limit:
  max_usd: 0.0003
env:
  LOBSTER_LLM_ADAPTER_URL: ` + srv.URL + `/
steps:
  - id: ask
    pipeline: llm.invoke --prompt hi --model gpt-4o --disable-cache
  - id: again
    run: cat
    stdin: $ask.json
`
	got, log, err := runLogged(t, src, "")
	if err != nil || !strings.Contains(got, `"kind":"llm.invoke"`) || strings.Contains(log, "exceeds limit") {
		t.Errorf("re-emitted answer: %s, %v, log %q", got, err, log)
	}
	fake := src + `  - id: fake
    run: echo '{"model":"gpt-4o","usage":{"inputTokens":100}}'
`
	if _, log, err := runLogged(t, fake, ""); err != nil || !strings.Contains(log, "[WARN] Cost $0.0005 exceeds limit $0.00") {
		t.Errorf("own usage: %v, log %q", err, log)
	}
}
