package discover_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/config"
	"github.com/lobsterdev/lobster/lang/discover"
	"github.com/lobsterdev/lobster/lang/parser"
)

// names are file names with whether they are workflow files.
var names = []struct {
	name string
	want bool
}{
	{"deploy.lobster", true},
	{"DEPLOY.LOBSTER", true},
	{"deploy.lobster.yaml", true},
	{"deploy.lobster.yml", true},
	{"deploy.lobster.json", true},
	{"Deploy.Lobster.Json", true},
	{".hidden.lobster", true},
	{"..lobster", true},
	{"a b.lobster", true},
	{".lobster", false},
	{".lobster.yaml", false},
	{".lobsterrc.yaml", false},
	{".lobsterrc.yml", false},
	{"lobster", false},
	{"lobster.yaml", false},
	{"deploy.yaml", false},
	{"deploy.yml", false},
	{"deploy.json", false},
	{"deploy.lobster.txt", false},
	{"deploy.lobster~", false},
	{"deploy.lobsterx", false},
	{"deploy.lobster.yaml.bak", false},
	{"deploy.lobster.jsonc", false},
}

func TestIsWorkflowFile(t *testing.T) {
	for _, n := range names {
		if got := discover.IsWorkflowFile(n.name); got != n.want {
			t.Errorf("IsWorkflowFile(%q) = %v, want %v", n.name, got, n.want)
		}
	}
	for _, n := range config.Names {
		if discover.IsWorkflowFile(n) {
			t.Errorf("the project configuration %s is a workflow file by the rule", n)
		}
	}
	if got := discover.Globs(); !slices.Equal(got, []string{"**/*.lobster", "**/*.lobster.yaml", "**/*.lobster.yml", "**/*.lobster.json"}) {
		t.Errorf("Globs() = %q", got)
	}
}

// TestEveryWorkflowNameLoads: whatever the rule finds, the reference loads
// (a .lobster.json file is read as strict JSON).
func TestEveryWorkflowNameLoads(t *testing.T) {
	for _, n := range names {
		if n.want && !parser.IsWorkflowName(n.name) {
			t.Errorf("%s is found, but the reference does not load it", n.name)
		}
	}
}

// TestVSCodeExtension: the extension's language is the files of the rule.
func TestVSCodeExtension(t *testing.T) {
	data, err := os.ReadFile("../../editors/vscode/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Contributes struct {
			Languages []struct {
				ID         string   `json:"id"`
				Extensions []string `json:"extensions"`
				Filenames  []string `json:"filenames"`
				Patterns   []string `json:"filenamePatterns"`
			} `json:"languages"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range pkg.Contributes.Languages {
		if l.ID != "lobster" {
			continue
		}
		found = true
		got := slices.Sorted(slices.Values(l.Extensions))
		want := slices.Sorted(slices.Values(discover.Suffixes))
		if !slices.Equal(got, want) || len(l.Filenames) > 0 || len(l.Patterns) > 0 {
			t.Errorf("the extension's files: extensions %q, filenames %q, patterns %q; want extensions %q", l.Extensions, l.Filenames, l.Patterns, want)
		}
	}
	if !found {
		t.Error("the extension contributes no lobster language")
	}
}

// TestPreCommitHooks: the hooks' files pattern matches the files of the
// rule (pre-commit matches it against paths with Python's re.search; this
// pattern means the same in Go).
func TestPreCommitHooks(t *testing.T) {
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, diags := parser.Parse(".pre-commit-hooks.yaml", data)
	for _, d := range diags {
		if d.Code == "yaml-syntax" {
			t.Fatal(d.Message)
		}
	}
	hooks, _ := parser.JSONValue(f.Doc).([]any)
	if len(hooks) == 0 {
		t.Fatal("no hooks")
	}
	for _, h := range hooks {
		hook, _ := h.(map[string]any)
		pattern, _ := hook["files"].(string)
		re, err := regexp.Compile(pattern)
		if err != nil {
			t.Errorf("hook %v: files %q: %v", hook["id"], pattern, err)
			continue
		}
		for _, n := range names {
			for _, path := range []string{n.name, "dir/" + n.name} {
				if got := re.MatchString(path); got != n.want {
					t.Errorf("hook %v: files %q matches %q: %v, want %v", hook["id"], pattern, path, got, n.want)
				}
			}
		}
	}
}

func TestLooksLikeWorkflow(t *testing.T) {
	dir := t.TempDir()
	files := []struct {
		name, text string
		want       bool
	}{
		{"deploy.json", `{"steps": [{"id": "a", "run": "echo"}]}`, true},
		{"Deploy.JSON", `{"steps": [{"id": "a", "approval": true}]}`, true},
		{"deploy.yaml", "steps:\n  - id: a\n    pipeline: json\n", true},
		{"deploy.yml", "args: {}\nsteps:\n  - id: a\n    workflow: b.lobster\n  - id: b\n    input: {prompt: x, responseSchema: {}}\n", true},
		{"deploy.lobster.json", `{"steps": [{"id": "a", "run": "echo"}]}`, false}, // found by the rule
		{"deploy.lobster", "steps:\n  - id: a\n    run: echo\n", false},
		{"deploy.txt", "steps:\n  - id: a\n    run: echo\n", false},
		{"package.json", `{"name": "x", "scripts": {"steps": "id"}}`, false},
		{"empty.json", `{"steps": []}`, false},
		{"cloudbuild.yaml", "steps:\n  - id: build\n    name: gcr.io/cloud-builders/docker\n", false},
		{"noid.yaml", "steps:\n  - run: echo\n", false},
		{"list.json", `[{"steps": [{"id": "a", "run": "echo"}]}]`, false},
		{"broken.json", "steps: [unclosed", false},
		{"broken.yaml", "steps: [unclosed", false},
	}
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if err := os.WriteFile(path, []byte(f.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := discover.LooksLikeWorkflow(path); got != f.want {
			t.Errorf("LooksLikeWorkflow(%s) = %v, want %v", f.name, got, f.want)
		}
	}
	big := filepath.Join(dir, "big.json")
	text := `{"steps": [{"id": "a", "run": "echo"}], "pad": "` + strings.Repeat("x", 2<<20) + `"}`
	if err := os.WriteFile(big, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if discover.LooksLikeWorkflow(big) {
		t.Error("a file over 1 MiB was read")
	}
	if discover.LooksLikeWorkflow(filepath.Join(dir, "missing.json")) {
		t.Error("a missing file looks like a workflow")
	}
}

func TestSkipDir(t *testing.T) {
	for name, want := range map[string]bool{".git": true, ".cache": true, "node_modules": true, "src": false, "examples": false, "node_modules2": false} {
		if got := discover.SkipDir(name); got != want {
			t.Errorf("SkipDir(%q) = %v, want %v", name, got, want)
		}
	}
}
