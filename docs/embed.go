// Package docs holds the project's documents, embedded so that programs
// can serve them (lobster mcp's resources).
package docs

import "embed"

// Files are the Markdown documents of this directory.
//
//go:embed *.md
var Files embed.FS
