// Package conformance reads the conformance cases of conformance/cases
// (recorded from the reference by scripts/record-conformance.py) for the
// suites that replay them: the binary against the local engine, and the
// Temporal engine in a test environment or against a dev server.
package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/txtar"
)

// A Case is one conformance case.
type Case struct {
	Path    string
	Archive *txtar.Archive
	Files   map[string][]byte // every file of the archive by name
	// Steps are its command lines; Single is set when cmd is one command
	// line (its stdout is compared as is, not as a transcript).
	Steps  []Step
	Single bool
}

// A Step is one lobster command line with extra environment. Arguments may
// name the last pause's token and approval id as $TOKEN and $ID.
type Step struct {
	Args []string          `json:"args"`
	Env  map[string]string `json:"env"`
}

// Read reads the case at path.
func Read(path string) (*Case, error) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		return nil, err
	}
	c := &Case{Path: path, Archive: ar, Files: map[string][]byte{}}
	for _, f := range ar.Files {
		c.Files[f.Name] = f.Data
	}
	var args []string
	if json.Unmarshal(c.Files["cmd"], &args) == nil {
		c.Steps, c.Single = []Step{{Args: args}}, true
		return c, nil
	}
	if err := json.Unmarshal(c.Files["cmd"], &c.Steps); err != nil {
		return nil, err
	}
	return c, nil
}

