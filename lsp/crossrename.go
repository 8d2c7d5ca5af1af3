package lsp

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/lobsterdev/lobster/lang/ast"
)

// This file finds and renames an arg across files: the arg of a child
// workflow is also the key of the workflow_args of every step that runs the
// child. Renaming the arg in the child renames those keys in the callers
// (the open documents and the workflow files of the workspace, see
// callerDocuments); renaming such a key renames the child's arg (in the
// child's editor buffer when it is open, else in the file) and the keys of
// the other callers. References of either are all of these.

// workflowArgKey reports whether t is a key of the workflow_args of a
// workflow: step, and returns the step and the workflow_args field.
func (an *analysis) workflowArgKey(t target) (*ast.Step, *ast.Field, bool) {
	if t.kind != keyTarget {
		return nil, nil, false
	}
	st, i := enclosingStep(t.nodes)
	if st == nil || st.Workflow == nil || st.WorkflowArgs == nil || i+1 >= len(t.nodes) {
		return nil, nil, false
	}
	fd, ok := t.nodes[i+1].(*ast.Field)
	if !ok || fd != st.WorkflowArgs || t.field == fd {
		return nil, nil, false
	}
	// The key must be a key of the workflow_args mapping itself, not of a
	// mapping inside one of its values.
	obj := ast.ObjectOf(fd.Value)
	if obj == nil {
		return nil, nil, false
	}
	for _, f := range obj.Fields {
		if f == t.field {
			return st, fd, true
		}
	}
	return nil, nil, false
}

// childArg is an arg of a child workflow as the editor sees it.
type childArg struct {
	uri  protocol.DocumentURI
	path string
	an   *analysis
	arg  *ast.Field // nil when the child declares no such arg
}

// childArgOf finds the child workflow of the workflow_args key t and its
// arg of that name. It fails when the child is not known before the run or
// cannot be read.
func (s *Server) childArgOf(doc *snapshot, t target) (*childArg, error) {
	an := doc.analysis()
	st, _, _ := an.workflowArgKey(t)
	if st == nil {
		return nil, fmt.Errorf("not a workflow_args key")
	}
	file, ok := an.childFile(doc, st)
	if !ok {
		return nil, fmt.Errorf("the child workflow of this step is known only at run time: rename %q there", t.name)
	}
	child, err := s.documentAt(file)
	if err != nil {
		return nil, fmt.Errorf("the child workflow cannot be read: %v", err)
	}
	can := child.analysis()
	return &childArg{uri: child.uri, path: file, an: can, arg: can.info().ArgBy[t.name]}, nil
}

// documentAt is the open document of a path, or a snapshot of the file on
// disk.
func (s *Server) documentAt(path string) (*snapshot, error) {
	clean := filepath.Clean(path)
	s.mu.Lock()
	for _, d := range s.docs {
		if d.path != "" && filepath.Clean(d.path) == clean {
			s.mu.Unlock()
			return d, nil
		}
	}
	s.mu.Unlock()
	text, err := s.readFile(path)
	if err != nil {
		return nil, err
	}
	snap := newSnapshot(uri.File(path), 0, text)
	snap.read = s.readFile
	return snap, nil
}

// renameArg renames an arg of doc: its spellings in doc, and the
// workflow_args keys of the callers that run doc.
func (s *Server) renameArg(ctx context.Context, doc *snapshot, t target, name string) (any, error) {
	an := doc.analysis()
	if an.info().ArgBy[name] != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "an arg named %q exists already", name)
	}
	edits, err := an.renameEdits(t, name)
	if err != nil {
		return nil, err
	}
	changes := map[protocol.DocumentURI][]protocol.TextEdit{doc.uri: edits}
	old := t.name
	if t.arg != nil {
		old = t.arg.Name()
	}
	if t.arg != nil && doc.path != "" {
		if err := s.callerEdits(ctx, doc, doc.path, old, name, changes); err != nil {
			return nil, err
		}
	}
	return &protocol.WorkspaceEdit{Changes: changes}, nil
}

// renameWorkflowArgKey renames a workflow_args key: the child's arg with
// its spellings and the keys of every caller of the child; only the key
// itself when the child declares no such arg.
func (s *Server) renameWorkflowArgKey(ctx context.Context, doc *snapshot, t target, name string) (any, error) {
	c, err := s.childArgOf(doc, t)
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, err.Error())
	}
	an := doc.analysis()
	if c.arg == nil {
		_, fd, _ := an.workflowArgKey(t)
		if obj := ast.ObjectOf(fd.Value); obj != nil && obj.Lookup(name) != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "the step passes %q already", name)
		}
		edits := []protocol.TextEdit{{Range: an.m.Range(t.span), NewText: name}}
		return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{doc.uri: edits}}, nil
	}
	if c.an.info().ArgBy[name] != nil {
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "the child workflow %s has an arg named %q already", filepath.Base(c.path), name)
	}
	edits, err := c.an.renameEdits(target{kind: argDecl, name: t.name, arg: c.arg}, name)
	if err != nil {
		return nil, err
	}
	changes := map[protocol.DocumentURI][]protocol.TextEdit{c.uri: edits}
	if err := s.callerEdits(ctx, doc, c.path, t.name, name, changes); err != nil {
		return nil, err
	}
	return &protocol.WorkspaceEdit{Changes: changes}, nil
}

