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

// TestDispatch: the commands whose request must never be sent twice report
// it right before sending (an agent turn, a mail, a tool call), whatever
// comes back; the others, and those that fail before sending, do not.
func TestDispatch(t *testing.T) {
	count := func(env *Env, text, input string) int {
		n := 0
		env.Dispatch = func() { n++ }
		runEnv(t, env, text, parseItems(t, input)...)
		return n
	}
	for _, tt := range []struct {
		env         *Env
		text, input string
		want        int
	}{
		{fakeOpenclaw(t, "fail"), "openclaw.agent hi --agent a", `[]`, 1},
		{fakeOpenclaw(t, "args"), "openclaw.agent hi", `[]`, 0}, // refused before sending
		{fakeGog(t, "fail"), "gog.gmail.send", `[{"to":"a"}]`, 1},
		{fakeGog(t, "args"), "gog.gmail.send", `[{"to":"a"},{"to":"b"}]`, 2},
		{fakeGog(t, "args"), "gog.gmail.send --dry-run", `[{"to":"a"}]`, 0},
		{fakeGog(t, "args"), "gog.gmail.search", `[]`, 0},
		{&Env{Mode: Human}, "openclaw.invoke --url http://127.0.0.1:1 --tool t --action a", `[]`, 1},
		{&Env{Mode: Human}, "openclaw.invoke --url http://127.0.0.1:1 --tool t", `[]`, 0},
	} {
		if got := count(tt.env, tt.text, tt.input); got != tt.want {
			t.Errorf("%s: %d dispatches, want %d", tt.text, got, tt.want)
		}
	}
}
