package lsp

import (
	"fmt"
	"net/url"
	"path"
	"strings"
	"sync"

	"go.lsp.dev/protocol"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// A snapshot is one version of an open document. It never changes: an edit
// makes a new snapshot. Its parse is computed once, on first use.
type snapshot struct {
	uri     protocol.DocumentURI
	version int32
	text    []byte // never modified
	path    string // the file's path for a file: URI, else ""
	name    string // the name the parser and checker see
	// read reads the files the document refers to (child workflows): the
	// server's, which prefers open documents to the disk; nil means
	// parser.ReadFile. Set before the snapshot is shared.
	read func(path string) ([]byte, error)
	// cache holds the shell parses of the document's earlier snapshots
	// (nil: none). Set before the snapshot is shared.
	cache *parser.Cache

	once sync.Once
	an   *analysis
}

// analysis is the parse of a snapshot and the facts every feature reads.
type analysis struct {
	file       *ast.File
	parseDiags []source.Diagnostic
	m          Mapper
	path       string                            // the file's path, or "" (see snapshot.path)
	read       func(path string) ([]byte, error) // see snapshot.read

	infoOnce sync.Once
	inf      *check.Info // see info

	envOnce sync.Once
	envOccs []argEnvOcc // see argEnvOccurrences
}

func newSnapshot(u protocol.DocumentURI, version int32, text []byte) *snapshot {
	p := uriPath(string(u))
	name := p
	if name == "" {
		name = path.Base(string(u))
	}
	return &snapshot{uri: u, version: version, text: text, path: p, name: name}
}

// analysis parses the snapshot (once).
func (s *snapshot) analysis() *analysis {
	s.once.Do(func() {
		f, diags := parser.ParseCached(s.name, s.text, s.cache)
		s.an = &analysis{file: f, parseDiags: diags, m: Mapper{File: f.Src}, path: s.path, read: s.read}
	})
	return s.an
}

// readFile reads a file the document refers to (see snapshot.read).
func (an *analysis) readFile(path string) ([]byte, error) {
	if an.read != nil {
		return an.read(path)
	}
	return parser.ReadFile(path)
}

// uriPath is the local path of a file: URI, or "" for other schemes
// (untitled:, …). go.lsp.dev/uri's Filename panics on those.
func uriPath(u string) string {
	if !strings.HasPrefix(u, "file:") {
		return ""
	}
	parsed, err := url.Parse(u)
	if err != nil || parsed.Path == "" {
		return ""
	}
	p := parsed.Path
	// file:///c:/x on Windows.
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:]
	}
	return p
}

// textChange is a content change as sent by the client. Range is a
// pointer: protocol.TextDocumentContentChangeEvent has a value, which
// cannot tell a whole-document change from an insertion at 0:0.
type textChange struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

// didChangeParams are textDocument/didChange's params with raw changes.
type didChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []textChange                             `json:"contentChanges"`
}

// applyChanges applies content changes in order to text. A range outside
// the text is clamped to it, and reported in the error (the changes are
// still all applied).
func applyChanges(text []byte, changes []textChange) ([]byte, error) {
	var err error
	for _, c := range changes {
		if c.Range == nil {
			text = []byte(c.Text)
			continue
		}
		m := Mapper{File: source.NewFile("", text)}
		start, ok1 := m.Offset(c.Range.Start)
		end, ok2 := m.Offset(c.Range.End)
		if !ok1 || !ok2 || end < start {
			err = fmt.Errorf("change range %v is outside the document", *c.Range)
			end = max(end, start)
		}
		out := make([]byte, 0, len(text)-(end-start)+len(c.Text))
		out = append(out, text[:start]...)
		out = append(out, c.Text...)
		text = append(out, text[end:]...)
	}
	return text, err
}

// brokenYAML reports whether the text is not valid YAML (the tree then
// holds only what the parser recovered).
func (an *analysis) brokenYAML() bool {
	for _, d := range an.parseDiags {
		if d.Code == "yaml-syntax" {
			return true
		}
	}
	return false
}

// info indexes the tree (once, on first use: publishing diagnostics does not
// need it, check.RunWith builds its own).
func (an *analysis) info() *check.Info {
	an.infoOnce.Do(func() { an.inf = check.NewInfo(an.file) })
	return an.inf
}

// recovered is what completion keeps of the last version of a document that
// was valid YAML: the names, not the tree (which would double the memory
// held while a large file is edited).
type recovered struct {
	steps []recoveredStep // top-level steps with an id, in order
	args  []string
}

type recoveredStep struct {
	id, kind string
	pos      int // the step's offset in that version
}

// recovered reads the names off the tree (without check.Info, which the
// diagnostics path does not build).
func (an *analysis) recovered() *recovered {
	r := &recovered{}
	w := an.file.Workflow
	if w == nil {
		return r
	}
	if w.Steps != nil {
		if l, ok := w.Steps.Value.(*ast.StepList); ok {
			for _, st := range l.Steps() {
				if id := st.IDText(); id != "" {
					r.steps = append(r.steps, recoveredStep{id: id, kind: stepKind(st), pos: st.Pos()})
				}
			}
		}
	}
	if w.Args != nil {
		if a, ok := w.Args.Value.(*ast.Args); ok {
			for _, fd := range a.Fields {
				r.args = append(r.args, fd.Name())
			}
		}
	}
	return r
}
