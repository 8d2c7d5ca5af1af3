package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

func TestHover(t *testing.T) {
	c, u := openFlow(t)
	tests := []struct {
		name string
		pos  protocol.Position
		want []string // substrings of the markdown
		span string   // the text of the hover's range
	}{
		{"step id", at(t, flow, "id: build", 1, 5), []string{"**shell step** `build`", "make build TARGET=prod"}, "build"},
		{"step ref", at(t, flow, "$build.stdout", 1, 2), []string{"**shell step** `build`", "make build TARGET=prod"}, "build"},
		{"ref field", at(t, flow, "$build.stdout", 1, 8), []string{"`$build.stdout`", "the step's output as a string"}, "stdout"},
		{"ref in condition", at(t, flow, "$build.json.ok", 1, 8), []string{"`$build.json`", "parsed as JSON"}, "json"},
		{"json path", at(t, flow, "$build.json.ok", 1, 13), []string{"walks into `$build.json`"}, "ok"},
		{"arg ref", at(t, flow, "${target}", 1, 3), []string{"**arg** `target`", "where to deploy", "default: `prod`", "`LOBSTER_ARG_TARGET`"}, "target"},
		{"arg env", at(t, flow, "LOBSTER_ARG_TARGET", 1, 14), []string{"**arg** `target`"}, "LOBSTER_ARG_TARGET"},
		{"arg decl", at(t, flow, "dry-run:", 1, 2), []string{"**arg** `dry-run`", "default: `false`", "`LOBSTER_ARG_DRY_RUN`"}, "dry-run"},
		{"approval step", at(t, flow, "id: approve", 1, 6), []string{"**approval step**", `approval gate: "Ship it?"`, "stdin: `$test.stdout`"}, "approve"},
		{"condition facts", at(t, flow, "id: test", 1, 5), []string{"when: `$build.json.ok == true && !$build.skipped`"}, "test"},
		{"command", at(t, flow, "exec --json", 1, 1), []string{"**exec**"}, "exec"},
		{"flag", at(t, flow, "--shell", 1, 3), []string{"**--shell**", "of `exec`"}, "shell"},
		{"key", at(t, flow, "on_error:", 1, 1), []string{"**on_error**", "values: stop, continue, skip_rest"}, "on_error"},
		{"top key", at(t, flow, "env:", 1, 0), []string{"**env**", "Environment variables"}, "env"},
		{"loop var", at(t, flow, "$item.json", 1, 2), []string{"**loop variable** `$item`", "for_each loop `each`"}, "item"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h *protocol.Hover
			c.call("textDocument/hover", docPos(u, tt.pos), &h)
			if h == nil {
				t.Fatalf("no hover at %v", tt.pos)
			}
			for _, w := range tt.want {
				if !strings.Contains(h.Contents.Value, w) {
					t.Errorf("hover does not contain %q:\n%s", w, h.Contents.Value)
				}
			}
			if h.Range == nil {
				t.Errorf("hover has no range, want one covering %q", tt.span)
			} else if got := textOf(flow, *h.Range); got != tt.span {
				t.Errorf("hover range %v covers %q, want %q", *h.Range, got, tt.span)
			}
		})
	}
	// Nothing to say on a plain word.
	var h *protocol.Hover
	c.call("textDocument/hover", docPos(u, at(t, flow, "make build", 1, 1)), &h)
	if h != nil {
		t.Errorf("hover on shell text: %+v", h)
	}
}

func TestHoverLaterStep(t *testing.T) {
	c := start(t)
	text := "steps:\n  - id: a\n    run: echo $b.stdout\n  - id: b\n    run: echo\n"
	u := c.open("later.lobster", text)
	var h *protocol.Hover
	c.call("textDocument/hover", docPos(u, at(t, text, "$b.stdout", 1, 1)), &h)
	if h == nil || !strings.Contains(h.Contents.Value, "runs later") {
		t.Errorf("hover on a later step: %+v", h)
	}
}

func TestHoverChildWorkflow(t *testing.T) {
	c := start(t)
	child := "args:\n  region:\n    default: eu\n    description: where it runs\nsteps:\n  - id: c\n    run: echo ${region}\n"
	if err := os.WriteFile(filepath.Join(c.dir, "child.lobster"), []byte(child), 0o666); err != nil {
		t.Fatal(err)
	}
	text := "steps:\n  - id: p\n    workflow: child.lobster\n    workflow_args:\n      region: us\n"
	u := c.open("parent.lobster", text)
	var h *protocol.Hover
	c.call("textDocument/hover", docPos(u, at(t, text, "child.lobster", 1, 3)), &h)
	if h == nil || !strings.Contains(h.Contents.Value, "(1 step)") || !strings.Contains(h.Contents.Value, "- `region` (default `eu`)") {
		t.Fatalf("hover on the workflow path: %+v", h)
	}
	c.call("textDocument/hover", docPos(u, at(t, text, "region:", 1, 2)), &h)
	if h == nil || !strings.Contains(h.Contents.Value, "where it runs") || textOf(text, *h.Range) != "region" {
		t.Fatalf("hover on a workflow_args key: %+v", h)
	}
}
