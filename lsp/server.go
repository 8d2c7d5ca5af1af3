package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/config"
	"github.com/lobsterdev/lobster/lang/parser"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Version is the server's version when Options.Version is not set.
const Version = "devel"

// Options configure a [Server].
type Options struct {
	// Debounce is how long the server waits after a change before it
	// checks the document; changes that arrive meanwhile are checked
	// together, and only the latest version is published.
	Debounce time.Duration
	// Log receives the server's log (never standard output, which carries
	// the protocol); nil discards it.
	Log io.Writer
	// Shellcheck is the shellcheck program the checker runs on shell
	// text; "" turns it off. The client may set it with the
	// initializationOptions {"shellcheck": "PATH"|"off"}.
	Shellcheck string
	// Version is the server's version, reported in initialize; "" is
	// Version.
	Version string

	// afterCheck, when set (by tests), is called after each check of the
	// diagnostics worker with its result: nil, or the error of a check
	// stopped because a newer version arrived.
	afterCheck func(u protocol.DocumentURI, version int32, err error)
}

// DefaultDebounce is the default of [Options.Debounce]: no wait. Changes
// that arrive while a document is being checked are still coalesced into
// one check of the latest version, so an edit storm costs one check per
// check time, not one per change.
const DefaultDebounce = 0

// Serve runs a language server on rwc until the client sends exit or the
// connection ends. It reports whether shutdown was received before, which
// decides the exit code of the process (0 after shutdown, else 1).
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) (shutdown bool) {
	s := NewServer(opts)
	st := newStream(rwc, s.log)
	st.shortcut = s.documentFrame
	conn := jsonrpc2.NewConn(st)
	s.conn = conn
	conn.Go(ctx, s.Handle)
	select {
	case <-conn.Done():
	case <-s.exit:
	case <-ctx.Done():
	}
	s.stop()
	return s.shutdownReceived()
}

// Server is the Lobster language server: the state of one connection.
type Server struct {
	opts Options
	log  *log.Logger
	logw *stoppableWriter // log's destination, closed when the server stops
	conn jsonrpc2.Conn

	mu          sync.Mutex
	initialized bool
	shutdown    bool
	docs        map[protocol.DocumentURI]*snapshot
	workers     map[protocol.DocumentURI]*diagWorker
	lastDiags   map[protocol.DocumentURI]checked
	lastGood    map[protocol.DocumentURI]*recovered // names of the last checked version that was valid YAML
	// shellcheck keeps shellcheck's findings from one check to the next:
	// an edit runs shellcheck on the run and command texts it changed
	// only.
	shellcheck *check.ShellcheckCache
	pending    map[jsonrpc2.ID]context.CancelFunc

	showDocument bool     // the client can open documents (window/showDocument)
	roots        []string // the workspace folders' paths (see callerDocuments)
	watchFiles   bool     // the client can watch files for the server (see watchWorkflowFiles)
	tmp          string   // a temporary directory for shown plans, or ""

	configs     *config.Finder            // the project configurations of the documents
	configShown map[string]*config.Config // the configuration whose findings are published on each configuration file

	publishMu sync.Mutex // orders publications against closes
	exit      chan struct{}
	exitOnce  sync.Once
	done      chan struct{} // closed when the server stops
	stopOnce  sync.Once
}

// NewServer returns a server that is not connected yet.
func NewServer(opts Options) *Server {
	w := opts.Log
	if w == nil {
		w = io.Discard
	}
	logw := &stoppableWriter{w: w}
	return &Server{
		opts:      opts,
		log:       log.New(logw, "lobster-lsp: ", log.LstdFlags|log.Lmicroseconds),
		logw:      logw,
		docs:      map[protocol.DocumentURI]*snapshot{},
		workers:   map[protocol.DocumentURI]*diagWorker{},
		lastDiags: map[protocol.DocumentURI]checked{},
		lastGood:  map[protocol.DocumentURI]*recovered{},
		// Every run and command text of a few large files.
		shellcheck: check.NewShellcheckCache(10000),
		pending:    map[jsonrpc2.ID]context.CancelFunc{},

		configs:     config.NewFinder(),
		configShown: map[string]*config.Config{},
		exit:        make(chan struct{}),
		done:        make(chan struct{}),
	}
}

func (s *Server) stop() {
	s.stopOnce.Do(func() {
		close(s.done)
		s.mu.Lock()
		tmp := s.tmp
		s.mu.Unlock()
		if tmp != "" {
			os.RemoveAll(tmp)
		}
		s.logw.stop()
	})
}

