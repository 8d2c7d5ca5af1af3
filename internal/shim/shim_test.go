package shim

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
)

// TestPipeline: every argument reaches the command as the one word it
// was, whatever it holds.
func TestPipeline(t *testing.T) {
	args := []string{"--tool", "a b", `q"uote`, "d$x", `back\slash`, "tick`t", "s'q", "", "x|y", "é", "${arg}", "$step.json"}
	text := Pipeline("openclaw.invoke", args)
	want := `openclaw.invoke "--tool" "a b" "q\"uote" "d\$x" "back\\slash" "tick` + "\\`" + `t" "s'q" "" "x|y" "é" "\${arg}" "\$step.json"`
	if text != want {
		t.Fatalf("Pipeline = %s\nwant       %s", text, want)
	}
	p := parser.ParsePipelineText(text)
	if p.Err != nil || len(p.Stages) != 1 {
		t.Fatalf("parse: %v, %d stages", p.Err, len(p.Stages))
	}
	var got []string
	for _, a := range p.Stages[0].Args {
		switch a := a.(type) {
		case *ast.Flag:
			got = append(got, "--"+a.Name, a.Value.Text)
		case *ast.Word:
			got = append(got, a.Text)
		}
	}
	if strings.Join(got, "\x00") != strings.Join(args, "\x00") {
		t.Errorf("words %q\nwant  %q", got, args)
	}
}

// TestLobster: lobster is found next to the shim (also through a
// symbolic link to it), else on PATH.
func TestLobster(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("executables are named .exe")
	}
	dir := t.TempDir()
	self := filepath.Join(dir, "openclaw.invoke")
	os.WriteFile(self, nil, 0o755)
	t.Setenv("PATH", "")
	if _, err := Lobster(self); err == nil {
		t.Error("found a lobster where there is none")
	}
	lobster := filepath.Join(dir, "lobster")
	os.WriteFile(lobster, nil, 0o755)
	link := filepath.Join(t.TempDir(), "openclaw.invoke")
	os.Symlink(self, link)
	for _, s := range []string{self, link} {
		if got, err := Lobster(s); err != nil || got != lobster {
			t.Errorf("Lobster(%s) = %s, %v; want %s", s, got, err, lobster)
		}
	}
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "lobster"), nil, 0o755)
	t.Setenv("PATH", other)
	if got, err := Lobster(filepath.Join(t.TempDir(), "clawd.invoke")); err != nil || got != filepath.Join(other, "lobster") {
		t.Errorf("from PATH: %s, %v", got, err)
	}
}
