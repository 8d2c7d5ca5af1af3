package lsp

import (
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

func codeActionsAt(t *testing.T, c *client, u protocol.DocumentURI, r protocol.Range) []protocol.CodeAction {
	t.Helper()
	var acts []protocol.CodeAction
	c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": u}, "range": r, "context": map[string]any{"diagnostics": []any{}},
	}, &acts)
	return acts
}

func findAction(acts []protocol.CodeAction, prefix string) *protocol.CodeAction {
	for i := range acts {
		if strings.HasPrefix(acts[i].Title, prefix) {
			return &acts[i]
		}
	}
	return nil
}

// TestCodeActionFix applies a checker fix from a code action and checks
// that the server then reports the finding gone.
func TestCodeActionFix(t *testing.T) {
	c := start(t)
	u := c.open("deploy.lobster", typo)
	c.waitDiags(u, hasCode("unknown-step-ref"))
	p := at(t, typo, "biuld", 1, 1)
	acts := codeActionsAt(t, c, u, protocol.Range{Start: p, End: p})
	var titles []string
	for _, a := range acts {
		titles = append(titles, a.Title)
	}
	fix := findAction(acts, `Change "biuld" to "build"`)
	if fix == nil {
		t.Fatalf("no fix among %q", titles)
	}
	if fix.Kind != protocol.QuickFix || !fix.IsPreferred || len(fix.Diagnostics) != 1 || fix.Diagnostics[0].Code != "unknown-step-ref" {
		t.Errorf("fix %+v", fix)
	}
	fixed := applyEdits(t, typo, fix.Edit.Changes[u])
	if !strings.Contains(fixed, `"$build.stdout"`) {
		t.Fatalf("fixed text:\n%s", fixed)
	}
	v := c.change(u, map[string]any{"text": fixed})
	if hasCode("unknown-step-ref")(c.waitVersion(u, v)) {
		t.Errorf("the fix did not remove the finding")
	}
}

// TestCodeActionSuppress applies "suppress this rule here" in each place a
// comment can go, and checks that the finding is gone and no other
// appears.
func TestCodeActionSuppress(t *testing.T) {
	tests := []struct {
		name, text, at, code, title string
		want                        string // a line of the result
	}{
		{"end of line", typo, "biuld", "unknown-step-ref", "Suppress unknown-step-ref on this line",
			`    run: ./deploy.sh "$biuld.stdout"  # lobster-ignore: unknown-step-ref`},
		{"line with a comment", strings.Replace(typo, `"$biuld.stdout"`, `"$biuld.stdout" # deploy`, 1), "biuld", "unknown-step-ref",
			"Suppress unknown-step-ref on this line", `    # lobster-ignore: unknown-step-ref`},
		{"block scalar", "steps:\n  - id: a\n    run: |\n      echo 1\n      echo $nope.stdout\n", "nope", "unknown-step-ref",
			"Suppress unknown-step-ref in this file", `# lobster-ignore-file: unknown-step-ref`},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := start(t)
			u := c.open("s"+itoa(i)+".lobster", tt.text)
			c.waitDiags(u, hasCode(tt.code))
			before := codes(c.waitVersion(u, 1).Diagnostics)
			p := at(t, tt.text, tt.at, 1, 1)
			act := findAction(codeActionsAt(t, c, u, protocol.Range{Start: p, End: p}), tt.title)
			if act == nil {
				t.Fatalf("no %q action", tt.title)
			}
			text := applyEdits(t, tt.text, act.Edit.Changes[u])
			if !slices.Contains(strings.Split(text, "\n"), tt.want) {
				t.Errorf("result has no line %q:\n%s", tt.want, text)
			}
			v := c.change(u, map[string]any{"text": text})
			after := codes(c.waitVersion(u, v).Diagnostics)
			want := slices.DeleteFunc(before, func(s string) bool { return s == tt.code })
			if !slices.Equal(after, want) {
				t.Errorf("after suppressing: %v, want %v\n%s", after, want, text)
			}
		})
	}
}

func TestCodeActionUnsafeAndOnly(t *testing.T) {
	c := start(t)
	text := "steps:\n  - id: a\n    run: echo 1\n    command: echo 2\n"
	u := c.open("u.lobster", text)
	c.waitVersion(u, 1)
	acts := codeActionsAt(t, c, u, rng(0, 0, 4, 0))
	unsafe := 0
	for _, a := range acts {
		if strings.Contains(a.Title, "(unsafe") {
			unsafe++
			if a.IsPreferred {
				t.Errorf("unsafe fix is preferred: %q", a.Title)
			}
		}
	}
	if unsafe == 0 {
		t.Errorf("no unsafe fix among %d actions", len(acts))
	}
	var none []protocol.CodeAction
	c.call("textDocument/codeAction", map[string]any{
		"textDocument": map[string]any{"uri": u}, "range": rng(0, 0, 4, 0),
		"context": map[string]any{"diagnostics": []any{}, "only": []string{"refactor"}},
	}, &none)
	if len(none) != 0 {
		t.Errorf("only refactor: %d actions", len(none))
	}
}
