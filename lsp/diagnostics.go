package lsp

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// checked is the result of checking one snapshot.
type checked struct {
	snap  *snapshot
	diags []source.Diagnostic
	// read holds the other files the check read (child workflows), by the
	// name it read them under: their related locations are placed in the
	// text the checker saw, an editor buffer or the disk at that moment.
	read map[string][]byte
}

// A diagWorker checks one document: changes kick it; it waits the
// debounce, checks the latest snapshot and publishes the result unless the
// document changed meanwhile (then it checks again).
type diagWorker struct {
	kick chan struct{}
	stop chan struct{}

	mu       sync.Mutex
	checking *snapshot          // the snapshot being checked, or nil
	cancel   context.CancelFunc // stops that check
}

// cancelStale stops the running check when it is of another snapshot than
// current: a newer version arrived, its result would be dropped anyway.
func (w *diagWorker) cancelStale(current *snapshot) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.checking != nil && w.checking != current && w.cancel != nil {
		w.cancel()
	}
}

// scheduleDiagnostics asks for the document to be checked again.
func (s *Server) scheduleDiagnostics(u protocol.DocumentURI) {
	s.mu.Lock()
	w := s.workers[u]
	current := s.docs[u]
	if w == nil {
		if current == nil {
			s.mu.Unlock()
			return
		}
		w = &diagWorker{kick: make(chan struct{}, 1), stop: make(chan struct{})}
		s.workers[u] = w
		go s.diagLoop(u, w)
	}
	s.mu.Unlock()
	w.cancelStale(current)
	select {
	case w.kick <- struct{}{}:
	default: // a check is already due
	}
}

func (s *Server) diagLoop(u protocol.DocumentURI, w *diagWorker) {
	ctx := context.Background()
	for {
		select {
		case <-w.kick:
		case <-w.stop:
			return
		case <-s.done:
			return
		}
		if d := s.opts.Debounce; d > 0 {
			select {
			case <-time.After(d):
			case <-w.stop:
				return
			case <-s.done:
				return
			}
		}
		snap := s.snapshot(u)
		if snap == nil {
			continue
		}
		checkCtx, cancel := context.WithCancel(ctx)
		w.mu.Lock()
		w.checking, w.cancel = snap, cancel
		w.mu.Unlock()
		// A newer version may have arrived before w.checking was set.
		w.cancelStale(s.snapshot(u))
		c, err := s.checkContext(checkCtx, snap)
		w.mu.Lock()
		w.checking, w.cancel = nil, nil
		w.mu.Unlock()
		cancel()
		if s.opts.afterCheck != nil {
			s.opts.afterCheck(u, snap.version, err)
		}
		if err != nil {
			s.log.Printf("diagnostics: the check of %s version %d stopped: a newer version arrived", u, snap.version)
			continue // the newer version kicked the worker
		}
		s.publishMu.Lock()
		s.mu.Lock()
		current := s.docs[u] == snap
		if current {
			s.lastDiags[u] = c
			if an := snap.analysis(); !an.brokenYAML() {
				s.lastGood[u] = an.recovered()
			}
		}
		s.mu.Unlock()
		if current {
			s.publish(ctx, &protocol.PublishDiagnosticsParams{
				URI: u, Version: uint32(max(snap.version, 0)), Diagnostics: toProtocolDiags(c),
			})
		}
		s.publishMu.Unlock()
	}
}

// diagnostics are the findings of a snapshot: the last published ones when
// they are of this snapshot, else checked now.
func (s *Server) diagnostics(snap *snapshot) checked {
	s.mu.Lock()
	c, ok := s.lastDiags[snap.uri]
	s.mu.Unlock()
	if ok && c.snap == snap {
		return c
	}
	return s.check(snap)
}

