package pipeline

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeGog writes a fake gog program that prints its arguments as a JSON
// array of strings, or what FAKE_GOG asks for, and returns an Env that
// runs it.
func fakeGog(t *testing.T, mode string) *Env {
	t.Helper()
	dir := t.TempDir()
	script := `#!/bin/sh
case "$FAKE_GOG" in
  fail) echo "quota exceeded" >&2; exit 7;;
  text) echo "not json";;
  threads) echo '[{"threads":[{"id":"t1"},{"id":"t2"}]},{"id":"m3"}]';;
  sent) echo '{"id":"sent"}';;
  empty) ;;
  *) printf '['; sep=''; for a in "$@"; do printf '%s"%s"' "$sep" "$a"; sep=','; done; printf ']\n';;
esac
`
	bin := filepath.Join(dir, "gog")
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return &Env{Mode: Human, Environ: append(os.Environ(), "GOG_BIN="+bin, "FAKE_GOG="+mode)}
}

func checkEnv(t *testing.T, env *Env, text, input, want string) {
	t.Helper()
	items, _, err := runEnv(t, env, text, parseItems(t, input)...)
	got := compact(nonNil(items))
	if err != nil {
		got = "error: " + err.Error()
	}
	if got != want {
		t.Errorf("%s:\n got %s\nwant %s", text, got, want)
	}
}

func TestGog(t *testing.T) {
	args := fakeGog(t, "args")
	checkEnv(t, args, "gog.gmail.search", `[]`, `["gmail","search","newer_than:1d","--json","--max","20"]`)
	checkEnv(t, args, "gog.gmail.search --query 'from:me' --limit 05", `[]`, `["gmail","search","from:me","--json","--max","5"]`)
	checkEnv(t, args, "gog.gmail.search --max", `[]`, `["gmail","search","newer_than:1d","--json","--max","1"]`)
	checkEnv(t, fakeGog(t, "threads"), "gog.gmail.search", `[]`, `[{"id":"t1"},{"id":"t2"},{"id":"m3"}]`)
	checkEnv(t, fakeGog(t, "fail"), "gog.gmail.search", `[]`, "error: gog.gmail.search failed (7): quota exceeded\n")
	checkEnv(t, fakeGog(t, "text"), "gog.gmail.search", `[]`, "error: gog.gmail.search expected JSON output")

	drafts := `[{"to":"a@x","subject":" Hi ","body":"B"},{"to":"b@x"}]`
	checkEnv(t, args, "gog.gmail.send", drafts, `[["gmail","send","--to","a@x","--subject","Hi","--body","B","--json"],["gmail","send","--to","b@x","--json"]]`)
	checkEnv(t, args, "gog.gmail.send", `[{"to":"--help","subject":"-x"}]`, `[["gmail","send","--to=--help","--subject=-x","--json"]]`)
	checkEnv(t, fakeGog(t, "sent"), "gog.gmail.send", drafts, `[{"id":"sent"},{"id":"sent"}]`)
	checkEnv(t, fakeGog(t, "empty"), "gog.gmail.send", drafts, `[{"ok":true},{"ok":true}]`)
	checkEnv(t, fakeGog(t, "text"), "gog.gmail.send", `[{"to":"a"}]`, `[{"ok":true,"raw":"not json\n"}]`)
	checkEnv(t, fakeGog(t, "fail"), "gog.gmail.send --dry-run", drafts,
		`[{"ok":true,"dryRun":true,"to":"a@x","subject":"Hi","body":"B"},{"ok":true,"dryRun":true,"to":"b@x","subject":"","body":""}]`)
	checkEnv(t, fakeGog(t, "fail"), "gog.gmail.send", drafts, "error: gog.gmail.send failed (7): quota exceeded\n")
	checkEnv(t, args, "gog.gmail.send", `[1]`, "error: gog.gmail.send expects draft objects")
	checkEnv(t, args, "gog.gmail.send", `[{"to":"  "}]`, "error: gog.gmail.send draft missing to")

	missing := &Env{Mode: Human, Environ: []string{"GOG_BIN=/no/such/gog", "PATH=" + os.Getenv("PATH")}}
	checkEnv(t, missing, "gog.gmail.search", `[]`, "error: gog not found on PATH (install: https://github.com/steipete/gogcli)")
}