// callerEdits adds to changes the renames of the workflow_args key old in
// every document with a workflow: step that runs the file childPath (see
// callerDocuments).
func (s *Server) callerEdits(ctx context.Context, self *snapshot, childPath, old, name string, changes map[protocol.DocumentURI][]protocol.TextEdit) error {
	for _, d := range s.callerDocuments(ctx, self) {
		if d.path == "" {
			continue
		}
		an := d.analysis()
		edits := keyEdits(an, d, childPath, old, name)
		if len(edits) == 0 {
			continue
		}
		if clashingKey(an, d, childPath, old, name) {
			return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "a step of %s that runs %s passes %q already", filepath.Base(d.path), filepath.Base(childPath), name)
		}
		changes[d.uri] = append(changes[d.uri], edits...)
	}
	for _, edits := range changes {
		slices.SortStableFunc(edits, func(a, b protocol.TextEdit) int {
			if a.Range.Start.Line != b.Range.Start.Line {
				return cmp.Compare(a.Range.Start.Line, b.Range.Start.Line)
			}
			return cmp.Compare(a.Range.Start.Character, b.Range.Start.Character)
		})
	}
	return nil
}

// crossFileReferences are the references of t in other files. For an arg:
// the workflow_args keys that pass it to this file. For a workflow_args
// key: the child's arg (its declaration when includeDecl) with its
// spellings, and that key in every caller of the child, this one included.
func (s *Server) crossFileReferences(ctx context.Context, doc *snapshot, t target, includeDecl bool) []protocol.Location {
	an := doc.analysis()
	var out []protocol.Location
	var childPath, name string
	switch {
	case (t.kind == argDecl || t.kind == argRef || t.kind == argEnv) && t.arg != nil:
		if doc.path == "" {
			return nil
		}
		childPath, name = doc.path, t.arg.Name()
	default:
		if _, _, ok := an.workflowArgKey(t); !ok {
			return nil
		}
		c, err := s.childArgOf(doc, t)
		if err != nil {
			return nil
		}
		childPath, name = c.path, t.name
		if c.arg != nil {
			for _, o := range c.an.occurrences(target{kind: argDecl, name: name, arg: c.arg}) {
				if !o.decl || includeDecl {
					out = append(out, protocol.Location{URI: c.uri, Range: c.an.m.Range(o.span)})
				}
			}
		}
	}
	for _, d := range s.callerDocuments(ctx, doc) {
		dan := d.analysis()
		for _, obj := range callsOf(dan, d, childPath) {
			for _, f := range obj.Fields {
				if f.Name() == name {
					out = append(out, protocol.Location{URI: d.uri, Range: dan.m.Range(textSpan(f.Key))})
				}
			}
		}
	}
	return out
}

// callsOf lists the workflow_args mappings of the steps of a document that
// run the file childPath.
func callsOf(an *analysis, doc *snapshot, childPath string) []*ast.Object {
	if doc.path == "" {
		return nil
	}
	clean := filepath.Clean(childPath)
	var out []*ast.Object
	for _, si := range an.info().Steps {
		st := si.Step
		if st.Workflow == nil || st.WorkflowArgs == nil {
			continue
		}
		file, ok := an.info().SubWorkflowFile(si, doc.path)
		if !ok || filepath.Clean(file) != clean {
			continue
		}
		if obj := ast.ObjectOf(st.WorkflowArgs.Value); obj != nil {
			out = append(out, obj)
		}
	}
	return out
}

// keyEdits rename the key old of the workflow_args of the steps of a
// document that run childPath.
func keyEdits(an *analysis, doc *snapshot, childPath, old, name string) []protocol.TextEdit {
	var edits []protocol.TextEdit
	for _, obj := range callsOf(an, doc, childPath) {
		for _, f := range obj.Fields {
			if f.Name() == old {
				edits = append(edits, protocol.TextEdit{Range: an.m.Range(textSpan(f.Key)), NewText: name})
			}
		}
	}
	return edits
}

// clashingKey reports whether a step that passes old to childPath passes
// name as well.
func clashingKey(an *analysis, doc *snapshot, childPath, old, name string) bool {
	for _, obj := range callsOf(an, doc, childPath) {
		if obj.Lookup(old) != nil && obj.Lookup(name) != nil {
			return true
		}
	}
	return false
}
