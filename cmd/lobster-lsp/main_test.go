package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/lobsterdev/lobster/internal/version"
)

// pipeRWC joins a process's stdout and stdin into one connection.
type pipeRWC struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipeRWC) Close() error {
	p.WriteCloser.Close()
	return p.ReadCloser.Close()
}

// TestEndToEnd builds lobster-lsp and runs a whole session over its
// standard input and output: initialize, didOpen and its diagnostics, every
// request the server answers, an edit and its diagnostics, save, close
// (diagnostics cleared), shutdown, exit with status 0.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "lobster-lsp")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--stdio")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(pipeRWC{stdout, stdin}))
	diags := make(chan protocol.PublishDiagnosticsParams, 16)
	conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == "textDocument/publishDiagnostics" {
			var p protocol.PublishDiagnosticsParams
			if err := json.Unmarshal(req.Params(), &p); err == nil {
				diags <- p
			}
		}
		return reply(ctx, nil, nil)
	})

	var init map[string]any
	if _, err := conn.Call(ctx, "initialize", map[string]any{"processId": os.Getpid(), "capabilities": map[string]any{}}, &init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if err := conn.Notify(ctx, "initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	u := uri.File(filepath.Join(dir, "flow.lobster"))
	text := "args:\n  target:\n    default: prod\nsteps:\n  - id: build\n    run: make ${target}\n" +
		"  - id: deploy\n    run: ./deploy.sh \"$biuld.stdout\" $LOBSTER_ARG_TARGET\n  - id: sub\n    workflow: child.lobster\n"
	child := "args:\n  region: {}\nsteps:\n  - id: c\n    run: echo ${region}\n"
	if err := os.WriteFile(filepath.Join(dir, "child.lobster"), []byte(child), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(u.Filename(), []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := conn.Notify(ctx, "textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "lobster", Version: 1, Text: text,
	}}); err != nil {
		t.Fatal(err)
	}
	waitDiags := func(version uint32) protocol.PublishDiagnosticsParams {
		t.Helper()
		for {
			select {
			case p := <-diags:
				if p.Version == version {
					return p
				}
			case <-ctx.Done():
				t.Fatalf("no diagnostics for version %d; stderr:\n%s", version, stderr.String())
			}
		}
	}
	first := waitDiags(1)
	var typo *protocol.Diagnostic
	for i, d := range first.Diagnostics {
		if d.Code == "unknown-step-ref" {
			typo = &first.Diagnostics[i]
		}
	}
	if typo == nil {
		t.Fatalf("diagnostics %+v, want unknown-step-ref", first.Diagnostics)
	}

	// Every request of the server, in turn, on the same document.
	at := func(needle string, delta int) map[string]any {
		t.Helper()
		i := strings.Index(text, needle)
		if i < 0 {
			t.Fatalf("%q not in the text", needle)
		}
		i += delta
		line := strings.Count(text[:i], "\n")
		char := i - (strings.LastIndex(text[:i], "\n") + 1)
		return map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": line, "character": char}}
	}
	with := func(params map[string]any, key string, value any) map[string]any {
		params[key] = value
		return params
	}
	doc := map[string]any{"textDocument": map[string]any{"uri": u}}
	call := func(method string, params any) string {
		t.Helper()
		var res json.RawMessage
		if _, err := conn.Call(ctx, method, params, &res); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		return string(res)
	}
	for _, tt := range []struct {
		method string
		params any
		want   []string // substrings of the JSON result
	}{
		{"textDocument/hover", at("id: build", 5), []string{"`build`", "make prod"}},
		{"textDocument/completion", at("$biuld", 1), []string{`"label":"build"`}},
		{"textDocument/definition", at("${target}", 3), []string{`"line":1`}},
		{"textDocument/references", with(at("id: build", 5), "context", map[string]any{"includeDeclaration": true}), []string{`"line":4`}},
		{"textDocument/documentHighlight", at("${target}", 3), []string{`"line":1`, `"line":5`, `"line":7`}},
		{"textDocument/prepareRename", at("id: build", 5), []string{`"line":4`}},
		{"textDocument/rename", with(at("${target}", 3), "newName", "env"), []string{`"newText":"env"`, `"newText":"ENV"`}},
		{"textDocument/documentSymbol", doc, []string{`"name":"build"`, `"name":"deploy"`, `"name":"target"`}},
		{"textDocument/documentLink", doc, []string{"child.lobster"}},
		{"textDocument/foldingRange", doc, []string{`"startLine":4`}},
		{"textDocument/semanticTokens/full", doc, []string{`"data":[`}},
		{"textDocument/inlayHint", with(doc, "range", map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 12, "character": 0}}), []string{"prod"}},
		{"textDocument/codeAction", with(map[string]any{"textDocument": map[string]any{"uri": u}, "range": typo.Range}, "context", map[string]any{"diagnostics": []any{typo}}), []string{`"kind":"quickfix"`, "build"}},
		{"textDocument/codeLens", doc, []string{"lobster.plan", "lobster.planDiff"}},
		{"workspace/executeCommand", map[string]any{"command": "lobster.plan", "arguments": []any{map[string]any{"uri": u}}}, []string{"build", "make prod"}},
	} {
		res := call(tt.method, tt.params)
		for _, w := range tt.want {
			if !strings.Contains(res, w) {
				t.Errorf("%s: %s\nwant it to contain %s", tt.method, res, w)
			}
		}
	}

	// An edit that fixes the typo, then save and close.
	fixed := strings.Replace(text, "$biuld", "$build", 1)
	if err := conn.Notify(ctx, "textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": u, "version": 2}, "contentChanges": []any{map[string]any{"text": fixed}},
	}); err != nil {
		t.Fatal(err)
	}
	for _, d := range waitDiags(2).Diagnostics {
		if d.Code == "unknown-step-ref" {
			t.Errorf("after the fix: %+v", d)
		}
	}
	for _, n := range []string{"textDocument/didSave", "textDocument/didClose"} {
		if err := conn.Notify(ctx, n, doc); err != nil {
			t.Fatal(err)
		}
	}
	if cleared := waitDiags(0); len(cleared.Diagnostics) != 0 {
		t.Errorf("diagnostics after close: %+v", cleared.Diagnostics)
	}
	if _, err := conn.Call(ctx, "shutdown", nil, nil); err != nil {
		t.Fatalf("shutdown: %v", err)
	}
	if err := conn.Notify(ctx, "exit", nil); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit: %v; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("lobster-lsp did not exit after exit")
	}
}

