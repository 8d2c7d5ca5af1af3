package main

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lobsterdev/lobster/internal/shim"
)

var update = flag.Bool("update", os.Getenv("LOBSTER_UPDATE") != "", "rewrite the expected output in testdata/script/*.txtar")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"lobster": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		// The shims the conformance cases on Temporal run ($SHIMS).
		"openclaw.invoke": func() { os.Exit(testShim("openclaw.invoke")) },
		"clawd.invoke":    func() { os.Exit(testShim("clawd.invoke")) },
	})
}

// testShim is the test binary run as a shim: shim.Main, which runs lobster
// (this binary again) under the shim's own name, as lobster's main does
// for the real shims; the second time it is lobster, speaking for the shim.
func testShim(name string) int {
	const again = "LOBSTERTEST_SHIM_RAN"
	if os.Getenv(again) != "" {
		os.Unsetenv(again)
		referenceVoice = true
		return run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	}
	os.Setenv(again, "1")
	return shim.Main(name, os.Args[1:], os.Stderr)
}

func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams("testdata/script"))
}

func scriptParams(dir string) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Cmds:                scriptCmds,
		Setup: func(env *testscript.Env) error {
			// Under -race every exec'd lobster would sleep a second at
			// exit waiting for race reports from other threads.
			if os.Getenv("GORACE") == "" {
				env.Setenv("GORACE", "atexit_sleep_ms=0")
			}
			return nil
		},
	}
}

// scriptCmds are the commands the scripts have beyond testscript's.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"exitcode":   cmdExitcode,
	"exitwithin": cmdExitwithin,
	"mkfifo":     cmdMkfifo,
	"sparse":     cmdSparse,
	"unhex":      cmdUnhex,
	"waitfile":   cmdWaitfile,
}

// cmdUnhex implements "unhex NAME...": each \xHH in the files becomes the
// byte HH, so that a script can hold control characters (ESC, BEL, CR)
// that stay visible in the script itself.
func cmdUnhex(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: unhex NAME...")
	}
	hexByte := regexp.MustCompile(`\\x[0-9a-fA-F]{2}`)
	for _, name := range args {
		data, err := os.ReadFile(ts.MkAbs(name))
		ts.Check(err)
		data = hexByte.ReplaceAllFunc(data, func(m []byte) []byte {
			b, _ := strconv.ParseUint(string(m[2:]), 16, 8)
			return []byte{byte(b)}
		})
		ts.Check(os.WriteFile(ts.MkAbs(name), data, 0o644))
	}
}

// cmdExitcode implements "exitcode N program [args...]": it runs the program
// like exec and fails unless it exits with status N. Its standard output and
// error can be checked with stdout and stderr afterwards.
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exitcode")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: bad status %q", args[0])
	}
	exitcode(ts, want, args[1:])
}

// cmdExitwithin implements "exitwithin DURATION N program [args...]":
// exitcode, and the program must also finish within DURATION (it logs the
// time it took).
func cmdExitwithin(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: exitwithin DURATION N program [args...]")
	}
	limit, err := time.ParseDuration(args[0])
	if err != nil {
		ts.Fatalf("exitwithin: bad duration %q", args[0])
	}
	want, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("exitwithin: bad status %q", args[1])
	}
	start := time.Now()
	exitcode(ts, want, args[2:])
	took := time.Since(start)
	ts.Logf("%s took %v", args[2], took.Round(time.Millisecond))
	if took > limit {
		ts.Fatalf("%s took %v, more than %v", args[2], took.Round(time.Millisecond), limit)
	}
}

func exitcode(ts *testscript.TestScript, want int, args []string) {
	got := 0
	if err := ts.Exec(args[0], args[1:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[0], got, want)
	}
}

// cmdMkfifo implements "mkfifo NAME": a named pipe in the work directory.
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo NAME")
	}
	ts.Check(mkfifo(ts.MkAbs(args[0])))
}

// cmdSparse implements "sparse NAME SIZE": a file of SIZE bytes that takes
// no room on disk (where the file system allows it).
func cmdSparse(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sparse NAME SIZE")
	}
	size, err := strconv.ParseInt(args[1], 10, 64)
	ts.Check(err)
	f, err := os.Create(ts.MkAbs(args[0]))
	ts.Check(err)
	ts.Check(f.Truncate(size))
	ts.Check(f.Close())
}

// cmdWaitfile implements "waitfile NAME": it waits until NAME exists in the
// work directory, so that a script acts on a background program once that
// program has reached a point (not after a guessed sleep). It fails after
// a minute: only a hang takes that long.
func cmdWaitfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile NAME")
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(ts.MkAbs(args[0])); err == nil {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("waitfile: %s did not appear within a minute", args[0])
		}
	}
}
