package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// client is a fake editor driving a server in-process over a pipe.
type client struct {
	t       *testing.T
	conn    jsonrpc2.Conn
	done    chan bool // the server's Serve result
	logBuf  *syncBuffer
	dir     string
	version map[protocol.DocumentURI]int32

	mu       sync.Mutex
	diags    map[protocol.DocumentURI][]protocol.PublishDiagnosticsParams
	shown    []string // the URIs of window/showDocument requests
	requests []string // the methods of the server's requests, in order
	cond     *sync.Cond
}

type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// newClient starts a server and connects a client to it, without
// initializing.
func newClient(t *testing.T, opts Options) *client {
	t.Helper()
	serverSide, clientSide := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	c := &client{
		t:       t,
		done:    make(chan bool, 1),
		logBuf:  &syncBuffer{},
		dir:     t.TempDir(),
		version: map[protocol.DocumentURI]int32{},
		diags:   map[protocol.DocumentURI][]protocol.PublishDiagnosticsParams{},
	}
	c.cond = sync.NewCond(&c.mu)
	if opts.Log == nil {
		opts.Log = c.logBuf
	}
	go func() { c.done <- Serve(ctx, serverSide, opts) }()
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(clientSide))
	c.conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == "textDocument/publishDiagnostics" {
			var p protocol.PublishDiagnosticsParams
			if err := json.Unmarshal(req.Params(), &p); err != nil {
				t.Errorf("bad publishDiagnostics: %v", err)
			}
			c.mu.Lock()
			c.diags[p.URI] = append(c.diags[p.URI], p)
			c.cond.Broadcast()
			c.mu.Unlock()
		}
		if _, isCall := req.(*jsonrpc2.Call); isCall {
			c.mu.Lock()
			c.requests = append(c.requests, req.Method())
			c.cond.Broadcast()
			c.mu.Unlock()
		}
		if req.Method() == "window/showDocument" {
			var p struct{ URI string }
			json.Unmarshal(req.Params(), &p)
			c.mu.Lock()
			c.shown = append(c.shown, p.URI)
			c.mu.Unlock()
			return reply(ctx, map[string]bool{"success": true}, nil)
		}
		return reply(ctx, nil, nil)
	})
	t.Cleanup(func() {
		cancel()
		c.conn.Close()
		serverSide.Close()
	})
	return c
}

// start starts an initialized server.
func start(t *testing.T) *client {
	t.Helper()
	return startWith(t, map[string]any{})
}

// startWith starts a server initialized with the client capabilities caps.
func startWith(t *testing.T, caps map[string]any) *client {
	t.Helper()
	c := newClient(t, Options{})
	c.initialize(caps, nil)
	return c
}

// startInWorkspace starts a server whose workspace folder is the client's
// directory.
func startInWorkspace(t *testing.T) *client {
	t.Helper()
	c := newClient(t, Options{})
	c.initialize(map[string]any{}, []any{map[string]any{"uri": string(uri.File(c.dir)), "name": "w"}})
	return c
}

// initialize initializes the server with caps and workspace folders.
func (c *client) initialize(caps map[string]any, folders []any) {
	c.t.Helper()
	var res map[string]any
	c.call("initialize", map[string]any{"processId": 1, "rootUri": nil, "capabilities": caps, "workspaceFolders": folders}, &res)
	c.notify("initialized", map[string]any{})
}

// write writes a file of the client's directory without opening it.
func (c *client) write(name, text string) protocol.DocumentURI {
	c.t.Helper()
	p := filepath.Join(c.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		c.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
		c.t.Fatal(err)
	}
	return uri.File(p)
}

// call sends a request and fails the test on an error reply.
func (c *client) call(method string, params, result any) {
	c.t.Helper()
	if err := c.callErr(method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *client) callErr(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, result)
	return err
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// uri is the URI of a file name in the client's directory.
func (c *client) uri(name string) protocol.DocumentURI {
	return uri.File(filepath.Join(c.dir, name))
}

// open writes a file to disk and opens it.
func (c *client) open(name, text string) protocol.DocumentURI {
	c.t.Helper()
	p := filepath.Join(c.dir, name)
	if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
		c.t.Fatal(err)
	}
	u := uri.File(p)
	c.version[u] = 1
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "lobster", Version: 1, Text: text,
	}})
	return u
}