// lastGood is what completion keeps of the last version of a document
// that was valid YAML, when the current one is not; else nil.
func (s *Server) lastGoodNames(doc *snapshot) *recovered {
	if !doc.analysis().brokenYAML() {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastGood[doc.uri]
}

// check runs lobster check on a snapshot: the parser's findings and every
// rule, with suppressions applied. Child workflows that are open are read
// from their editor buffers.
func (s *Server) check(snap *snapshot) checked {
	c, _ := s.checkContext(context.Background(), snap)
	return c
}

// checkContext is check that stops between rules when ctx is done (then
// it returns ctx's error and no findings).
func (s *Server) checkContext(ctx context.Context, snap *snapshot) (checked, error) {
	an := snap.analysis()
	c := checked{snap: snap}
	if err := ctx.Err(); err != nil {
		return c, err
	}
	s.mu.Lock()
	shellcheck := s.opts.Shellcheck
	s.mu.Unlock()
	cfg := s.configFor(snap)
	var mu sync.Mutex // rules run in parallel
	read := func(path string) ([]byte, error) {
		text, err := s.readFile(path)
		if err == nil {
			mu.Lock()
			if c.read == nil {
				c.read = map[string][]byte{}
			}
			if _, ok := c.read[path]; !ok {
				c.read[path] = text
			}
			text = c.read[path] // one text per file for the whole check
			mu.Unlock()
		}
		return text, err
	}
	diags, err := cfg.Check(ctx, an.file, an.parseDiags, check.Options{Path: snap.path, ReadFile: read, Shellcheck: shellcheck, ShellcheckCache: s.shellcheck, Info: an.info()})
	mu.Lock()
	defer mu.Unlock()
	c.diags = diags
	return c, err
}

// readFile reads a file for the checker: from an open document when there
// is one, else from disk.
func (s *Server) readFile(path string) ([]byte, error) {
	clean := filepath.Clean(path)
	s.mu.Lock()
	for _, d := range s.docs {
		if d.path != "" && filepath.Clean(d.path) == clean {
			s.mu.Unlock()
			return d.text, nil
		}
	}
	s.mu.Unlock()
	return parser.ReadFile(path)
}

// recheckParents schedules the other open documents that run a
// sub-workflow: a change to a child changes their findings.
func (s *Server) recheckParents(changed protocol.DocumentURI) {
	s.mu.Lock()
	var parents []protocol.DocumentURI
	for u, d := range s.docs {
		if u != changed && d.path != "" && bytes.Contains(d.text, []byte("workflow:")) {
			parents = append(parents, u)
		}
	}
	s.mu.Unlock()
	for _, u := range parents {
		s.scheduleDiagnostics(u)
	}
}

// toProtocolDiags converts the findings of a check to LSP's form. The
// slice is never nil: nil would be sent as null.
func toProtocolDiags(c checked) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(c.diags))
	for _, d := range c.diags {
		out = append(out, toProtocolDiag(c, d))
	}
	return out
}

// toProtocolDiag converts one finding of c.
func toProtocolDiag(c checked, d source.Diagnostic) protocol.Diagnostic {
	m := c.snap.analysis().m
	pd := protocol.Diagnostic{
		Range:    m.SourceRange(d.Range),
		Severity: protocol.DiagnosticSeverity(d.Severity),
		Code:     d.Code,
		Source:   "lobster",
		Message:  d.Message,
	}
	if href := docsURL(d.Code); href != "" {
		pd.CodeDescription = &protocol.CodeDescription{Href: protocol.URI(href)}
	}
	if d.Code == "unused-suppression" {
		pd.Tags = []protocol.DiagnosticTag{protocol.DiagnosticTagUnnecessary}
	}
	for _, r := range d.Related {
		loc, ok := relatedLocation(c, m, r)
		if !ok {
			continue
		}
		pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{Location: loc, Message: r.Message})
	}
	return pd
}

// docsURL is the documentation of a code: its section of
// docs/diagnostics.md.
func docsURL(code string) string {
	switch {
	case code == "":
		return ""
	case strings.HasPrefix(code, "shellcheck/"):
		return check.DocsURL + "#shellcheck"
	case check.Lookup(code) != nil:
		return check.DocsURL + "#" + code
	}
	return ""
}

// relatedLocation places a related location: in the document itself, or in
// another file named by its path (a child workflow). Positions in another
// file are converted through the text of it that the check read.
func relatedLocation(c checked, m Mapper, r source.Related) (protocol.Location, bool) {
	snap := c.snap
	if r.File == "" || r.File == snap.name {
		return protocol.Location{URI: snap.uri, Range: m.SourceRange(r.Range)}, true
	}
	text, read := c.read[r.File]
	p := r.File
	if !filepath.IsAbs(p) {
		if snap.path == "" {
			return protocol.Location{}, false
		}
		p = filepath.Join(filepath.Dir(snap.path), p)
	}
	if !read { // not read by the check: a name it did not report
		var err error
		if text, err = parser.ReadFile(p); err != nil {
			return protocol.Location{}, false
		}
	}
	om := Mapper{File: source.NewFile(p, text)}
	return protocol.Location{URI: uri.File(p), Range: om.SourceRange(r.Range)}, true
}
