package pipeline

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeOpenclaw writes a fake openclaw program and returns an Env running
// it: it prints {"argv": [...]}, or what FAKE_OC asks for.
func fakeOpenclaw(t *testing.T, mode string) *Env {
	t.Helper()
	script := `#!/bin/sh
case "$FAKE_OC" in
  fail) echo "agent broke" >&2; exit 3;;
  quiet) exit 5;;
  text) echo "hello";;
  array) echo "[1]";;
  huge) head -c 10485761 /dev/zero;;
  *) printf '{"argc":%d,"last":"%s"}\n' "$#" "$(eval echo \${$#})";;
esac
`
	bin := filepath.Join(t.TempDir(), "openclaw")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return &Env{Mode: Human, Environ: append(os.Environ(), "LOBSTER_OPENCLAW_BIN="+bin, "FAKE_OC="+mode)}
}

func TestOpenclawAgent(t *testing.T) {
	args := fakeOpenclaw(t, "args")
	checkEnv(t, args, "openclaw.agent hi --agent a --local", `[]`, `[{"argc":7,"last":"--local"}]`)
	checkEnv(t, args, "openclaw.agent hi --agent a --timeout 045", `[]`, `[{"argc":8,"last":"45"}]`)
	checkEnv(t, args, "openclaw.agent hi --session-id i --local true", `[]`, `[{"argc":6,"last":"i"}]`)
	checkEnv(t, args, "openclaw.agent hi", `[]`, "error: openclaw.agent requires --agent, --session-key, or --session-id")
	checkEnv(t, args, "openclaw.agent --agent a", `[]`, "error: openclaw.agent requires --prompt, --message, or positional text")
	checkEnv(t, args, "openclaw.agent hi --agent a --timeout -1", `[]`, "error: openclaw.agent --timeout must be a non-negative integer in seconds")
	checkEnv(t, fakeOpenclaw(t, "fail"), "openclaw.agent hi --agent a", `[]`, "error: openclaw.agent failed: agent broke")
	checkEnv(t, fakeOpenclaw(t, "quiet"), "openclaw.agent hi --agent a", `[]`, "error: openclaw.agent failed: exited with code 5")
	checkEnv(t, fakeOpenclaw(t, "text"), "openclaw.agent hi --agent a", `[]`, "error: openclaw.agent expected JSON output from `openclaw agent --json`")
	checkEnv(t, fakeOpenclaw(t, "array"), "openclaw.agent hi --agent a", `[]`, "error: openclaw.agent expected JSON output from `openclaw agent --json`")
	checkEnv(t, fakeOpenclaw(t, "huge"), "openclaw.agent hi --agent a", `[]`, "error: openclaw.agent output exceeded 10485760 bytes")
	missing := &Env{Mode: Human, Environ: []string{"LOBSTER_OPENCLAW_BIN=/no/such/openclaw"}}
	checkEnv(t, missing, "openclaw.agent hi --agent a", `[]`, "error: openclaw.agent could not find the OpenClaw CLI")
}
