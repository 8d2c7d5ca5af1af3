//go:build unix

package engine

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The cases follow the reference's own tests.

func TestOnError(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"continue runs the next step", `
steps:
  - id: fail
    run: exit 1
    on_error: continue
  - id: next
    run: echo ran
`, `ok ["ran\n"]`},
		{"the failure is visible to later steps", `
steps:
  - id: a
    run: exit 1
    on_error: continue
  - id: b
    run: exit 2
    on_error: continue
  - id: report
    run: printf '{"a":"%s","b":"%s","msg":"%s"}' "$A" "$B" "$M"
    env:
      A: $a.error
      B: $b.error
      M: $b.errorMessage
`, `ok [{"a":"true","b":"true","msg":"workflow command failed (2): exit 2"}]`},
		{"skip_rest keeps the last good output", `
steps:
  - id: good
    run: echo '{"kept":true}'
  - id: bad
    run: exit 1
    on_error: skip_rest
  - id: never
    run: echo no
`, `ok [{"kept":true}]`},
		{"a failing last step leaves the output of the good one", `
steps:
  - id: good
    run: echo '{"ok":true}'
  - id: bad
    run: exit 1
    on_error: continue
`, `ok [{"ok":true}]`},
		{"conditions see the error", `
steps:
  - id: risky
    run: exit 1
    on_error: continue
  - id: success
    run: echo success
    when: $risky.error != true
  - id: failure
    run: echo failure
    when: $risky.error == true
`, `ok ["failure\n"]`},
	}
	for _, tt := range tests {
		got, err := run(t, tt.src, "")
		if err != nil || got != tt.want {
			t.Errorf("%s: %s, %v; want %s", tt.name, got, err, tt.want)
		}
	}
	if _, err := run(t, "steps:\n  - id: a\n    run: exit 1\n    on_error: stop\n  - id: b\n    run: echo\n", ""); err == nil {
		t.Error("on_error: stop did not stop")
	}
}

func TestRetry(t *testing.T) {
	// Fails twice, then succeeds: three attempts and two [RETRY] lines.
	src := `
steps:
  - id: flaky
    run: n=$(cat "$WORK/n" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$WORK/n"; [ $n -ge 3 ] && echo "{\"attempt\":$n}" || exit 1
    retry: {max: 3, delay_ms: 20}
`
	got, log, err := runLogged(t, src, "")
	if err != nil || got != `ok [{"attempt":3}]` {
		t.Fatalf("got %s, %v", got, err)
	}
	want := "[RETRY] Step 'flaky' failed (attempt 1/3): workflow command failed (1): workflow command failed"
	if !strings.HasPrefix(log, "[RETRY] Step 'flaky' failed (attempt 1/3): workflow command failed (1): ") ||
		!strings.Contains(log, "(attempt 2/3)") || !strings.Contains(log, ". Retrying in 20ms...\n") {
		t.Errorf("log %q, want lines like %q", log, want)
	}
	// Always failing: the last error, after max attempts.
	_, log, err = runLogged(t, "steps:\n  - id: a\n    run: exit 7\n    retry: {max: 2, delay_ms: 1}\n", "")
	if err == nil || err.Error() != "workflow command failed (7): exit 7" || strings.Count(log, "[RETRY]") != 1 {
		t.Errorf("always failing: %v, log %q", err, log)
	}
}

func TestTimeout(t *testing.T) {
	_, err := run(t, "steps:\n  - id: slow\n    run: sleep 5\n    timeout_ms: 100\n", "")
	if err == nil || err.Error() != "Step 'slow' timed out after 100ms" {
		t.Errorf("timeout: %v", err)
	}
	// A timed-out attempt is retried.
	src := `
steps:
  - id: hang
    run: n=$(cat "$WORK/n" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$WORK/n"; [ $n -ge 3 ] || sleep 10; echo "{\"attempt\":$n}"
    timeout_ms: 1500
    retry: {max: 3, delay_ms: 10}
`
	// The third attempt must finish well within the timeout, also on a
	// loaded machine.
	got, log, err := runLogged(t, src, "")
	if err != nil || got != `ok [{"attempt":3}]` || !strings.Contains(log, "timed out after 1500ms") {
		t.Errorf("retry after timeouts: %s, %v, log %q", got, err, log)
	}
	// on_error applies to a timeout.
	src = `
steps:
  - id: slow
    run: sleep 5
    timeout_ms: 100
    on_error: continue
  - id: after
    run: printf '{"timedOut":"%s"}' "$T"
    env:
      T: $slow.error
    when: $slow.error == true
`
	if got, err := run(t, src, ""); err != nil || got != `ok [{"timedOut":"true"}]` {
		t.Errorf("timeout with continue: %s, %v", got, err)
	}
}

func TestRetryDelays(t *testing.T) {
	exp := retryPolicy{max: 6, exponential: true, delayMs: 500, maxDelayMs: 3000}
	for n, want := range map[int]int64{1: 500, 2: 1000, 3: 2000, 4: 3000, 5: 3000} {
		if got := exp.delay(n).Milliseconds(); got != want {
			t.Errorf("exponential delay %d = %dms, want %d", n, got, want)
		}
	}
	// Whole milliseconds, rounded as the reference rounds them.
	if got := (retryPolicy{delayMs: 10.6}).delay(1); got != 11*time.Millisecond {
		t.Errorf("delay 10.6ms = %v, want 11ms", got)
	}
	fixed := retryPolicy{delayMs: 5000, maxDelayMs: 3000}
	if got := fixed.delay(3).Milliseconds(); got != 5000 {
		t.Errorf("a fixed delay is not capped without jitter: %d", got)
	}
	jitter := retryPolicy{delayMs: 1000, maxDelayMs: 1050, jitter: true}
	for range 50 {
		if got := jitter.delay(1).Milliseconds(); got < 900 || got > 1050 {
			t.Fatalf("jitter delay %dms outside 900..1050", got)
		}
	}
}

