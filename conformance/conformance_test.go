// Package conformance runs lobster over cases recorded from the reference
// implementation (@clawdbot/lobster 2026.9.13, by scripts/record-conformance.py):
// each case's command line must give the reference's exit code and
// standard output, except in cases marked deliberate, which hold our own
// expected output next to the reference's.
package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

var updateOurs = flag.Bool("update-ours", false, "rewrite ours/exit and ours/stdout of deliberate cases from this build (review the diff)")

var lobster string // the binary under test

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "lobster-conformance-")
	if err != nil {
		panic(err)
	}
	lobster = filepath.Join(dir, "lobster")
	build := exec.Command("go", "build", "-o", lobster, "github.com/lobsterdev/lobster/cmd/lobster")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		os.RemoveAll(dir)
		panic("building lobster: " + err.Error())
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestConformance(t *testing.T) {
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

func runCase(t *testing.T, path string) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range ar.Files {
		files[f.Name] = f.Data
	}
	var args []string
	if err := json.Unmarshal(files["cmd"], &args); err != nil {
		t.Fatalf("cmd: %v", err)
	}
	work := t.TempDir()
	work, _ = filepath.EvalSymlinks(work)
	for _, f := range ar.Files {
		if f.Name == "cmd" || f.Name == "deliberate" || strings.HasPrefix(f.Name, "want/") || strings.HasPrefix(f.Name, "ours/") {
			continue
		}
		full := filepath.Join(work, f.Name)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(lobster, args...)
	cmd.Dir = work
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + work, "LOBSTER_STATE_DIR=" + filepath.Join(work, ".state")}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	gotOut := strings.ReplaceAll(stdout.String(), work, "$WORK")
	gotExit := strconv.Itoa(code)

	prefix := "want/"
	if _, deliberate := files["deliberate"]; deliberate {
		prefix = "ours/"
		if *updateOurs {
			for i, f := range ar.Files {
				switch f.Name {
				case "ours/exit":
					ar.Files[i].Data = []byte(gotExit + "\n")
				case "ours/stdout":
					ar.Files[i].Data = []byte(gotOut)
				}
			}
			if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	if want := strings.TrimSpace(string(files[prefix+"exit"])); gotExit != want {
		t.Errorf("exit %s, want %s (%s)\nstderr:\n%s", gotExit, want, prefix, stderr.String())
	}
	if want := string(files[prefix+"stdout"]); gotOut != want {
		t.Errorf("stdout (%s):\n%s\nwant:\n%s\nstderr:\n%s", prefix, gotOut, want, stderr.String())
	}
}
