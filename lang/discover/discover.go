// Package discover is the one rule that says which files of a directory are
// workflow files: lobster check DIR, the language server (its workspace
// walk and its file watchers), the MCP server's workspace resources, the
// editor extension and the pre-commit hooks all find the same files.
//
// A workflow file's name ends in .lobster, .lobster.yaml, .lobster.yml or
// .lobster.json, in any case, after at least one other character. The
// project configuration (.lobsterrc.yaml, .lobsterrc.yml) matches none of
// them. A file named explicitly (lobster check FILE, lobster run FILE) is a
// workflow whatever its name; the reference loads .lobster, .yaml, .yml and
// .json files (parser.IsWorkflowName). Directories whose name starts with a
// dot, and node_modules, are not searched.
package discover

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/parser"
)

// Suffixes are the endings of workflow file names, in lower case.
var Suffixes = []string{".lobster", ".lobster.yaml", ".lobster.yml", ".lobster.json"}

// Globs are the Suffixes as glob patterns that match at any depth
// ("**/*.lobster"), for file watchers.
func Globs() []string {
	out := make([]string, len(Suffixes))
	for i, s := range Suffixes {
		out[i] = "**/*" + s
	}
	return out
}

// IsWorkflowFile reports whether a file name (the last element of a path)
// is that of a workflow file.
func IsWorkflowFile(name string) bool {
	lower := strings.ToLower(name)
	for _, s := range Suffixes {
		if len(lower) > len(s) && strings.HasSuffix(lower, s) {
			return true
		}
	}
	return false
}

// SkipDir reports whether a directory found inside a searched directory is
// left out: its name starts with a dot (.git, .cache), or it is
// node_modules.
func SkipDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "node_modules"
}

// sniffLimit bounds the files LooksLikeWorkflow reads: a workflow is a
// small file, and a large .json file is data.
const sniffLimit = 1 << 20

// stepKeys are the keys of which a step has at least one.
var stepKeys = []string{"run", "command", "pipeline", "workflow", "parallel", "for_each", "approval", "input"}

// LooksLikeWorkflow reports whether a file that the rule does not find
// (IsWorkflowFile is false) is nevertheless a workflow the reference would
// run: its name ends in .json, .yaml or .yml, and it holds a mapping whose
// steps are a non-empty list of mappings, each with an id and something to
// do (run, pipeline, approval…). Callers say so instead of skipping it
// silently. Files over 1 MiB, and files that cannot be read, are not.
func LooksLikeWorkflow(path string) bool {
	name := filepath.Base(path)
	if IsWorkflowFile(name) || !parser.IsWorkflowName(name) || strings.EqualFold(filepath.Ext(name), ".lobster") {
		return false
	}
	data, err := bounded.ReadFile(path, sniffLimit)
	if err != nil {
		return false
	}
	if !bytes.Contains(data, []byte("steps")) || !bytes.Contains(data, []byte("id")) {
		return false // most files: no parse
	}
	f, _ := parser.Parse(name, data)
	if f == nil || f.Doc == nil {
		return false
	}
	doc, ok := parser.JSONValue(f.Doc).(map[string]any)
	if !ok {
		return false
	}
	steps, ok := doc["steps"].([]any)
	if !ok || len(steps) == 0 {
		return false
	}
	for _, s := range steps {
		step, ok := s.(map[string]any)
		if !ok || step["id"] == nil || !hasAny(step, stepKeys) {
			return false
		}
	}
	return true
}

func hasAny(m map[string]any, keys []string) bool {
	for _, k := range keys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}
