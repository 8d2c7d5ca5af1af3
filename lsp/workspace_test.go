package lsp

import (
	"encoding/json"
	"slices"
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
