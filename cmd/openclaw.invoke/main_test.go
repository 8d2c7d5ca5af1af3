package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// build installs lobster and the two shims into a temporary directory,
// as go install ./cmd/... does, once for the tests of the package.
func build(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "lobster-shims-"); buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", binDir+string(filepath.Separator),
			"github.com/lobsterdev/lobster/cmd/lobster", "github.com/lobsterdev/lobster/cmd/openclaw.invoke", "github.com/lobsterdev/lobster/cmd/clawd.invoke")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// TestFromRunStep: a workflow's shell step calls the OpenClaw tool API
// through the shims, as the reference's README suggests; the arguments
// reach the gateway unchanged, and a failure is the step's failure.
func TestFromRunStep(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the programs")
	}
	bin := build(t)
	var mu sync.Mutex
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, r.URL.Path+" "+r.Header.Get("authorization")+" "+string(data))
		mu.Unlock()
		if strings.Contains(string(data), `"tool":"broken"`) {
			w.WriteHeader(502)
			io.WriteString(w, "gateway down")
			return
		}
		io.WriteString(w, `{"ok":true,"result":{"sent":true}}`)
	}))
	defer srv.Close()
	work := t.TempDir()
	wf := filepath.Join(work, "w.lobster")
	os.WriteFile(wf, []byte(`steps:
  - id: send
    run: $SHIMS/openclaw.invoke --tool message --action send --args-json '{"text":"a \"b\" $x \\ `+"`"+`c`+"`"+`"}'
  - id: alias
    run: $SHIMS/clawd.invoke --tool message --action send --dry-run
  - id: broken
    run: $SHIMS/openclaw.invoke --tool broken --action x
    on_error: continue
  - id: report
    run: printf '%s|%s|%s' "$SENT" "$ALIAS" "$ERR"
    env:
      SENT: $send.json.0.sent
      ALIAS: $alias.json.0.sent
      ERR: $broken.errorMessage
`), 0o644)
	cmd := exec.Command(filepath.Join(bin, "lobster"), "run", "--mode", "tool", wf)
	cmd.Dir = work
	// A login shell (sh -lc) may reset PATH from /etc/profile, so the
	// step names the installed shims' directory.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + work, "SHIMS=" + bin,
		"OPENCLAW_URL=" + srv.URL, "OPENCLAW_TOKEN=tk"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("run: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	want := `"true|true|workflow command failed (1): Error: openclaw.invoke failed (502): gateway down"`
	if !strings.Contains(stdout.String(), want) {
		t.Errorf("output %s\nwant %s\nstderr %s", stdout.String(), want, stderr.String())
	}
	mu.Lock()
	defer mu.Unlock()
	wantBodies := []string{
		`/tools/invoke Bearer tk {"tool":"message","action":"send","args":{"text":"a \"b\" $x \\ ` + "`c`" + `"}}`,
		`/tools/invoke Bearer tk {"tool":"message","action":"send","args":{},"dryRun":true}`,
		`/tools/invoke Bearer tk {"tool":"broken","action":"x","args":{}}`,
	}
	if strings.Join(bodies, "\n") != strings.Join(wantBodies, "\n") {
		t.Errorf("requests:\n%s\nwant:\n%s", strings.Join(bodies, "\n"), strings.Join(wantBodies, "\n"))
	}
}

// TestExitCodes: the shim exits with lobster's code, and explains when
// there is no lobster to run.
func TestExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the programs")
	}
	bin := build(t)
	run := func(dir string, args ...string) (int, string) {
		cmd := exec.Command(filepath.Join(dir, "openclaw.invoke"), args...)
		cmd.Env = []string{"PATH=" + dir, "HOME=" + dir}
		out, err := cmd.CombinedOutput()
		code := 0
		if e, ok := err.(*exec.ExitError); ok {
			code = e.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, string(out)
	}
	if code, out := run(bin, "--tool", "t", "--action", "a"); code != 1 || out != "Error: openclaw.invoke requires --url or OPENCLAW_URL\n" {
		t.Errorf("no url: exit %d, %q", code, out)
	}
	if code, out := run(bin, "--url", "http://127.0.0.1:1", "--tool", "t", "--action", "a"); code != 1 || out != "Error: fetch failed\n" {
		t.Errorf("unreachable: exit %d, %q", code, out)
	}
	alone := t.TempDir()
	data, _ := os.ReadFile(filepath.Join(bin, "openclaw.invoke"))
	os.WriteFile(filepath.Join(alone, "openclaw.invoke"), data, 0o755)
	if code, out := run(alone, "--tool", "t"); code != 1 || !strings.HasPrefix(out, "openclaw.invoke failed to spawn lobster: ") {
		t.Errorf("without lobster: exit %d, %q", code, out)
	}
}
