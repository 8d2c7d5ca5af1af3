package lsp

import (
	"context"
	"os"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/lobsterdev/lobster/lang/config"
)

// configFileGlobs are the project configuration files the client is asked
// to watch: a change reloads them and checks every open document again.
var configFileGlobs = []string{"**/.lobsterrc.yaml", "**/.lobsterrc.yml"}

// configFor is the project configuration of a document (lang/config), or
// nil for none or a document that is not a file. Its own diagnostics are
// published on the configuration file the first time it is used.
func (s *Server) configFor(snap *snapshot) *config.Config {
	if snap.path == "" {
		return nil
	}
	c := s.configs.For(snap.path)
	if c != nil {
		s.publishConfig(c)
	}
	return c
}

// publishConfig publishes the diagnostics of a configuration on its file,
// once per loaded version.
func (s *Server) publishConfig(c *config.Config) {
	s.mu.Lock()
	if s.configShown[c.Path] == c {
		s.mu.Unlock()
		return
	}
	s.configShown[c.Path] = c
	s.mu.Unlock()
	m := Mapper{File: c.Src}
	out := make([]protocol.Diagnostic, 0, len(c.Diags))
	for _, d := range c.Diags {
		pd := protocol.Diagnostic{Range: m.SourceRange(d.Range), Severity: protocol.DiagnosticSeverity(d.Severity), Code: d.Code, Source: "lobster", Message: d.Message}
		if href := docsURL(d.Code); href != "" {
			pd.CodeDescription = &protocol.CodeDescription{Href: protocol.URI(href)}
		}
		out = append(out, pd)
	}
	s.publishMu.Lock()
	defer s.publishMu.Unlock()
	s.publish(context.Background(), &protocol.PublishDiagnosticsParams{URI: uri.File(c.Path), Diagnostics: out})
}

// configChanged reloads the project configurations and checks every open
// document again; the findings shown on a configuration file that is gone
// are cleared.
func (s *Server) configChanged() {
	s.configs.Forget()
	s.mu.Lock()
	var gone []string
	for p := range s.configShown {
		if _, err := os.Stat(p); err != nil {
			gone = append(gone, p)
		}
		delete(s.configShown, p)
	}
	var open []protocol.DocumentURI
	for u := range s.docs {
		open = append(open, u)
	}
	s.mu.Unlock()
	for _, p := range gone {
		s.publishMu.Lock()
		s.publish(context.Background(), &protocol.PublishDiagnosticsParams{URI: uri.File(p), Diagnostics: []protocol.Diagnostic{}})
		s.publishMu.Unlock()
	}
	for _, u := range open {
		s.scheduleDiagnostics(u)
	}
}

// isConfigURI reports whether a document is a project configuration file,
// which the server reads from disk rather than checking as a workflow.
func isConfigURI(u protocol.DocumentURI) bool {
	return config.IsConfigName(string(u))
}