// A stoppableWriter passes writes on until it is stopped, then drops them.
// The goroutine that reads the connection can outlive Serve (it is blocked
// on an input nobody closes), and later lines must not reach a log that
// Serve's caller has taken back.
type stoppableWriter struct {
	mu      sync.Mutex
	w       io.Writer
	stopped bool
}

func (w *stoppableWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return len(p), nil
	}
	return w.w.Write(p)
}

func (w *stoppableWriter) stop() {
	w.mu.Lock()
	w.stopped = true
	w.mu.Unlock()
}

func (s *Server) shutdownReceived() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shutdown
}

// A requestFunc computes the result of a request on a document.
type requestFunc func(ctx context.Context, s *Server, doc *snapshot, params json.RawMessage) (any, error)

// requests are the document requests the server answers. Each runs in its
// own goroutine on the snapshot current when the request arrived, so it
// sees every change sent before it.
var requests = map[string]requestFunc{
	"textDocument/hover":               hover,
	"textDocument/completion":          completion,
	"textDocument/definition":          definition,
	"textDocument/references":          references,
	"textDocument/documentHighlight":   documentHighlight,
	"textDocument/prepareRename":       prepareRename,
	"textDocument/rename":              rename,
	"textDocument/documentSymbol":      documentSymbols,
	"textDocument/documentLink":        documentLinks,
	"textDocument/codeAction":          codeActions,
	"textDocument/foldingRange":        foldingRanges,
	"textDocument/semanticTokens/full": semanticTokensFull,
	"textDocument/inlayHint":           inlayHints,
	"textDocument/codeLens":            codeLenses,
	"workspace/executeCommand":         executeCommand,
}

// errNotInitialized is the reply to a request before initialize.
var errNotInitialized = jsonrpc2.NewError(jsonrpc2.ServerNotInitialized, "the server is not initialized")

