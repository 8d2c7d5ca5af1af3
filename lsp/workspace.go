package lsp

import (
	"bytes"
	"context"
	"io/fs"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/lobsterdev/lobster/lang/discover"
)

// An arg of a child workflow is also a key of the workflow_args of every
// step that runs the child, in files that may not be open. References and
// renames of such an arg read the workflow files under the workspace
// folders too (the open documents win over their files on disk).

// workspaceFileLimit bounds the workflow files read for one request,
// workspaceEntryLimit the directory entries looked at and workspaceByteLimit
// the bytes of the files read, so that a workspace opened on a home
// directory (or /), or a repository of huge workflow files, stays
// responsive and in memory: each file is read with parser.ReadFile (8 MiB
// at most) and parsed while the request runs.
const (
	workspaceFileLimit  = 2000
	workspaceEntryLimit = 100000
	workspaceByteLimit  = 16 << 20
)

// workspaceInit holds the workspace folders of initialize's params.
type workspaceInit struct {
	RootURI          string `json:"rootUri"`
	RootPath         string `json:"rootPath"`
	WorkspaceFolders []struct {
		URI string `json:"uri"`
	} `json:"workspaceFolders"`
}

// roots are the local paths of the workspace folders, or of the root when
// the client sends no folders.
func (w workspaceInit) roots() []string {
	var out []string
	for _, f := range w.WorkspaceFolders {
		if p := uriPath(f.URI); p != "" {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		if p := uriPath(w.RootURI); p != "" {
			out = append(out, p)
		} else if w.RootPath != "" {
			out = append(out, w.RootPath)
		}
	}
	return out
}

// isWorkflowFileName reports whether a file name or URI is that of a
// workflow file, by the rule every tool shares (lang/discover).
func isWorkflowFileName(name string) bool {
	return discover.IsWorkflowFile(name[strings.LastIndexByte(name, '/')+1:])
}

// callerDocuments are the documents that may run another workflow file:
// self (as the request saw it), the other open documents, and the workflow
// files under the workspace folders that are not open and mention a
// workflow: key. Each is read as its editor buffer when open.
func (s *Server) callerDocuments(ctx context.Context, self *snapshot) []*snapshot {
	s.mu.Lock()
	docs := []*snapshot{self}
	open := map[string]bool{}
	if self.path != "" {
		open[filepath.Clean(self.path)] = true
	}
	for u, d := range s.docs {
		if u != self.uri {
			docs = append(docs, d)
		}
		if d.path != "" {
			open[filepath.Clean(d.path)] = true
		}
	}
	roots := s.roots
	s.mu.Unlock()
	read, seen, size := 0, 0, 0
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			seen++
			switch {
			case ctx.Err() != nil || read >= workspaceFileLimit || seen > workspaceEntryLimit || size >= workspaceByteLimit:
				return filepath.SkipAll
			case err != nil:
				return nil
			case d.IsDir():
				if path != root && discover.SkipDir(d.Name()) {
					return filepath.SkipDir
				}
				return nil
			case !d.Type().IsRegular() || !isWorkflowFileName(d.Name()) || open[filepath.Clean(path)]:
				return nil
			}
			read++
			text, err := s.readFile(path)
			size += len(text)
			if err != nil || !bytes.Contains(text, []byte("workflow")) || size > workspaceByteLimit {
				return nil
			}
			snap := newSnapshot(protocol.DocumentURI(uri.File(path)), 0, text)
			snap.read = s.readFile
			docs = append(docs, snap)
			return nil
		})
	}
	return docs
}

// workflowFileGlobs are the files the client is asked to watch.
var workflowFileGlobs = discover.Globs()

// watchWorkflowFiles asks the client, when it can, to report changes to
// workflow files on disk (a child workflow edited by another program, or a
// branch checked out): the open documents that run one are checked again.
// The request is sent from its own goroutine: its reply arrives on the
// read loop that runs this notification.
func (s *Server) watchWorkflowFiles(ctx context.Context) {
	s.mu.Lock()
	watch := s.watchFiles && s.conn != nil
	s.mu.Unlock()
	if !watch {
		return
	}
	watchers := make([]protocol.FileSystemWatcher, 0, len(workflowFileGlobs)+len(configFileGlobs))
	for _, g := range append(append([]string(nil), workflowFileGlobs...), configFileGlobs...) {
		watchers = append(watchers, protocol.FileSystemWatcher{GlobPattern: g})
	}
	params := protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: "lobster-workflow-files", Method: "workspace/didChangeWatchedFiles",
		RegisterOptions: protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers},
	}}}
	go func() {
		if _, err := s.conn.Call(ctx, "client/registerCapability", params, nil); err != nil {
			s.log.Printf("watching workflow files: %v", err)
		}
	}()
}

// filesChanged checks again the open documents that run another workflow
// when a workflow file that is not open changed on disk (an open one is
// read from its editor buffer, whose changes re-check them already).
//
// A change to a project configuration file reloads the configurations and
// checks every open document again.
func (s *Server) filesChanged(changes []*protocol.FileEvent) {
	for _, c := range changes {
		if c != nil && isConfigURI(c.URI) {
			s.configChanged()
			break
		}
	}
	for _, c := range changes {
		if c == nil || !isWorkflowFileName(string(c.URI)) {
			continue
		}
		if s.snapshot(c.URI) == nil {
			s.recheckParents(c.URI)
			return // one re-check covers every change of the batch
		}
	}
}
