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
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
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
	paths, _ := filepath.Glob(filepath.Join("cases", "*.txtar"))
	n := 0
	for _, path := range paths {
		ar, err := txtar.ParseFile(path)
		if err != nil {
			t.Fatal(err)
		}
		deliberate := false
		for _, f := range ar.Files {
			deliberate = deliberate || f.Name == "deliberate"
		}
		if !deliberate {
			continue
		}
		n++
		name := strings.TrimSuffix(filepath.Base(path), ".txtar")
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
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range ar.Files {
		files[f.Name] = f.Data
	}
	seq, single, err := parseCmd(files["cmd"])
	if err != nil {
		t.Fatalf("cmd: %v", err)
	}
	work := t.TempDir()
	work, _ = filepath.EvalSymlinks(work)
	// "$SHIMS" is the directory of the openclaw.invoke and clawd.invoke
	// programs (a login shell may reset PATH), "$SERVER" the URL of a
	// case's fake HTTP endpoint.
	var srv *fakeServer
	server := func(s string) string { return strings.ReplaceAll(s, "$SHIMS", shims) }
	if spec, ok := files["server.json"]; ok {
		if srv, err = startServer(spec); err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		server = func(s string) string {
			return strings.NewReplacer("$SERVER", srv.URL, "$SHIMS", shims).Replace(s)
		}
	}
	for _, f := range ar.Files {
		if harnessFile(f.Name) {
			continue
		}
		full := filepath.Join(work, f.Name)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(server(string(f.Data))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stateDir := filepath.Join(work, ".state")
	var transcript strings.Builder
	var stderr bytes.Buffer
	code := 0
	var token, id string
	for _, c := range seq {
		args := make([]string, len(c.Args))
		for i, a := range c.Args {
			args[i] = server(strings.NewReplacer("$TOKEN", token, "$ID", id).Replace(a))
		}
		cmd := exec.Command(lobster, args...)
		cmd.Dir = work
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + work, "LOBSTER_STATE_DIR=" + stateDir}
		for k, v := range c.Env {
			cmd.Env = append(cmd.Env, k+"="+server(v))
		}
		var stdout bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err = cmd.Run()
		code = 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if tok, i := pauseIDs(stdout.Bytes()); tok != "" {
			token, id = tok, i
		}
		out := strings.ReplaceAll(stdout.String(), work, "$WORK")
		if srv != nil {
			out = strings.ReplaceAll(out, srv.URL, "$SERVER")
		}
		if single {
			transcript.WriteString(out)
			continue
		}
		fmt.Fprintf(&transcript, "$ lobster %s\n[exit %d]\n%s", strings.Join(c.Args, " "), code, normalizeIDs(out))
	}
	if !single {
		transcript.WriteString("$ ls .state\n" + listState(stateDir))
	}
	if srv != nil {
		n, log := srv.requests()
		fmt.Fprintf(&transcript, "[server: %d request(s)]\n%s", n, log)
	}
	gotOut := transcript.String()
	gotErr := strings.ReplaceAll(stderr.String(), work, "$WORK")
	gotExit := strconv.Itoa(code)
	_, compareStderr := files["compare-stderr"]

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
				case "ours/stderr":
					ar.Files[i].Data = []byte(gotErr)
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
	// A case with a compare-stderr file (the dry-run prints its plan
	// there) must give the same standard error too.
	if want := string(files[prefix+"stderr"]); compareStderr && gotErr != want {
		t.Errorf("stderr (%s):\n%s\nwant:\n%s", prefix, gotErr, want)
	}
}

// A step of a case: one lobster command line with extra environment.
// Arguments may name the last pause's token and approval id as $TOKEN and
// $ID.
type step struct {
	Args []string          `json:"args"`
	Env  map[string]string `json:"env"`
}

// parseCmd reads a case's cmd: one command line (a JSON array of strings)
// or a sequence of steps, whose stdout is a transcript with tokens and
// ids normalised and the state directory listed at the end.
func parseCmd(data []byte) (seq []step, single bool, err error) {
	var args []string
	if json.Unmarshal(data, &args) == nil {
		return []step{{Args: args}}, true, nil
	}
	err = json.Unmarshal(data, &seq)
	return seq, false, err
}

// pauseIDs are the resume token and approval id of a paused run's
// envelope, if it is one.
func pauseIDs(stdout []byte) (token, id string) {
	var env struct {
		RequiresApproval *struct{ ResumeToken, ApprovalID string } `json:"requiresApproval"`
		RequiresInput    *struct{ ResumeToken string }             `json:"requiresInput"`
	}
	if json.Unmarshal(stdout, &env) != nil {
		return "", ""
	}
	switch {
	case env.RequiresApproval != nil:
		return env.RequiresApproval.ResumeToken, env.RequiresApproval.ApprovalID
	case env.RequiresInput != nil:
		return env.RequiresInput.ResumeToken, ""
	}
	return "", ""
}

var (
	tokenField = regexp.MustCompile(`"resumeToken": "[A-Za-z0-9_-]+"`)
	idField    = regexp.MustCompile(`"approvalId": "[0-9a-f]{8}"`)
	idText     = regexp.MustCompile(`Approval ID \\"[0-9a-f]{8}\\"`)
	uuid       = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	approvalID = regexp.MustCompile(`^approval_[0-9a-f]{8}\.json$`)
)

// normalizeIDs replaces what differs between runs: tokens and ids.
func normalizeIDs(s string) string {
	s = tokenField.ReplaceAllString(s, `"resumeToken": "<token>"`)
	s = idField.ReplaceAllString(s, `"approvalId": "<id>"`)
	return idText.ReplaceAllString(s, `Approval ID \"<id>\"`)
}

// listState lists the state directory, one normalised name per line, a
// claimed state marked as a tombstone.
func listState(dir string) string {
	entries, _ := os.ReadDir(dir)
	var lines []string
	for _, e := range entries {
		name := uuid.ReplaceAllString(e.Name(), "<uuid>")
		if approvalID.MatchString(name) {
			name = "approval_<id>.json"
		}
		if data, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && bytes.Contains(data, []byte("lobster.consumed-resume-state.v1")) {
			name += " (tombstone)"
		}
		lines = append(lines, name+"\n")
	}
	sort.Strings(lines)
	return strings.Join(lines, "")
}

// harnessFile says a case's file is for the harness, not the run's
// directory.
func harnessFile(name string) bool {
	return name == "cmd" || name == "deliberate" || name == "compare-stderr" || name == "server.json" ||
		strings.HasPrefix(name, "want/") || strings.HasPrefix(name, "ours/")
}

// A fakeServer is the HTTP endpoint of a case with a server.json: every
// request gets the same answer, {"status": N, "body": "...", "hang": bool}
// (hang: no answer until the client gives up), and the requests are
// counted. "$SERVER" in the case's files, arguments and environment is its
// URL, and its URL in the output is "$SERVER"; the transcript ends with
// the number of requests, and with "log": true, each request: "> METHOD
// PATH", its authorization header when it has one, and "> BODY".
// scripts/record-conformance.py does the same.
type fakeServer struct {
	*httptest.Server
	mu    sync.Mutex
	count int
	log   strings.Builder
}

func startServer(spec []byte) (*fakeServer, error) {
	var answer struct {
		Status int    `json:"status"`
		Body   string `json:"body"`
		Hang   bool   `json:"hang"`
		Log    bool   `json:"log"`
	}
	if err := json.Unmarshal(spec, &answer); err != nil {
		return nil, fmt.Errorf("server.json: %v", err)
	}
	if answer.Status == 0 {
		answer.Status = 200
	}
	f := &fakeServer{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		f.count++
		if answer.Log {
			fmt.Fprintf(&f.log, "> %s %s\n", r.Method, r.URL.RequestURI())
			if auth, ok := r.Header["Authorization"]; ok {
				fmt.Fprintf(&f.log, "> authorization: %s\n", strings.Join(auth, ", "))
			}
			fmt.Fprintf(&f.log, "> %s\n", strings.ToValidUTF8(string(body), "\uFFFD"))
		}
		f.mu.Unlock()
		if answer.Hang {
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(answer.Body)))
		w.WriteHeader(answer.Status)
		io.WriteString(w, answer.Body)
	}))
	return f, nil
}

func (f *fakeServer) requests() (int, string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.count, f.log.String()
}
