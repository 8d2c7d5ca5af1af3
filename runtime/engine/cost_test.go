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

// TestLLMAnswerBilling: a provider call is billed once however its
// answer is passed on inside the run (a pipeline given it as input, a
// projection keeping its usage); usage that comes back as text (a shell
// step re-emitting it, or printing an object that claims to be an answer)
// is billed each time, so that cost_limit cannot be talked out of a
// charge by a step's output.
func TestLLMAnswerBilling(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"ok":true,"result":{"runId":"r1","model":"gpt-4o","output":{"text":"hi"},"usage":{"inputTokens":100}}}`)
	}))
	defer srv.Close()
	head := `cost_limit:
  max_usd: 0.0004
env:
  LOBSTER_LLM_ADAPTER_URL: ` + srv.URL + `/
steps:
  - id: ask
    pipeline: llm.invoke --prompt hi --model gpt-4o --disable-cache
`
	for _, tt := range []struct {
		name, steps string
		over        bool // $0.0005 > $0.0004: billed twice
	}{
		{"pipeline input", "  - id: again\n    pipeline: json\n    stdin: $ask.json\n", false},
		{"projection", "  - id: again\n    pipeline: pick model,usage\n    stdin: $ask.json\n", false},
		{"shell re-emission", "  - id: again\n    run: cat\n    stdin: $ask.json\n", true},
		{"claimed answer", "  - id: fake\n    run: echo '{\"kind\":\"llm.invoke\",\"cacheKey\":\"k\",\"replayed\":true,\"model\":\"gpt-4o\",\"usage\":{\"inputTokens\":100}}'\n", true},
	} {
		_, log, err := runLogged(t, head+tt.steps, "")
		if over := strings.Contains(log, "[WARN] Cost $0.0005 exceeds limit $0.00"); err != nil || over != tt.over {
			t.Errorf("%s: %v, log %q; billed twice: %v, want %v", tt.name, err, log, over, tt.over)
		}
	}
}
