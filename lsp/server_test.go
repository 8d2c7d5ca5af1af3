package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// slowStarted receives when lobster/slow starts.
var slowStarted = make(chan struct{}, 1)

// TestMain adds requests for the tests: lobster/text returns the server's
// text of a document, lobster/panic panics, lobster/slow waits to be
// cancelled.
func TestMain(m *testing.M) {
	requests["lobster/text"] = func(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
		return map[string]string{"text": string(doc.text)}, nil
	}
	requests["lobster/panic"] = func(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
		panic("boom")
	}
	requests["lobster/slow"] = func(ctx context.Context, s *Server, doc *snapshot, raw json.RawMessage) (any, error) {
		slowStarted <- struct{}{}
		select {
		case <-ctx.Done():
		case <-time.After(10 * time.Second):
		}
		return "late", nil
	}
	os.Exit(m.Run())
}

func TestInitializeShutdownExit(t *testing.T) {
	c := newClient(t, Options{})
	// Before initialize, requests are refused.
	var h any
	err := c.callErr("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///x.lobster"}, "position": pos(0, 0)}, &h)
	var je *jsonrpc2.Error
	if !errors.As(err, &je) || je.Code != jsonrpc2.ServerNotInitialized {
		t.Fatalf("hover before initialize: %v, want ServerNotInitialized", err)
	}
	var res struct {
		Capabilities map[string]any `json:"capabilities"`
		ServerInfo   struct{ Name string }
	}
	c.call("initialize", map[string]any{"processId": 1, "capabilities": map[string]any{}}, &res)
	if res.ServerInfo.Name != "lobster-lsp" {
		t.Errorf("serverInfo.name = %q", res.ServerInfo.Name)
	}
	for _, k := range []string{"hoverProvider", "completionProvider", "definitionProvider", "referencesProvider",
		"renameProvider", "documentSymbolProvider", "documentLinkProvider", "codeActionProvider",
		"foldingRangeProvider", "semanticTokensProvider", "inlayHintProvider", "textDocumentSync"} {
		if res.Capabilities[k] == nil {
			t.Errorf("capability %s missing", k)
		}
	}
	sync := res.Capabilities["textDocumentSync"].(map[string]any)
	if sync["change"] != float64(protocol.TextDocumentSyncKindIncremental) {
		t.Errorf("textDocumentSync.change = %v, want incremental", sync["change"])
	}
	var caps struct {
		Capabilities struct {
			SemanticTokensProvider semanticTokensOptions `json:"semanticTokensProvider"`
		} `json:"capabilities"`
	}
	raw, _ := json.Marshal(res)
	if err := json.Unmarshal(raw, &caps); err != nil || len(caps.Capabilities.SemanticTokensProvider.Legend.TokenTypes) == 0 {
		t.Errorf("semantic token legend is empty (%v)", err)
	}
	// A second initialize is an error.
	if err := c.callErr("initialize", map[string]any{}, &res); err == nil {
		t.Errorf("second initialize succeeded")
	}
	// An unknown request gets MethodNotFound.
	err = c.callErr("textDocument/documentColor", map[string]any{"textDocument": map[string]any{"uri": "file:///x"}}, &h)
	if !errors.As(err, &je) || je.Code != jsonrpc2.MethodNotFound {
		t.Errorf("documentColor: %v, want MethodNotFound", err)
	}
	// shutdown with params null, then exit: Serve reports shutdown.
	c.call("shutdown", nil, nil)
	if err := c.callErr("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///x"}}, &h); err == nil {
		t.Errorf("request after shutdown succeeded")
	}
	c.notify("exit", nil)
	select {
	case ok := <-c.done:
		if !ok {
			t.Errorf("Serve returned false after shutdown")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not stop on exit")
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := start(t)
	c.notify("exit", nil)
	select {
	case ok := <-c.done:
		if ok {
			t.Errorf("Serve returned true without shutdown")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not stop on exit")
	}
}

// TestMalformedMessages sends a frame that is not JSON and one that is not
// JSON-RPC; the server logs them and keeps serving.
func TestMalformedMessages(t *testing.T) {
	serverSide, clientSide := net.Pipe()
	logBuf := &syncBuffer{}
	done := make(chan bool, 1)
	go func() { done <- Serve(context.Background(), serverSide, Options{Log: logBuf}) }()
	defer clientSide.Close()
	write := func(body string) {
		if _, err := clientSide.Write([]byte("Content-Length: " + itoa(len(body)) + "\r\n\r\n" + body)); err != nil {
			t.Fatal(err)
		}
	}
	go func() {
		write(`{not json`)
		write(`{"jsonrpc":"2.0","foo":1}`)
		write(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)
	}()
	buf := make([]byte, 4096)
	clientSide.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, err := clientSide.Read(buf)
	if err != nil {
		t.Fatalf("no reply after malformed messages: %v (log: %s)", err, logBuf.String())
	}
	if !strings.Contains(string(buf[:n]), "Content-Length") {
		t.Errorf("reply: %q", buf[:n])
	}
	if !strings.Contains(logBuf.String(), "malformed") {
		t.Errorf("log does not mention the malformed message: %s", logBuf.String())
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestPanicRecovered makes a handler panic: the client gets an error
// reply, the panic is logged and the server goes on serving.
func TestPanicRecovered(t *testing.T) {
	c := start(t)
	u := c.open("p.lobster", "steps:\n  - id: a\n    run: echo\n")
	var res any
	err := c.callErr("lobster/panic", map[string]any{"textDocument": map[string]any{"uri": u}}, &res)
	var je *jsonrpc2.Error
	if !errors.As(err, &je) || je.Code != jsonrpc2.InternalError || !strings.Contains(je.Message, "boom") {
		t.Fatalf("panicking request: %v, want an internal error naming the panic", err)
	}
	if !strings.Contains(c.logBuf.String(), "panic: boom") {
		t.Errorf("the panic is not logged: %s", c.logBuf.String())
	}
	var syms []any
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}}, &syms)
}

// TestCancelNumericID cancels a slow request by its numeric id, as VS Code
// does.
func TestCancelNumericID(t *testing.T) {
	c := start(t)
	u := c.open("s.lobster", "steps:\n  - id: a\n    run: echo\n")
	errc := make(chan error, 1)
	go func() {
		var res any
		errc <- c.callErr("lobster/slow", map[string]any{"textDocument": map[string]any{"uri": u}}, &res)
	}()
	<-slowStarted
	// The client's ids are numbers counting from 1: initialize was 1.
	c.notify("$/cancelRequest", map[string]any{"id": 2})
	select {
	case err := <-errc:
		var je *jsonrpc2.Error
		if !errors.As(err, &je) || je.Code != protocol.CodeRequestCancelled {
			t.Errorf("cancelled request: %v, want RequestCancelled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the request was not cancelled")
	}
}
