//lint:file-ignore SA1019 Roots stay: clients of the older protocol generations confine the server with them.

package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/config"
	"github.com/lobsterdev/lobster/lang/source"
)

// Paths. Every path a tool is given, and every file a workflow makes the
// checker or planner read (a sub-workflow), must lie in one of the
// client's roots: the file:// roots it declares, or the server's
// directory when it declares none. Symbolic links are resolved first, so
// a link cannot lead out.

// errRootsUnknown is a read before the client's roots are known: the call
// asks for them and runs again.
var errRootsUnknown = errors.New("the client's roots are not known yet")

// rootsChanged forgets a session's roots when the client changes them.
func (s *Server) rootsChanged(_ context.Context, req *sdk.RootsListChangedRequest) {
	s.mu.Lock()
	delete(s.roots, req.Session)
	s.mu.Unlock()
}

// knownRoots are the call's roots when they are known without asking.
func (c *call) knownRoots() ([]string, bool) {
	if c.state.HaveRoots {
		return c.s.withDefaultRoot(c.state.Roots), true
	}
	if r, ok := c.response("roots").(*sdk.ListRootsResult); ok {
		c.state.HaveRoots, c.state.Roots = true, rootDirs(r.Roots)
		if c.legacy() {
			c.s.mu.Lock()
			c.s.roots[c.req.Session] = c.state.Roots
			c.s.mu.Unlock()
		}
		return c.s.withDefaultRoot(c.state.Roots), true
	}
	caps := c.req.ClientCapabilities()
	if caps == nil || caps.RootsV2 == nil {
		c.state.HaveRoots = true
		return []string{c.s.opts.Dir}, true
	}
	if c.legacy() {
		c.s.mu.Lock()
		roots, ok := c.s.roots[c.req.Session]
		c.s.mu.Unlock()
		if ok {
			c.state.HaveRoots, c.state.Roots = true, roots
			return c.s.withDefaultRoot(roots), true
		}
	}
	return nil, false
}

// roots are the call's roots, or a request for them.
func (c *call) roots() ([]string, error) {
	if roots, ok := c.knownRoots(); ok {
		return roots, nil
	}
	return nil, c.ask("roots", &sdk.ListRootsParams{}, c.state)
}

// withDefaultRoot is roots, or the server's directory when there are none.
func (s *Server) withDefaultRoot(roots []string) []string {
	if len(roots) == 0 {
		return []string{s.opts.Dir}
	}
	return roots
}

// rootDirs are the directories of file:// roots, links resolved.
func rootDirs(roots []*sdk.Root) []string {
	var dirs []string
	for _, r := range roots {
		if r == nil {
			continue
		}
		u, err := url.Parse(r.URI)
		if err != nil || u.Scheme != "file" || u.Path == "" {
			continue
		}
		dir := filepath.Clean(filepath.FromSlash(u.Path))
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = real
		}
		dirs = append(dirs, dir)
	}
	return dirs
}

// resolve is the absolute path of p, with links resolved, when it lies
// in one of roots. A relative p is taken in the first root that has it,
// else in the first root.
func resolve(roots []string, p string) (string, error) {
	if p == "" {
		return "", errors.New("path is empty")
	}
	if strings.ContainsRune(p, 0) {
		return "", errors.New("path contains a NUL byte")
	}
	if u, err := url.Parse(p); err == nil && u.Scheme == "file" {
		p = filepath.FromSlash(u.Path)
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(roots[0], abs)
		for _, root := range roots {
			if _, err := os.Lstat(filepath.Join(root, p)); err == nil {
				abs = filepath.Join(root, p)
				break
			}
		}
	}
	abs = filepath.Clean(abs)
	real := abs
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		real = r
	} else if r, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		real = filepath.Join(r, filepath.Base(abs)) // a file yet to exist
	}
	for _, root := range roots {
		if within(real, root) {
			return real, nil
		}
	}
	return "", fmt.Errorf("%s is outside the workspace roots (%s): the server reads only files in the client's roots", p, strings.Join(roots, ", "))
}

// within says whether path is dir or lies under it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// readFile reads a file for the checker or the planner (a sub-workflow):
// only in the roots, at most the checker's limit, only regular files.
// Before the roots are known it fails with errRootsUnknown and sets
// needRoots. The checker calls it from several goroutines.
func (c *call) readFile(needRoots *atomic.Bool) func(string) ([]byte, error) {
	roots, known := c.knownRoots()
	return func(path string) ([]byte, error) {
		if !known {
			needRoots.Store(true)
			return nil, errRootsUnknown
		}
		real, err := resolve(roots, path)
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: path, Err: errors.New("outside the workspace roots")}
		}
		return bounded.ReadFile(real, bounded.DefaultLimit)
	}
}

// config is the project configuration (lang/config) of the workflow l, as
// lobster check finds it by walking up from the workflow's directory, but
// only when it lies in the client's roots: a configuration above them is
// not the workspace's and is not read. Before the roots are known it asks
// for them.
func (c *call) config(l *loaded) (*config.Config, error) {
	p := config.Find(filepath.Dir(l.path))
	if p == "" {
		return nil, nil
	}
	roots, err := c.roots()
	if err != nil {
		return nil, err
	}
	real, err := resolve(roots, p)
	if err != nil {
		return nil, nil
	}
	return config.Load(real), nil
}

// configDiags are the problems of the configuration cfg itself (nil for
// none), named by its path in the first root that holds it, as lobster
// check reports them next to the workflow's.
func (c *call) configDiags(cfg *config.Config) []source.Diagnostic {
	if cfg == nil {
		return nil
	}
	name := cfg.Path
	if roots, ok := c.knownRoots(); ok {
		for _, root := range roots {
			if rel, err := filepath.Rel(root, cfg.Path); err == nil && within(cfg.Path, root) {
				name = filepath.ToSlash(rel)
				break
			}
		}
	}
	var out []source.Diagnostic
	for _, d := range cfg.Diags {
		d.File = name
		out = append(out, d)
	}
	return out
}
