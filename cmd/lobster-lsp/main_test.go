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
// standard input and output: initialize, didOpen, diagnostics, hover,
// shutdown, exit with status 0.
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
	text := "steps:\n  - id: build\n    run: make\n  - id: deploy\n    run: ./deploy.sh \"$biuld.stdout\"\n"
	if err := conn.Notify(ctx, "textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "lobster", Version: 1, Text: text,
	}}); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-diags:
		var cs []string
		for _, d := range p.Diagnostics {
			cs = append(cs, d.Code.(string))
		}
		if !strings.Contains(strings.Join(cs, " "), "unknown-step-ref") {
			t.Errorf("diagnostics %v, want unknown-step-ref", cs)
		}
	case <-ctx.Done():
		t.Fatalf("no diagnostics; stderr:\n%s", stderr.String())
	}
	var h protocol.Hover
	if _, err := conn.Call(ctx, "textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": 1, "character": 10},
	}, &h); err != nil {
		t.Fatalf("hover: %v", err)
	}
	if !strings.Contains(h.Contents.Value, "`build`") {
		t.Errorf("hover: %q", h.Contents.Value)
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
	if code := run([]string{"--bogus"}, strings.NewReader(""), &out, &errb); code != 2 {
		t.Errorf("bad flag: %d, want 2", code)
	}
	if code := run([]string{"--help"}, strings.NewReader(""), &out, &errb); code != 0 || !strings.Contains(errb.String(), "-debounce") {
		t.Errorf("--help: %d %q", code, errb.String())
	}
	out.Reset()
	if code := run([]string{"--version"}, strings.NewReader(""), &out, &errb); code != 0 || !strings.HasPrefix(out.String(), "lobster-lsp ") {
		t.Errorf("--version: %d %q", code, out.String())
	}
}
