// Package conformance runs lobster over cases recorded from the reference
// implementation (@clawdbot/lobster 2026.9.13, by scripts/record-conformance.py):
// each case's command line must give the reference's exit code and
// standard output, except in cases marked deliberate, which hold our own
// expected output next to the reference's.
package conformance

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	harness "github.com/lobsterdev/lobster/internal/conformance"
)

var updateOurs = flag.Bool("update-ours", false, "rewrite ours/exit and ours/stdout of deliberate cases from this build (review the diff)")

// testVersion is the version the binary under test is built with.
const testVersion = "v0.0.0-conformance"

var (
	lobster string // the binary under test
	shims   string // the directory of the openclaw.invoke and clawd.invoke it comes with
)

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "lobster-conformance-")
	if err != nil {
		panic(err)
	}
	lobster, shims = filepath.Join(dir, "lobster"), dir
	// A release build's version, so that cases that print it are stable.
	build := exec.Command("go", "build", "-ldflags=-X github.com/lobsterdev/lobster/internal/version.version="+testVersion,
		"-o", dir+string(filepath.Separator), "github.com/lobsterdev/lobster/cmd/lobster",
		"github.com/lobsterdev/lobster/cmd/openclaw.invoke", "github.com/lobsterdev/lobster/cmd/clawd.invoke")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		os.RemoveAll(dir)
		panic("building lobster: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// touchSources opens every Go source of the module: go test's cache
// records the files a test opens (while tests run, not in TestMain), so a change to the binary's sources
// reruns the suite instead of replaying a result cached for the old
// binary.
func touchSources(root string) {
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir() && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root:
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go"):
			if f, err := os.Open(path); err == nil {
				f.Close()
			}
		}
		return nil
	})
}

func TestConformance(t *testing.T) {
	touchSources("..")
	paths, _ := filepath.Glob(filepath.Join("cases", "*.txtar"))
	if len(paths) < 30 {
		t.Fatalf("only %d cases", len(paths))
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			t.Parallel()
			runCase(t, path)
		})
	}
}

// TestDeliberateListed: every case that keeps its own output on purpose
// (a "deliberate" file) is named in the README's "Differences from the
// reference", so that the list of differences is complete.
func TestDeliberateListed(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(readme), "\n### Differences from the reference\n")
	if !ok {
		t.Fatal(`README.md has no "### Differences from the reference"`)
	}
	if end := strings.Index(section, "\n## "); end >= 0 {
		section = section[:end]
	}
	n := 0
	cases, err := harness.Glob("cases")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if !c.Deliberate() {
			continue
		}
		n++
		name := c.Name()
		if !strings.Contains(section, "`"+name+"`") && !strings.Contains(section, "`"+name+".txtar`") &&
			!strings.Contains(section, "/"+name+".txtar`") {
			t.Errorf("deliberate case %s is not named in the README's differences from the reference", name)
		}
	}
	if n == 0 {
		t.Fatal("no deliberate cases found")
	}
}

func runCase(t *testing.T, path string) {
	c, err := harness.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	work, _ := filepath.EvalSymlinks(t.TempDir())
	setup, err := c.SetUp(work, shims)
	if err != nil {
		t.Fatal(err)
	}
	defer setup.Close()
	stateDir := filepath.Join(work, ".state")
	var stderr bytes.Buffer
	out, code := setup.Replay(c, func(args []string, env map[string]string) (string, int) {
		cmd := exec.Command(lobster, args...)
		cmd.Dir = work
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + work, "LOBSTER_STATE_DIR=" + stateDir}
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		var stdout bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return stdout.String(), exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), 0
	})
	var transcript strings.Builder
	transcript.WriteString(out)
	if !c.Single {
		transcript.WriteString(harness.StateListing + harness.ListState(stateDir))
	}
	transcript.WriteString(setup.Trailer())
	gotOut := transcript.String()
	gotErr := strings.ReplaceAll(stderr.String(), work, "$WORK")
	gotExit := strconv.Itoa(code)

	if c.Deliberate() && *updateOurs {
		ar := c.Archive
		for i, f := range ar.Files {
			switch f.Name {
			case "ours/exit":
				ar.Files[i].Data = []byte(gotExit + "\n")
			case "ours/stdout":
				ar.Files[i].Data = []byte(gotOut)
			case "ours/stderr":
				ar.Files[i].Data = []byte(gotErr)
			}
		}
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	prefix := "want/"
	if c.Deliberate() {
		prefix = "ours/"
	}
	wantExit, wantOut, wantErr := c.Want()
	if gotExit != wantExit {
		t.Errorf("exit %s, want %s (%s)\nstderr:\n%s", gotExit, wantExit, prefix, stderr.String())
	}
	if gotOut != wantOut {
		t.Errorf("stdout (%s):\n%s\nwant:\n%s\nstderr:\n%s", prefix, gotOut, wantOut, stderr.String())
	}
	// A case with a compare-stderr file (the dry-run prints its plan
	// there) must give the same standard error too.
	if c.CompareStderr() && gotErr != wantErr {
		t.Errorf("stderr (%s):\n%s\nwant:\n%s", prefix, gotErr, wantErr)
	}
}
