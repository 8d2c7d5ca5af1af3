package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// complete opens text with the cursor at "|" and returns the labels and
// the items.
func complete(t *testing.T, c *client, name, text string) ([]string, []protocol.CompletionItem) {
	t.Helper()
	cursor := -1
	for i := range text {
		if text[i] == '|' && (i+1 >= len(text) || text[i+1] == '\n' || text[i+1] == '}' || text[i+1] == ' ') {
			cursor = i
		}
	}
	if cursor < 0 {
		t.Fatalf("no cursor in %q", text)
	}
	clean := text[:cursor] + text[cursor+1:]
	u := c.open(name, clean)
	var list protocol.CompletionList
	c.call("textDocument/completion", docPos(u, at(t, clean, clean[:cursor], 1, cursor)), &list)
	var labels []string
	for _, it := range list.Items {
		labels = append(labels, it.Label)
	}
	sort.Strings(labels)
	return labels, list.Items
}

func TestCompletion(t *testing.T) {
	c := start(t)
	base := "args:\n  target:\n    default: prod\n  dry-run: {}\nsteps:\n  - id: build\n    run: make\n  - id: gate\n    approval: ok?\n"
	tests := []struct {
		name    string
		text    string
		want    []string // exactly these labels
		some    []string // at least these
		without []string
	}{
		{"step ids", base + "  - id: use\n    run: echo $|\n  - id: later\n    run: x\n",
			nil, []string{"build", "gate", "LOBSTER_ARG_TARGET"}, []string{"later", "use"}},
		{"step id prefix in env", base + "  - id: use\n    env:\n      X: $b|\n    run: x\n", []string{"build", "gate"}, nil, nil},
		{"fields of a shell step", base + "  - id: use\n    run: echo $build.|\n", []string{"json", "stdout"}, nil, nil},
		// An approval-only step without stdin has no output: the checker
		// reports $gate.json (field-not-produced), so it is not offered.
		{"fields of a gate", base + "  - id: use\n    run: echo $gate.|\n", []string{"approved", "approvedBy", "initiatedBy"}, nil, nil},
		{"args", base + "  - id: use\n    run: echo ${|\n", []string{"dry-run", "target"}, nil, nil},
		{"arg env names", base + "  - id: use\n    run: echo $LOBSTER_ARG_|\n", []string{"LOBSTER_ARG_DRY_RUN", "LOBSTER_ARG_TARGET"}, nil, nil},
		{"loop variables", base + "  - id: loop\n    for_each: $build.json\n    steps:\n      - id: s\n        run: echo $|\n",
			nil, []string{"item", "index", "build"}, []string{"s", "loop"}},
		{"step keys", base + "  - id: use\n    run: x\n    on|\n", nil, []string{"on_error", "when", "retry", "stdin"}, []string{"id", "run"}},
		{"new step keys", base + "  - |\n", nil, []string{"id", "run", "pipeline"}, nil},
		{"top keys", "steps:\n  - id: a\n    run: x\n|\n", nil, []string{"args", "env", "name"}, []string{"steps"}},
		{"retry keys", base + "  - id: use\n    run: x\n    retry:\n      |\n", nil, []string{"backoff", "delay_ms", "max"}, []string{"id"}},
		{"arg keys", "args:\n  a:\n    |\nsteps:\n  - id: a\n    run: x\n", []string{"default", "description"}, nil, nil},
		{"on_error values", base + "  - id: use\n    run: x\n    on_error: |\n", []string{"continue", "skip_rest", "stop"}, nil, nil},
		{"backoff values", base + "  - id: use\n    run: x\n    retry:\n      backoff: e|\n", []string{"exponential", "fixed"}, nil, nil},
		{"commands", base + "  - id: use\n    pipeline: exec --json ls | p|\n", nil, []string{"pick", "exec", "where"}, nil},
		{"flags", base + "  - id: use\n    pipeline: exec --|\n", nil, []string{"--json", "--shell"}, nil},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			labels, _ := complete(t, c, "c"+itoa(i)+".lobster", tt.text)
			if tt.want != nil && !slices.Equal(labels, tt.want) {
				t.Errorf("labels %v, want %v", labels, tt.want)
			}
			for _, w := range tt.some {
				if !slices.Contains(labels, w) {
					t.Errorf("labels %v lack %q", labels, w)
				}
			}
			for _, w := range tt.without {
				if slices.Contains(labels, w) {
					t.Errorf("labels %v have %q", labels, w)
				}
			}
		})
	}
}

// TestCompletionEdits checks the text edits: a partly typed name is
// replaced, and ${ gets its closing brace.
func TestCompletionEdits(t *testing.T) {
	c := start(t)
	text := "args:\n  target: {}\nsteps:\n  - id: build\n    run: make\n  - id: use\n    run: echo ${ta| $bu\n"
	_, items := complete(t, c, "e1.lobster", text)
	if len(items) != 1 || items[0].TextEdit == nil || items[0].TextEdit.NewText != "target}" {
		t.Fatalf("items %+v", items)
	}
	if r := items[0].TextEdit.Range; r.Start.Character != 16 || r.End.Character != 18 {
		t.Errorf("edit range %v, want characters 16-18 (the typed \"ta\")", r)
	}
	text = "steps:\n  - id: build\n    run: make\n  - id: use\n    run: echo $bu|\n"
	_, items = complete(t, c, "e2.lobster", text)
	if len(items) != 1 || items[0].TextEdit.NewText != "build" || items[0].TextEdit.Range.Start.Character != 15 {
		t.Fatalf("items %+v", items)
	}
}

func TestCompletionResponseAndChildArgs(t *testing.T) {
	c := start(t)
	text := "steps:\n  - id: ask\n    input:\n      prompt: Which?\n      responseSchema:\n        type: object\n        properties:\n          env: {type: string}\n          count: {type: number}\n  - id: use\n    run: echo $ask.response.|\n"
	labels, _ := complete(t, c, "r.lobster", text)
	if !slices.Equal(labels, []string{"count", "env"}) {
		t.Errorf("response keys %v", labels)
	}
	labels, _ = complete(t, c, "r2.lobster", strings.Replace(text, "$ask.response.|", "$ask.|", 1))
	if !slices.Equal(labels, []string{"response", "subject"}) {
		t.Errorf("fields of an input step %v", labels)
	}
	child := "args:\n  region: {default: eu}\n  size: {}\nsteps:\n  - id: c\n    run: echo ${region} ${size}\n"
	if err := os.WriteFile(filepath.Join(c.dir, "child.lobster"), []byte(child), 0o666); err != nil {
		t.Fatal(err)
	}
	labels, _ = complete(t, c, "p1.lobster", "steps:\n  - id: p\n    workflow: child.lobster\n    workflow_args:\n      |\n")
	if !slices.Equal(labels, []string{"region", "size"}) {
		t.Errorf("child args %v", labels)
	}
	labels, _ = complete(t, c, "p2.lobster", "steps:\n  - id: p\n    workflow: child.lobster\n    workflow_args:\n      region: us\n      |\n")
	if !slices.Equal(labels, []string{"size"}) {
		t.Errorf("child args after region %v", labels)
	}
}
