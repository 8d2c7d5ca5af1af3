//go:build unix

package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/render"
)

func TestRunShellResult(t *testing.T) {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	tests := []struct {
		text, stdin string
		want        string // Stringify of the record
	}{
		{`echo hi`, "", `{"id":"s","stdout":"hi\n"}`},
		{`echo '{"b":1,"a":[2]}'`, "", `{"id":"s","stdout":"{\"b\":1,\"a\":[2]}\n","json":{"b":1,"a":[2]}}`},
		{`echo 2`, "", `{"id":"s","stdout":"2\n","json":2}`},
		{`printf '  "x"  '`, "", `{"id":"s","stdout":"  \"x\"  ","json":"x"}`},
		{`cat`, "from stdin", `{"id":"s","stdout":"from stdin"}`},
		{`true`, "", `{"id":"s","stdout":""}`},
	}
	for _, tt := range tests {
		var stdin []byte
		if tt.stdin != "" {
			stdin = []byte(tt.stdin)
		}
		rec, err := RunShell(context.Background(), Shell{ID: "s", Text: tt.text, Env: env, Stdin: stdin})
		if err != nil {
			t.Errorf("%s: %v", tt.text, err)
			continue
		}
		if got := jsvalue.Stringify(rec, ""); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.text, got, tt.want)
		}
	}
}

func TestRunShellFailures(t *testing.T) {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
	tests := []struct{ text, want string }{
		{`echo out; echo " err " >&2; exit 3`, "workflow command failed (3): err"},
		{`echo " out "; exit 1`, "workflow command failed (1): out"},
		{`exit 2`, "workflow command failed (2): exit 2"},
		{`kill -TERM $$`, "workflow command failed (null): kill -TERM $$"},
	}
	for _, tt := range tests {
		_, err := RunShell(context.Background(), Shell{ID: "s", Text: tt.text, Env: env})
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: %v, want %q", tt.text, err, tt.want)
		}
	}
	_, err := RunShell(context.Background(), Shell{ID: "s", Text: "true", Env: append(env, "LOBSTER_SHELL=/no/such/shell")})
	if err == nil || err.Error() != errShellNotFound {
		t.Errorf("missing LOBSTER_SHELL: %v", err)
	}
}

func TestRunShellUsesLobsterShellFromStepEnv(t *testing.T) {
	bash := "/bin/bash"
	if _, err := os.Stat(bash); err != nil {
		t.Skip("no bash")
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "LOBSTER_SHELL=" + bash}
	rec, err := RunShell(context.Background(), Shell{ID: "s", Text: `echo "$BASH_VERSION" | cut -c1`, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := rec.Get("stdout"); out == "\n" {
		t.Error("LOBSTER_SHELL=/bin/bash ran another shell")
	}
}

func TestStdinAndCwd(t *testing.T) {
	w := parse(t, `
args:
  dir: {default: sub}
cwd: /workflow/default
steps:
  - id: whole
    run: cat
    stdin: $fetch.json.items
  - id: templated
    run: cat
    stdin: "items: $fetch.json.items, ${dir}"
  - id: literal
    run: cat
    stdin: {k: [1, 2]}
    cwd: ${dir}/$fetch.stdout
  - id: unknown
    run: cat
    stdin: $later.json
  - id: missing
    run: cat
    stdin: $fetch.json.nope
`)
	args := ResolveArgs(w, nil)
	results := render.Results{"fetch": jsvalue.Obj("id", "fetch", "stdout", "x\n", "json", jsvalue.Obj("items", []any{1.0, "a"}))}
	steps := w.Steps.Value.(*ast.StepList).Steps()
	want := []struct{ stdin, err string }{
		{`[1,"a"]`, ""},
		{`items: [1,"a"], sub`, ""},
		{`{"k":[1,2]}`, ""},
		{"", "Unknown step reference: later.json"},
		{"", ""},
	}
	for i, step := range steps {
		v, err := Stdin(step.Stdin, args, results)
		if want[i].err != "" {
			if err == nil || err.Error() != want[i].err {
				t.Errorf("%s: error %v, want %q", step.IDText(), err, want[i].err)
			}
			continue
		}
		if got := string(ShellStdin(v)); err != nil || got != want[i].stdin {
			t.Errorf("%s: stdin %q, %v; want %q", step.IDText(), got, err, want[i].stdin)
		}
	}
	if got := Cwd(args, steps[2].Cwd, w.Cwd); got != "sub/$fetch.stdout" {
		t.Errorf("step cwd = %q; want args substituted, references as written", got)
	}
	if got := Cwd(args, steps[0].Cwd, w.Cwd); got != "/workflow/default" {
		t.Errorf("workflow cwd = %q", got)
	}
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	rec, err := RunShell(context.Background(), Shell{ID: "s", Text: "pwd", Env: []string{"PATH=" + os.Getenv("PATH")}, Dir: filepath.Join(dir, "sub")})
	if out, _ := rec.Get("stdout"); err != nil || !strings.HasSuffix(strings.TrimSpace(out.(string)), "/sub") {
		t.Errorf("pwd in cwd = %v, %v", out, err)
	}
}

// TestOutputLimitFromStepEnv: LOBSTER_MAX_OUTPUT_BYTES is read from each
// step's environment, as the reference reads it; a bad value fails the
// step (on_error applies), not the run before it starts.
func TestOutputLimitFromStepEnv(t *testing.T) {
	src := `
steps:
  - id: small
    run: printf 12345
    env:
      LOBSTER_MAX_OUTPUT_BYTES: "5"
  - id: big
    run: printf 123456
    env:
      LOBSTER_MAX_OUTPUT_BYTES: "5"
    on_error: continue
  - id: bad
    run: printf 1
    env:
      LOBSTER_MAX_OUTPUT_BYTES: "5 bytes"
    on_error: continue
  - id: report
    run: printf '%s|%s|%s' "$S" "$B" "$X"
    env:
      S: $small.stdout
      B: $big.errorMessage
      X: $bad.errorMessage
`
	got, err := run(t, src, "")
	want := `ok ["12345|Process output exceeded 5 bytes|LOBSTER_MAX_OUTPUT_BYTES must be a positive safe integer (bytes)"]`
	if err != nil || got != want {
		t.Errorf("got %s, %v\nwant %s", got, err, want)
	}
}