// Glob reads every case under dir.
func Glob(dir string) ([]*Case, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, err
	}
	var cases []*Case
	for _, p := range paths {
		c, err := Read(p)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// Name is the case's name: its file name without .txtar.
func (c *Case) Name() string { return strings.TrimSuffix(filepath.Base(c.Path), ".txtar") }

// Deliberate says whether the case holds our own expected output.
func (c *Case) Deliberate() bool { _, ok := c.Files["deliberate"]; return ok }

// CompareStderr says whether standard error is compared too.
func (c *Case) CompareStderr() bool { _, ok := c.Files["compare-stderr"]; return ok }

// Want is the expected exit code, stdout and stderr: ours/ for a
// deliberate case, else the reference's.
func (c *Case) Want() (exit, stdout, stderr string) {
	prefix := "want/"
	if c.Deliberate() {
		prefix = "ours/"
	}
	return strings.TrimSpace(string(c.Files[prefix+"exit"])), string(c.Files[prefix+"stdout"]), string(c.Files[prefix+"stderr"])
}

// harnessFile says a case's file is for the harness, not the run's
// directory.
func harnessFile(name string) bool {
	return name == "cmd" || name == "deliberate" || name == "compare-stderr" || name == "server.json" ||
		strings.HasPrefix(name, "want/") || strings.HasPrefix(name, "ours/")
}

// A Setup is a case's files written into a directory, with the case's
// fake HTTP endpoint when it has a server.json: every request gets the
// same answer, {"status": N, "body": "...", "hang": bool} (hang: no answer
// until the client gives up), and requests are counted; with "log": true
// each request is recorded too (see Trailer). In files, arguments and
// environment, "$SERVER" is its URL and "$SHIMS" the directory of the
// openclaw.invoke and clawd.invoke programs. scripts/record-conformance.py
// does the same.
type Setup struct {
	Dir   string
	srv   *httptest.Server
	mu    sync.Mutex
	count int
	log   strings.Builder
	shims string
}

// SetUp writes the case's files into dir and starts its server.
func (c *Case) SetUp(dir, shims string) (*Setup, error) {
	s := &Setup{Dir: dir, shims: shims}
	if spec, ok := c.Files["server.json"]; ok {
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
		s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			s.mu.Lock()
			s.count++
			if answer.Log {
				fmt.Fprintf(&s.log, "> %s %s\n", r.Method, r.URL.RequestURI())
				if auth, ok := r.Header["Authorization"]; ok {
					fmt.Fprintf(&s.log, "> authorization: %s\n", strings.Join(auth, ", "))
				}
				fmt.Fprintf(&s.log, "> %s\n", strings.ToValidUTF8(string(body), "\uFFFD"))
			}
			s.mu.Unlock()
			if answer.Hang {
				<-r.Context().Done()
				return
			}
			w.Header().Set("Content-Length", strconv.Itoa(len(answer.Body)))
			w.WriteHeader(answer.Status)
			io.WriteString(w, answer.Body)
		}))
	}
	for _, f := range c.Archive.Files {
		if harnessFile(f.Name) {
			continue
		}
		full := filepath.Join(dir, f.Name)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(full, []byte(s.Expand(string(f.Data))), 0o644); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Expand replaces $SHIMS and $SERVER in text.
func (s *Setup) Expand(text string) string {
	text = strings.ReplaceAll(text, "$SHIMS", s.shims)
	if s.srv != nil {
		text = strings.ReplaceAll(text, "$SERVER", s.srv.URL)
	}
	return text
}

// Output is a command's output as the case records it: the directory is
// $WORK, the server's URL $SERVER.
func (s *Setup) Output(out string) string {
	out = strings.ReplaceAll(out, s.Dir, "$WORK")
	if s.srv != nil {
		out = strings.ReplaceAll(out, s.srv.URL, "$SERVER")
	}
	return out
}

// Trailer ends a transcript: the number of requests the server had and,
// with "log": true, each request: "> METHOD PATH", its authorization
// header when it has one, and "> BODY".
func (s *Setup) Trailer() string {
	if s.srv == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("[server: %d request(s)]\n%s", s.count, s.log.String())
}

// Close stops the server.
func (s *Setup) Close() {
	if s.srv != nil {
		s.srv.Close()
	}
}

// RunsWorkflow says whether the case runs a workflow file: one of its
// commands runs one of its files (not a dry run). Its other commands may
// resume that run.
func (c *Case) RunsWorkflow() bool {
	for _, s := range c.Steps {
		if len(s.Args) == 0 || s.Args[0] != "run" {
			continue
		}
		dry, file := false, false
		for _, a := range s.Args[1:] {
			if a == "--dry-run" {
				dry = true
			}
			if _, ok := c.Files[a]; ok && a != "cmd" {
				file = true
			}
		}
		if file && !dry {
			return true
		}
	}
	return false
}

// Replay runs the case's commands one after another with run, which gets
// each command's arguments and environment with $TOKEN and $ID (of the
// last pause), $SERVER and $SHIMS replaced. It returns what the case
// records as standard output, without the state listing and the server's
// trailer: a single command's output as is, else a transcript with ids
// normalised; and the last command's exit code.
func (s *Setup) Replay(c *Case, run func(args []string, env map[string]string) (stdout string, code int)) (transcript string, code int) {
	var b strings.Builder
	var token, id string
	for _, step := range c.Steps {
		args := Expand(step.Args, token, id)
		for i, a := range args {
			args[i] = s.Expand(a)
		}
		env := map[string]string{}
		for k, v := range step.Env {
			env[k] = s.Expand(v)
		}
		var stdout string
		stdout, code = run(args, env)
		if tok, i := PauseIDs([]byte(stdout)); tok != "" {
			token, id = tok, i
		}
		out := s.Output(stdout)
		if c.Single {
			b.WriteString(out)
			continue
		}
		fmt.Fprintf(&b, "$ lobster %s\n[exit %d]\n%s", strings.Join(step.Args, " "), code, NormalizeIDs(out))
	}
	return b.String(), code
}

// Expand replaces $TOKEN and $ID in args.
func Expand(args []string, token, id string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strings.NewReplacer("$TOKEN", token, "$ID", id).Replace(a)
	}
	return out
}

// PauseIDs are the resume token and approval id of a paused run's
// envelope, if it is one.
func PauseIDs(stdout []byte) (token, id string) {
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

// NormalizeIDs replaces what differs between runs: tokens and ids.
func NormalizeIDs(s string) string {
	s = tokenField.ReplaceAllString(s, `"resumeToken": "<token>"`)
	s = idField.ReplaceAllString(s, `"approvalId": "<id>"`)
	return idText.ReplaceAllString(s, `Approval ID \"<id>\"`)
}

// ListState lists a state directory, one normalised name per line, a
// claimed state marked as a tombstone.
func ListState(dir string) string {
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

// StateListing is where a transcript lists the state directory.
const StateListing = "$ ls .state\n"

// WithoutState is a transcript without its listing of the state
// directory, which only the local engine keeps (the server's line stays).
func WithoutState(transcript string) string {
	i := strings.LastIndex(transcript, StateListing)
	if i < 0 {
		return transcript
	}
	rest := transcript[i:]
	if j := strings.Index(rest, "[server: "); j >= 0 {
		return transcript[:i] + rest[j:]
	}
	return transcript[:i]
}