// change sends content changes; a change is {range, text} or {text}.
func (c *client) change(u protocol.DocumentURI, changes ...map[string]any) int32 {
	c.t.Helper()
	c.version[u]++
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": u, "version": c.version[u]},
		"contentChanges": changes,
	})
	return c.version[u]
}

// edit is an incremental change.
func edit(l1, c1, l2, c2 int, text string) map[string]any {
	return map[string]any{"range": rng(l1, c1, l2, c2), "text": text}
}

func rng(l1, c1, l2, c2 int) protocol.Range {
	return protocol.Range{
		Start: protocol.Position{Line: uint32(l1), Character: uint32(c1)},
		End:   protocol.Position{Line: uint32(l2), Character: uint32(c2)},
	}
}

func pos(line, char int) protocol.Position {
	return protocol.Position{Line: uint32(line), Character: uint32(char)}
}

// hangTimeout is how long a test waits for the server before it calls it
// hung: long, since a race-instrumented server on a loaded machine is slow,
// and only a hang should reach it.
const hangTimeout = 2 * time.Minute

// waitDiags waits for a publication of u that satisfies ok.
func (c *client) waitDiags(u protocol.DocumentURI, ok func(protocol.PublishDiagnosticsParams) bool) protocol.PublishDiagnosticsParams {
	c.t.Helper()
	deadline := time.Now().Add(hangTimeout)
	timer := time.AfterFunc(hangTimeout, func() {
		c.mu.Lock()
		c.cond.Broadcast()
		c.mu.Unlock()
	})
	defer timer.Stop()
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		for _, p := range c.diags[u] {
			if ok(p) {
				return p
			}
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("no matching diagnostics for %s; got %s", u, dumpDiags(c.diags[u]))
		}
		c.cond.Wait()
	}
}

// waitVersion waits for the diagnostics of a version.
func (c *client) waitVersion(u protocol.DocumentURI, v int32) protocol.PublishDiagnosticsParams {
	c.t.Helper()
	return c.waitDiags(u, func(p protocol.PublishDiagnosticsParams) bool { return p.Version == uint32(v) })
}

// published lists every publication of u so far.
func (c *client) published(u protocol.DocumentURI) []protocol.PublishDiagnosticsParams {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]protocol.PublishDiagnosticsParams(nil), c.diags[u]...)
}

func dumpDiags(ps []protocol.PublishDiagnosticsParams) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "\n  version %d:", p.Version)
		for _, d := range p.Diagnostics {
			fmt.Fprintf(&b, "\n    %d:%d %v %s", d.Range.Start.Line, d.Range.Start.Character, d.Code, d.Message)
		}
	}
	return b.String()
}

// codes lists the codes of diagnostics.
func codes(ds []protocol.Diagnostic) []string {
	out := []string{}
	for _, d := range ds {
		out = append(out, fmt.Sprint(d.Code))
	}
	return out
}

// hasCode reports whether a publication has a diagnostic with the code.
func hasCode(code string) func(protocol.PublishDiagnosticsParams) bool {
	return func(p protocol.PublishDiagnosticsParams) bool {
		for _, d := range p.Diagnostics {
			if d.Code == code {
				return true
			}
		}
		return false
	}
}

// textOf is the text of an LSP range in text (test-side conversion,
// independent of Mapper: it counts UTF-16 units by hand).
func textOf(text string, r protocol.Range) string {
	return text[offsetOf(text, r.Start):offsetOf(text, r.End)]
}

func offsetOf(text string, p protocol.Position) int {
	lines := strings.SplitAfter(text, "\n")
	off := 0
	for i := 0; i < int(p.Line) && i < len(lines); i++ {
		off += len(lines[i])
	}
	units := 0
	for i, r := range lines[min(int(p.Line), len(lines)-1)] {
		if units >= int(p.Character) {
			return off + i
		}
		if r >= 0x10000 {
			units += 2
		} else {
			units++
		}
	}
	return off + len(strings.TrimSuffix(lines[min(int(p.Line), len(lines)-1)], "\n"))
}