// TestLoopPolicies: retry, timeout_ms and on_error apply to a for_each loop
// as a whole, as 2026.9.13 applies them.
func TestLoopPolicies(t *testing.T) {
	// The first item fails twice: the third attempt runs both items
	// again, so the counter ends at 4.
	src := `
steps:
  - id: loop
    for_each: $items.json
    retry: {max: 3, delay_ms: 10}
    steps:
      - id: s
        run: n=$(cat "$WORK/n" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "$WORK/n"; [ $n -ge 3 ] && echo $n || exit 1
  - id: count
    run: cat "$WORK/n"
`
	src = "steps:\n  - id: items\n    run: echo '[1,2]'\n" + strings.TrimPrefix(src, "\nsteps:\n")
	got, log, err := runLogged(t, src, "")
	if err != nil || got != `ok [4]` || strings.Count(log, "[RETRY] Step 'loop' failed (attempt ") != 2 {
		t.Errorf("loop retry: %s, %v, log %q", got, err, log)
	}
	// The timeout bounds the whole loop, not each sub-step: 3 × 200ms
	// sub-steps against 350ms.
	slow := `
steps:
  - id: items
    run: echo '[1,2,3]'
  - id: loop
    for_each: $items.json
    timeout_ms: 350
    steps:
      - id: s
        run: sleep 0.2
`
	if _, err := run(t, slow, ""); err == nil || err.Error() != "Step 'loop' timed out after 350ms" {
		t.Errorf("loop timeout: %v", err)
	}
	// on_error: continue records the loop's failure for later steps.
	tolerant := strings.Replace(slow, "timeout_ms: 350", "timeout_ms: 350\n    on_error: continue", 1) + `  - id: after
    run: printf '%s|%s' "$E" "$M"
    env:
      E: $loop.error
      M: $loop.errorMessage
`
	if got, err := run(t, tolerant, ""); err != nil || got != `ok ["true|Step 'loop' timed out after 350ms"]` {
		t.Errorf("loop on_error: %s, %v", got, err)
	}
}

// TestNoRetryAfterDispatch: an attempt that sent an OpenClaw tool call is
// never retried, whatever failed afterwards (the call may have taken
// effect), also as part of a loop, a parallel block or a sub-workflow; an
// attempt that failed before sending one is retried as usual.
func TestNoRetryAfterDispatch(t *testing.T) {
	var hits atomic.Int32
	mode := "http-error"
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		m := mode
		mu.Unlock()
		switch m {
		case "http-error":
			w.WriteHeader(503)
			io.WriteString(w, "unavailable after dispatch")
		case "timeout":
			<-r.Context().Done()
		default:
			io.WriteString(w, `{"ok":true,"result":"done"}`)
		}
	}))
	defer srv.Close()
	invoke := "openclaw.invoke --url " + srv.URL + " --tool demo --action write"
	step := func(body string) string {
		return "steps:\n  - id: data\n    run: echo '[1]'\n  - id: s\n    retry: {max: 3, delay_ms: 1}\n    timeout_ms: 2000\n" + body
	}
	tests := []struct{ name, mode, src, want string }{
		{"http error", "http-error", step("    pipeline: " + invoke + "\n"), "503"},
		{"timeout", "timeout", strings.Replace(step("    pipeline: "+invoke+"\n"), "2000", "1000", 1), "timed out after 1000ms"},
		{"downstream error", "ok", step("    pipeline: " + invoke + " | exec false\n"), "exec failed"},
		{"loop", "ok", step("    for_each: $data.json\n    steps:\n      - {id: call, pipeline: " + invoke + "}\n      - {id: after, run: exit 3}\n"), "failed (3)"},
		{"parallel", "ok", step("    parallel:\n      branches:\n        - {id: call, pipeline: " + invoke + "}\n        - {id: other, run: exit 3}\n"), "Parallel branch failed"},
	}
	for _, tt := range tests {
		mu.Lock()
		mode = tt.mode
		mu.Unlock()
		hits.Store(0)
		_, log, err := runLogged(t, tt.src, "")
		if err == nil || !strings.Contains(err.Error(), tt.want) || hits.Load() != 1 || strings.Contains(log, "[RETRY]") {
			t.Errorf("%s: %v after %d requests, log %q; want one request and no retry", tt.name, err, hits.Load(), log)
		}
	}
	// A sub-workflow's dispatch makes its parent step's attempt final.
	dir := t.TempDir()
	child := filepath.Join(dir, "child.lobster")
	os.WriteFile(child, []byte("steps:\n  - id: call\n    pipeline: "+invoke+"\n  - id: fail\n    run: exit 4\n"), 0o644)
	hits.Store(0)
	_, log, err := runLogged(t, step("    workflow: "+child+"\n"), "")
	if err == nil || hits.Load() != 1 || strings.Contains(log, "[RETRY]") {
		t.Errorf("sub-workflow: %v after %d requests, log %q", err, hits.Load(), log)
	}
	// Failing before the request goes out (here: a required flag is
	// missing) is retried.
	_, log, err = runLogged(t, step("    pipeline: openclaw.invoke --url "+srv.URL+" --tool demo\n"), "")
	if err == nil || strings.Count(log, "[RETRY]") != 2 {
		t.Errorf("before dispatch: %v, log %q; want two retries", err, log)
	}
}
