package lsp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestWorkspaceRoots(t *testing.T) {
	for _, tt := range []struct {
		params string
		want   []string
	}{
		{`{"rootUri":"file:///r","workspaceFolders":[{"uri":"file:///a"},{"uri":"untitled:x"},{"uri":"file:///b%20c"}]}`, []string{"/a", "/b c"}},
		{`{"rootUri":"file:///r","workspaceFolders":null}`, []string{"/r"}},
		{`{"rootUri":null,"rootPath":"/p"}`, []string{"/p"}},
		{`{"rootUri":null}`, nil},
	} {
		var w workspaceInit
		if err := json.Unmarshal([]byte(tt.params), &w); err != nil {
			t.Fatal(err)
		}
		if got := w.roots(); !slices.Equal(got, tt.want) {
			t.Errorf("roots of %s = %q, want %q", tt.params, got, tt.want)
		}
	}
}

// TestCallerDocumentsBounded: a workspace of large workflow files is read
// up to workspaceByteLimit for one request, not whole.
func TestCallerDocumentsBounded(t *testing.T) {
	dir := t.TempDir()
	big := "# workflow " + strings.Repeat("x", 6<<20) + "\nsteps: []\n"
	for _, name := range []string{"a.lobster", "b.lobster", "c.lobster", "d.lobster", "e.lobster"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(big), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s := NewServer(Options{})
	s.roots = []string{dir}
	self := newSnapshot("untitled:x", 1, []byte("steps: []\n"))
	total := 0
	for _, d := range s.callerDocuments(context.Background(), self)[1:] {
		total += len(d.text)
	}
	if total == 0 || total > workspaceByteLimit {
		t.Errorf("read %d bytes of workspace files, want some and at most %d", total, workspaceByteLimit)
	}
}
