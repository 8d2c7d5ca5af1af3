package lsp

import (
	"cmp"
	"encoding/json"
	"os/exec"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// capabilities are the server's capabilities: protocol v0.12.0's, plus the
// LSP 3.17 fields it has no place for.
type capabilities struct {
	protocol.ServerCapabilities
	InlayHintProvider bool   `json:"inlayHintProvider,omitempty"`
	PositionEncoding  string `json:"positionEncoding,omitempty"`
}

// semanticTokensOptions replaces protocol.SemanticTokensOptions, which has
// no legend.
type semanticTokensOptions struct {
	Legend semanticTokensLegend `json:"legend"`
	Full   bool                 `json:"full"`
	Range  bool                 `json:"range"`
}

type semanticTokensLegend struct {
	TokenTypes     []string `json:"tokenTypes"`
	TokenModifiers []string `json:"tokenModifiers"`
}

// initializeResult is the reply to initialize.
type initializeResult struct {
	Capabilities capabilities         `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo `json:"serverInfo,omitempty"`
}

// initOptions are the initializationOptions the server reads.
type initOptions struct {
	// Shellcheck is "off", "auto" (shellcheck from PATH) or a program.
	Shellcheck string `json:"shellcheck"`
}

func (s *Server) initialize(raw json.RawMessage) (any, error) {
	var p struct {
		workspaceInit
		InitializationOptions *initOptions `json:"initializationOptions"`
		Capabilities          struct {
			Workspace struct {
				DidChangeWatchedFiles struct {
					DynamicRegistration bool `json:"dynamicRegistration"`
				} `json:"didChangeWatchedFiles"`
			} `json:"workspace"`
			Window struct {
				ShowDocument struct {
					Support bool `json:"support"`
				} `json:"showDocument"`
			} `json:"window"`
		} `json:"capabilities"`
	}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "initialize: %v", err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.initialized {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already received")
	}
	if o := p.InitializationOptions; o != nil {
		switch o.Shellcheck {
		case "":
		case "off":
			s.opts.Shellcheck = ""
		case "auto":
			s.opts.Shellcheck, _ = exec.LookPath("shellcheck")
		default:
			s.opts.Shellcheck = o.Shellcheck
		}
	}
	s.showDocument = p.Capabilities.Window.ShowDocument.Support
	s.roots = p.roots()
	s.watchFiles = p.Capabilities.Workspace.DidChangeWatchedFiles.DynamicRegistration
	s.initialized = true
	return &initializeResult{
		Capabilities: serverCapabilities(),
		ServerInfo:   &protocol.ServerInfo{Name: "lobster-lsp", Version: cmp.Or(s.opts.Version, Version)},
	}, nil
}

func serverCapabilities() capabilities {
	return capabilities{
		ServerCapabilities: protocol.ServerCapabilities{
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: true,
				Change:    protocol.TextDocumentSyncKindIncremental,
				Save:      &protocol.SaveOptions{},
			},
			CompletionProvider: &protocol.CompletionOptions{
				TriggerCharacters: []string{"$", ".", "{", "_", "-"},
			},
			HoverProvider:             true,
			DefinitionProvider:        true,
			ReferencesProvider:        true,
			DocumentHighlightProvider: true,
			DocumentSymbolProvider:    true,
			CodeActionProvider: &protocol.CodeActionOptions{
				CodeActionKinds: []protocol.CodeActionKind{protocol.QuickFix},
			},
			DocumentLinkProvider: &protocol.DocumentLinkOptions{},
			RenameProvider:       &protocol.RenameOptions{PrepareProvider: true},
			FoldingRangeProvider: true,
			CodeLensProvider:     &protocol.CodeLensOptions{},
			ExecuteCommandProvider: &protocol.ExecuteCommandOptions{
				Commands: []string{cmdPlan, cmdPlanDiff},
			},
			SemanticTokensProvider: &semanticTokensOptions{
				Legend: semanticTokensLegend{TokenTypes: tokenTypes, TokenModifiers: tokenModifiers},
				Full:   true,
			},
		},
		InlayHintProvider: true,
		PositionEncoding:  "utf-16",
	}
}
