//lint:file-ignore SA1019 Roots stay: clients of the older protocol generations confine the server with them.

package mcp

import (
	"context"
	"io/fs"
	"net/url"
	"path/filepath"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/lobsterdev/lobster/docs"
	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/discover"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/schema"
)

// A reference is a document the server serves as a resource.
type reference struct {
	uri, name, title, description, mime string
	// text is the document, or false when this build does not have it.
	text func() (string, bool)
}

// references are the documents served. A document of docs/ is one line:
// it is served once the file exists.
var references = []reference{
	{"lobster://docs/diagnostics.md", "diagnostics", "Diagnostics reference", "Every code lobster check reports: what it catches, why it matters, how to fix it.", "text/markdown",
		func() (string, bool) { return check.Markdown(check.All), true }},
	{"lobster://docs/workflow-format.md", "workflow-format", "Workflow format reference", "The language of workflow files: keys, step kinds, references, conditions, gates.", "text/markdown",
		docFile("workflow-format.md")},
	{"lobster://schema/lobster.schema.json", "schema", "Workflow JSON Schema", "The JSON Schema (draft 2020-12) of workflow files.", "application/schema+json",
		func() (string, bool) { return string(schema.JSON), true }},
}

// docFile is the text of a file of docs/, when it exists.
func docFile(name string) func() (string, bool) {
	return func() (string, bool) {
		data, err := docs.Files.ReadFile(name)
		return string(data), err == nil
	}
}

// Limits of the workspace listing.
const (
	maxListed  = 500    // workflow files listed
	maxVisited = 20_000 // directory entries looked at
)

func (s *Server) addResources() {
	for _, r := range references {
		if _, ok := r.text(); !ok {
			continue
		}
		s.sdk.AddResource(&sdk.Resource{URI: r.uri, Name: r.name, Title: r.title, Description: r.description, MIMEType: r.mime},
			func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
				text, _ := r.text()
				return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: r.uri, MIMEType: r.mime, Text: text}}}, nil
			})
	}
	s.sdk.AddResourceTemplate(&sdk.ResourceTemplate{
		URITemplate: "file:///{+path}", Name: "workflow-file", Title: "Workflow file",
		Description: "A workflow file in the workspace roots.", MIMEType: "application/yaml",
	}, s.readWorkflowResource)
	s.sdk.AddReceivingMiddleware(s.listWorkflowFiles)
}

// sessionRoots are the roots for a resource request: the client's, asked
// directly of clients before protocol 2026-07-28, else the server's
// directory.
func (s *Server) sessionRoots(ctx context.Context, ss *sdk.ServerSession) []string {
	p := ss.InitializeParams()
	if p == nil || p.ProtocolVersion >= newProtocol || p.Capabilities == nil || p.Capabilities.RootsV2 == nil {
		return []string{s.opts.Dir}
	}
	s.mu.Lock()
	roots, ok := s.roots[ss]
	s.mu.Unlock()
	if !ok {
		res, err := ss.ListRoots(ctx, nil)
		if err != nil {
			return []string{s.opts.Dir}
		}
		roots = rootDirs(res.Roots)
		s.mu.Lock()
		s.roots[ss] = roots
		s.mu.Unlock()
	}
	return s.withDefaultRoot(roots)
}

// readWorkflowResource reads a workflow file in the roots.
func (s *Server) readWorkflowResource(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	u, err := url.Parse(req.Params.URI)
	if err != nil || u.Scheme != "file" {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	real, err := resolve(s.sessionRoots(ctx, req.Session), filepath.FromSlash(u.Path))
	if err != nil || !isWorkflowFile(real) {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	data, err := bounded.ReadFile(real, bounded.DefaultLimit)
	if err != nil {
		return nil, sdk.ResourceNotFoundError(req.Params.URI)
	}
	return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: req.Params.URI, MIMEType: mimeOf(real), Text: string(data)}}}, nil
}

// isWorkflowFile says whether a file is served as a workflow when a client
// names it: a file the workspace listing finds (lang/discover), or another
// .json, .yaml or .yml file (names the runtime runs).
func isWorkflowFile(path string) bool {
	return parser.IsWorkflowName(filepath.Base(path))
}

func mimeOf(path string) string {
	if strings.EqualFold(filepath.Ext(path), ".json") {
		return "application/json"
	}
	return "application/yaml"
}

// listWorkflowFiles adds the workspace's workflow files to the last page of
// resources/list.
func (s *Server) listWorkflowFiles(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		res, err := next(ctx, method, req)
		if method != "resources/list" || err != nil {
			return res, err
		}
		list, ok := res.(*sdk.ListResourcesResult)
		ss, _ := req.GetSession().(*sdk.ServerSession)
		if !ok || ss == nil || list.NextCursor != "" {
			return res, err
		}
		for _, path := range workflowFiles(s.sessionRoots(ctx, ss)) {
			u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
			list.Resources = append(list.Resources, &sdk.Resource{
				URI: u.String(), Name: filepath.Base(path), MIMEType: mimeOf(path),
				Description: "A workflow file of the workspace",
			})
		}
		return list, nil
	}
}

// workflowFiles are the workflow files under roots, found as lobster check
// finds them (lang/discover), within the listing's limits.
func workflowFiles(roots []string) []string {
	var out []string
	visited := 0
	seen := map[string]bool{}
	for _, root := range roots {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			visited++
			if visited > maxVisited || len(out) >= maxListed {
				return fs.SkipAll
			}
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if path != root && discover.SkipDir(d.Name()) {
					return fs.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() && discover.IsWorkflowFile(d.Name()) && !seen[path] {
				seen[path] = true
				out = append(out, path)
			}
			return nil
		})
	}
	return out
}