// TestExitCodes checks the exit status 1 when the client exits
// without shutdown, and 2 on a usage error.
func TestExitCodes(t *testing.T) {
	in := strings.NewReader("Content-Length: 33\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}")
	var out, errb bytes.Buffer
	if code := run(nil, in, &out, &errb); code != 1 {
		t.Errorf("exit without shutdown: %d, want 1", code)
	}
	// A framing error: exit 1, and standard error says why.
	errb.Reset()
	if code := run(nil, strings.NewReader("Content-Length: 5\r\n"+strings.Repeat("x", 1<<20)), &out, &errb); code != 1 ||
		!strings.Contains(errb.String(), "ending the connection: a header line is longer than 4096 bytes") {
		t.Errorf("framing error: %d, stderr %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"--bogus"}, strings.NewReader(""), &out, &errb); code != 2 || errb.String() != "lobster-lsp: there is no flag --bogus\nRun \"lobster-lsp -h\" for usage.\n" {
		t.Errorf("bad flag: %d, stderr %q", code, errb.String())
	}
	if code := run([]string{"--help"}, strings.NewReader(""), &out, &errb); code != 0 || !strings.Contains(out.String(), "--debounce") {
		t.Errorf("--help: %d %q", code, out.String())
	}
	// --version and version print the version and start no server (the
	// empty input would otherwise end it with 1).
	for _, args := range [][]string{{"--version"}, {"version"}} {
		out.Reset()
		if code := run(args, strings.NewReader(""), &out, &errb); code != 0 || out.String() != version.String()+"\n" {
			t.Errorf("%s: %d %q", args, code, out.String())
		}
	}
	if code := run([]string{"serve"}, strings.NewReader(""), &out, &errb); code != 2 || !strings.Contains(errb.String(), `unexpected argument "serve"`) {
		t.Errorf("an argument: %d, stderr %q", code, errb.String())
	}
}

// TestVersionAgrees: lobster version and lobster-lsp --version print the
// same line, from a build of this tree and from a release build.
func TestVersionAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	dir := t.TempDir()
	for _, ldflags := range []string{"", "-X github.com/lobsterdev/lobster/internal/version.version=v9.8.7"} {
		build := exec.Command("go", "build", "-ldflags="+ldflags, "-o", dir+string(filepath.Separator),
			"github.com/lobsterdev/lobster/cmd/lobster", "github.com/lobsterdev/lobster/cmd/lobster-lsp")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		lobster, err := exec.Command(filepath.Join(dir, "lobster"), "version").Output()
		if err != nil {
			t.Fatal(err)
		}
		lsp, err := exec.Command(filepath.Join(dir, "lobster-lsp"), "--version").Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(lobster) != string(lsp) || strings.Count(string(lobster), "\n") != 1 || strings.ContainsAny(strings.TrimSpace(string(lobster)), " \t") {
			t.Errorf("ldflags %q: lobster version %q, lobster-lsp --version %q", ldflags, lobster, lsp)
		}
		if ldflags != "" && string(lobster) != "v9.8.7\n" {
			t.Errorf("release build: %q", lobster)
		}
	}
}

// TestShellcheckDefault: lobster-lsp runs shellcheck by default as lobster
// check does (auto), and the VS Code extension's setting has the same
// default.
func TestShellcheckDefault(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"-h"}, strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("lobster-lsp -h: exit %d\n%s", code, errb.String())
	}
	if want := `(default auto)`; !strings.Contains(out.String(), "--shellcheck program  run shellcheck on shell text: auto, off or the program\n                        "+want) {
		t.Errorf("lobster-lsp -h does not show --shellcheck %s:\n%s", want, out.String())
	}
	data, err := os.ReadFile("../../editors/vscode/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Contributes struct {
			Configuration struct {
				Properties map[string]struct {
					Default any `json:"default"`
				} `json:"properties"`
			} `json:"configuration"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	if got := pkg.Contributes.Configuration.Properties["lobster.shellcheck"].Default; got != defaultShellcheck {
		t.Errorf("the extension's lobster.shellcheck defaults to %v; lobster-lsp and lobster check default to %q", got, defaultShellcheck)
	}
}