// Handle is the connection's jsonrpc2 handler. Notifications are handled
// at once, in the order they arrive; requests are answered concurrently,
// each on the documents as they were when it arrived.
func (s *Server) Handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	call, isCall := req.(*jsonrpc2.Call)
	if !isCall {
		s.notification(ctx, req.Method(), req.Params())
		return nil
	}
	method := req.Method()
	var once sync.Once
	replyOnce := func(result any, err error) {
		once.Do(func() {
			if err := reply(ctx, result, err); err != nil {
				s.log.Printf("%s: replying: %v", method, err)
			}
		})
	}
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("%s: panic: %v\n%s", method, r, debug.Stack())
			replyOnce(nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", method, r))
		}
	}()

	switch method {
	case "initialize":
		replyOnce(s.initialize(req.Params()))
		return nil
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		replyOnce(nil, nil)
		return nil
	}
	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()
	if !initialized {
		replyOnce(nil, errNotInitialized)
		return nil
	}
	if shutdown {
		replyOnce(nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "the server is shutting down"))
		return nil
	}
	fn, ok := requests[method]
	if !ok {
		replyOnce(nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method not supported: %s", method))
		return nil
	}
	u, err := documentOf(req.Params())
	if err != nil {
		replyOnce(nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: %v", method, err))
		return nil
	}
	doc := s.snapshot(u)
	if doc == nil {
		replyOnce(nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%s: document %s is not open", method, u))
		return nil
	}
	reqCtx, cancel := context.WithCancel(ctx)
	id := call.ID()
	s.mu.Lock()
	s.pending[id] = cancel
	s.mu.Unlock()
	go func() {
		defer func() {
			s.mu.Lock()
			delete(s.pending, id)
			s.mu.Unlock()
			cancel()
			if r := recover(); r != nil {
				s.log.Printf("%s: panic: %v\n%s", method, r, debug.Stack())
				replyOnce(nil, jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", method, r))
			}
		}()
		result, err := fn(reqCtx, s, doc, req.Params())
		if reqCtx.Err() != nil && ctx.Err() == nil {
			replyOnce(nil, protocol.ErrRequestCancelled)
			return
		}
		replyOnce(result, err)
	}()
	return nil
}

// documentOf is the document a request is about: its textDocument, or for
// workspace/executeCommand the uri of its first argument.
func documentOf(raw json.RawMessage) (protocol.DocumentURI, error) {
	var p struct {
		TextDocument *protocol.TextDocumentIdentifier `json:"textDocument"`
		Arguments    []struct {
			URI protocol.DocumentURI `json:"uri"`
		} `json:"arguments"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return "", err
	}
	switch {
	case p.TextDocument != nil:
		return p.TextDocument.URI, nil
	case len(p.Arguments) > 0:
		return p.Arguments[0].URI, nil
	}
	return "", errors.New("no document")
}

// ready reports whether the server takes notifications about documents:
// after initialize, before shutdown.
func (s *Server) ready() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.initialized && !s.shutdown
}

// notification handles one notification. A panic is logged, never fatal.
func (s *Server) notification(ctx context.Context, method string, params json.RawMessage) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("%s: panic: %v\n%s", method, r, debug.Stack())
		}
	}()
	if method == "exit" {
		s.exitOnce.Do(func() { close(s.exit) })
		return
	}
	if method == "$/cancelRequest" {
		var p struct {
			ID jsonrpc2.ID `json:"id"`
		}
		if err := json.Unmarshal(params, &p); err == nil {
			s.mu.Lock()
			cancel := s.pending[p.ID]
			s.mu.Unlock()
			if cancel != nil {
				cancel()
			}
		}
		return
	}
	if !s.ready() {
		return
	}
	var err error
	switch method {
	case "initialized":
		s.watchWorkflowFiles(ctx)
	case "workspace/didChangeWatchedFiles":
		var p protocol.DidChangeWatchedFilesParams
		if err = json.Unmarshal(params, &p); err == nil {
			s.filesChanged(p.Changes)
		}
	case "textDocument/didOpen":
		var p protocol.DidOpenTextDocumentParams
		if err = json.Unmarshal(params, &p); err == nil {
			s.document(p)
		}
	case "textDocument/didChange":
		var p didChangeParams
		if err = json.Unmarshal(params, &p); err == nil {
			s.document(p)
		}
	case "textDocument/didSave":
		var p protocol.DidSaveTextDocumentParams
		if err = json.Unmarshal(params, &p); err == nil {
			s.saved(p.TextDocument.URI)
		}
	case "textDocument/didClose":
		var p protocol.DidCloseTextDocumentParams
		if err = json.Unmarshal(params, &p); err == nil {
			s.close(ctx, p.TextDocument.URI)
		}
	}
	if err != nil {
		s.log.Printf("%s: %v", method, err)
	}
}

// snapshot is the current snapshot of an open document, or nil.
func (s *Server) snapshot(u protocol.DocumentURI) *snapshot {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.docs[u]
}

func (s *Server) open(u protocol.DocumentURI, version int32, text []byte) {
	s.mu.Lock()
	snap := newSnapshot(u, version, text)
	snap.read = s.readFile
	snap.cache = parser.NewCache()
	s.docs[u] = snap
	s.mu.Unlock()
	s.scheduleDiagnostics(u)
	s.recheckParents(u)
}

func (s *Server) change(p didChangeParams) error {
	u := p.TextDocument.URI
	s.mu.Lock()
	old := s.docs[u]
	if old == nil {
		s.mu.Unlock()
		return fmt.Errorf("change to %s, which is not open", u)
	}
	if p.TextDocument.Version != 0 && p.TextDocument.Version < old.version {
		s.mu.Unlock()
		return fmt.Errorf("change to %s: version %d is older than %d; ignored", u, p.TextDocument.Version, old.version)
	}
	text, err := applyChanges(old.text, p.ContentChanges)
	snap := newSnapshot(u, p.TextDocument.Version, text)
	snap.read = s.readFile
	snap.cache = old.cache
	s.docs[u] = snap
	delete(s.lastDiags, u) // stale: let the old tree go
	s.mu.Unlock()
	s.scheduleDiagnostics(u)
	s.recheckParents(u)
	return err
}

func (s *Server) saved(u protocol.DocumentURI) {
	if isConfigURI(u) {
		s.configChanged()
		return
	}
	if s.snapshot(u) != nil {
		s.scheduleDiagnostics(u)
	}
	s.recheckParents(u)
}

func (s *Server) close(ctx context.Context, u protocol.DocumentURI) {
	s.mu.Lock()
	delete(s.docs, u)
	delete(s.lastDiags, u)
	delete(s.lastGood, u)
	w := s.workers[u]
	delete(s.workers, u)
	s.mu.Unlock()
	if w != nil {
		close(w.stop)
	}
	s.publishMu.Lock()
	defer s.publishMu.Unlock()
	s.publish(ctx, &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: []protocol.Diagnostic{}})
}

// publish sends diagnostics to the client.
func (s *Server) publish(ctx context.Context, p *protocol.PublishDiagnosticsParams) {
	if s.conn == nil {
		return
	}
	if err := s.conn.Notify(ctx, "textDocument/publishDiagnostics", p); err != nil && !errors.Is(err, context.Canceled) {
		s.log.Printf("publishing diagnostics for %s: %v", p.URI, err)
	}
}
