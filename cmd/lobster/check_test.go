package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/creack/pty"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

func TestParseInterleaved(t *testing.T) {
	tests := []struct {
		args    []string
		want    []string
		format  string
		wantErr bool
	}{
		{args: nil, want: nil, format: "text"},
		{args: []string{"a", "b"}, want: []string{"a", "b"}, format: "text"},
		{args: []string{"--format", "json", "a"}, want: []string{"a"}, format: "json"},
		{args: []string{"a", "--format", "json", "b"}, want: []string{"a", "b"}, format: "json"},
		{args: []string{"a", "b", "-format=json"}, want: []string{"a", "b"}, format: "json"},
		{args: []string{"-", "--format", "json"}, want: []string{"-"}, format: "json"},
		{args: []string{"a", "--", "--format", "json"}, want: []string{"a", "--format", "json"}, format: "text"},
		{args: []string{"--", "-"}, want: []string{"-"}, format: "text"},
		{args: []string{"a", "--nope"}, wantErr: true},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("check", flag.ContinueOnError)
		fs.SetOutput(new(bytes.Buffer))
		format := fs.String("format", "text", "")
		got, err := parseInterleaved(fs, tt.args)
		if (err != nil) != tt.wantErr {
			t.Errorf("parseInterleaved(%q): error %v, want error %v", tt.args, err, tt.wantErr)
			continue
		}
		if tt.wantErr {
			continue
		}
		if !reflect.DeepEqual(got, tt.want) || *format != tt.format {
			t.Errorf("parseInterleaved(%q) = %q, format %q; want %q, format %q", tt.args, got, *format, tt.want, tt.format)
		}
	}
}

func writeFiles(t *testing.T, dir string, files ...string) {
	t.Helper()
	for _, name := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("steps: []\n"), 0o666); err != nil {
			t.Fatal(err)
		}
	}
}

func names(inputs []input) []string {
	var out []string
	for _, in := range inputs {
		out = append(out, in.name)
	}
	return out
}

func TestCollect(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir,
		"flows/b.lobster",
		"flows/a.lobster",
		"flows/UPPER.LOBSTER",
		"flows/sub/c.lobster",
		"flows/sub/notes.yaml",
		"flows/sub/d.json",
		"flows/.git/x.lobster",
		"flows/.hidden/y.lobster",
		"flows/node_modules/pkg/z.lobster",
		"flows/.dotfile.lobster",
		"flows/e.lobster.yaml",
		"flows/sub/f.lobster.yml",
		"flows/g.lobster.json",
		"flows/.lobsterrc.yaml",
		"flows/.lobster",
		"other.yaml",
	)
	if runtime.GOOS != "windows" {
		// A dangling link (an editor lock file) is skipped; a link to a
		// file is followed; a link to a directory is not walked.
		must(t, os.Symlink("nowhere", filepath.Join(dir, "flows", ".#lock.lobster")))
		must(t, os.Symlink("a.lobster", filepath.Join(dir, "flows", "link.lobster")))
		must(t, os.Symlink("sub", filepath.Join(dir, "flows", "dirlink.lobster")))
	}
	t.Chdir(dir)

	inputs, problems, _ := collect([]string{"flows", "other.yaml", "flows/a.lobster", "./flows/sub/", "missing", "-"}, "<stdin>")
	want := []string{
		"<stdin>",
		"flows/.dotfile.lobster",
		"flows/UPPER.LOBSTER",
		"flows/a.lobster",
		"flows/b.lobster",
		"flows/e.lobster.yaml",
		"flows/g.lobster.json",
		"flows/sub/c.lobster",
		"flows/sub/f.lobster.yml",
		"other.yaml",
	}
	if runtime.GOOS != "windows" {
		want = []string{
			"<stdin>",
			"flows/.dotfile.lobster",
			"flows/UPPER.LOBSTER",
			"flows/a.lobster",
			"flows/b.lobster",
			"flows/e.lobster.yaml",
			"flows/g.lobster.json",
			"flows/link.lobster",
			"flows/sub/c.lobster",
			"flows/sub/f.lobster.yml",
			"other.yaml",
		}
	}
	if got := names(inputs); !reflect.DeepEqual(got, want) {
		t.Errorf("collect names:\n got %q\nwant %q", got, want)
	}
	if len(problems) != 1 || problems[0].path != "missing" || problems[0].reason == "" || strings.Contains(problems[0].reason, "stat") {
		t.Errorf("collect problems = %+v, want one for \"missing\" without the operation", problems)
	}
	for _, in := range inputs {
		if in.stdin != (in.name == "<stdin>") {
			t.Errorf("input %q: stdin = %v", in.name, in.stdin)
		}
	}

	// The walk root itself may be a dot-directory.
	inputs, _, _ = collect([]string{"flows/.hidden"}, "")
	if got := names(inputs); !reflect.DeepEqual(got, []string{"flows/.hidden/y.lobster"}) {
		t.Errorf("walk of a dot-directory root = %q", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestUseColor(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	var buf bytes.Buffer
	regular, err := os.Create(filepath.Join(t.TempDir(), "out"))
	must(t, err)
	defer regular.Close()

	type test struct {
		mode string
		w    io.Writer
		env  func(string) string
		want bool
	}
	tests := []test{
		{"always", &buf, env(), true},
		{"always", &buf, env("NO_COLOR", "1"), true},
		{"never", &buf, env(), false},
		{"auto", &buf, env(), false},
		{"auto", regular, env(), false},
	}
	// /dev/null is a character device but not a terminal.
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	must(t, err)
	defer devnull.Close()
	tests = append(tests, test{"auto", devnull, env(), false})
	if ptmx, tty, err := pty.Open(); err != nil {
		t.Logf("no pseudo-terminal (%v): the cases on a terminal did not run", err)
	} else {
		defer ptmx.Close()
		defer tty.Close()
		tests = append(tests,
			test{"auto", tty, env(), true},
			test{"auto", tty, env("NO_COLOR", "1"), false},
			test{"auto", tty, env("NO_COLOR", ""), true},
			test{"auto", tty, env("TERM", "dumb"), false},
			test{"never", tty, env(), false},
			test{"always", tty, env("NO_COLOR", "1"), true},
		)
	}
	for i, tt := range tests {
		if got := useColor(tt.mode, tt.w, tt.env); got != tt.want {
			t.Errorf("%d: useColor(%q, %T) = %v, want %v", i, tt.mode, tt.w, got, tt.want)
		}
	}
}

// fakeAnalyzer reports one diagnostic per file, at the first byte, with the
// severity named by the file's first word ("error", "warning", …), and panics
// on files starting with "panic".
func fakeAnalyzer(name string, src []byte) (*source.File, []source.Diagnostic) {
	f := source.NewFile(name, src)
	word, _, _ := strings.Cut(string(src), " ")
	word = strings.TrimSpace(word)
	if word == "panic" {
		var m map[string]int
		//lint:ignore SA5000 a real runtime panic, on purpose
		m["x"]++
	}
	sev, ok := source.ParseSeverity(word)
	if !ok {
		return f, nil
	}
	return f, []source.Diagnostic{{
		File: name, Range: f.Range(0, len(word)), Severity: sev, Code: "fake", Message: "found " + word,
	}}
}

func runFake(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runCheckWith(fakeAnalyzer, args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func writeContent(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o777))
		must(t, os.WriteFile(p, []byte(content), 0o666))
	}
}

func TestRunCheckFindings(t *testing.T) {
	dir := t.TempDir()
	writeContent(t, dir, map[string]string{
		"b.lobster":     "error here\n",
		"a.lobster":     "warning here\n",
		"c.lobster":     "clean\n",
		"dir/x.lobster": "hint x\n",
	})
	t.Chdir(dir)

	code, stdout, stderr := runFake(t, "", "c.lobster", "b.lobster", "a.lobster")
	if code != exitFindings || stderr != "" {
		t.Errorf("exit %d, stderr %q; want %d and nothing", code, stderr, exitFindings)
	}
	want := "a.lobster:1:1: warning: found warning [fake]\n" +
		" 1 | warning here\n" +
		"   | ^~~~~~~\n" +
		"b.lobster:1:1: error: found error [fake]\n" +
		" 1 | error here\n" +
		"   | ^~~~~\n"
	if stdout != want {
		t.Errorf("text output:\n%s\nwant:\n%s", stdout, want)
	}

	// Warnings and hints alone exit 0.
	code, stdout, _ = runFake(t, "", "a.lobster", "dir")
	if code != exitOK || !strings.Contains(stdout, "dir/x.lobster:1:1: hint: found hint [fake]") {
		t.Errorf("warnings only: exit %d, output:\n%s", code, stdout)
	}

	// JSON: one array, sorted by file.
	code, stdout, _ = runFake(t, "error from stdin\n", "--format", "json", "b.lobster", "-", "a.lobster", "--stdin-filename", "0.lobster")
	if code != exitFindings {
		t.Errorf("json: exit %d", code)
	}
	var files []string
	for _, line := range strings.Split(stdout, "\n") {
		if f, ok := strings.CutPrefix(line, `    "file": `); ok {
			files = append(files, f)
		}
	}
	if want := []string{`"0.lobster",`, `"a.lobster",`, `"b.lobster",`}; !reflect.DeepEqual(files, want) {
		t.Errorf("json files = %q, want %q\n%s", files, want, stdout)
	}

	// Colour only on request.
	_, stdout, _ = runFake(t, "", "--color", "always", "b.lobster")
	if !strings.Contains(stdout, "\x1b[") {
		t.Errorf("--color always: no escapes in %q", stdout)
	}
	_, stdout, _ = runFake(t, "", "b.lobster")
	if strings.Contains(stdout, "\x1b[") {
		t.Errorf("output to a buffer is coloured: %q", stdout)
	}
}

func TestRunCheckPanic(t *testing.T) {
	dir := t.TempDir()
	writeContent(t, dir, map[string]string{
		"bad.lobster":  "panic now\n",
		"good.lobster": "error here\n",
	})
	t.Chdir(dir)
	code, stdout, stderr := runFake(t, "", "bad.lobster", "good.lobster", "missing.lobster")
	if code != exitInternal {
		t.Errorf("exit %d, want %d", code, exitInternal)
	}
	wantErr := "lobster: missing.lobster: no such file or directory\n" +
		"lobster: internal error checking bad.lobster: assignment to entry in nil map\n"
	if stderr != wantErr {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, wantErr)
	}
	if strings.Contains(stderr, "goroutine") {
		t.Errorf("stack trace on stderr: %s", stderr)
	}
	if !strings.HasPrefix(stdout, "good.lobster:1:1: error: found error [fake]\n") {
		t.Errorf("the other file was not reported:\n%s", stdout)
	}
}

// TestRunCheckMany checks many files in parallel and reports them in order.
func TestRunCheckMany(t *testing.T) {
	dir := t.TempDir()
	files := make(map[string]string)
	for i := range 200 {
		files[fmt.Sprintf("f/%03d.lobster", i)] = "error\n"
	}
	writeContent(t, dir, files)
	t.Chdir(dir)
	for range 3 {
		code, stdout, _ := runFake(t, "", "f")
		if code != exitFindings {
			t.Fatalf("exit %d", code)
		}
		var got []string
		for _, line := range strings.Split(stdout, "\n") {
			if name, _, ok := strings.Cut(line, ":1:1:"); ok {
				got = append(got, name)
			}
		}
		if len(got) != 200 {
			t.Fatalf("got %d findings, want 200", len(got))
		}
		for i, name := range got {
			if want := fmt.Sprintf("f/%03d.lobster", i); name != want {
				t.Fatalf("finding %d is for %s, want %s", i, name, want)
			}
		}
	}
}

func TestRunPanicIsInternalError(t *testing.T) {
	// A nil writer makes the usage text panic; run must turn that into
	// exit 3 with a message, not a crash.
	var errb bytes.Buffer
	code := run([]string{"help"}, nil, nil, &errb)
	if code != exitInternal || !strings.HasPrefix(errb.String(), "lobster: internal error: ") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// TestExamples checks the shipped examples with the real analyzer: they
// teach the format, so they must have no finding at all, and the walk must
// find all of them.
func TestExamples(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"check", "--format", "json", "../../examples"}, strings.NewReader(""), &out, &errb)
	if code != exitOK || strings.TrimSpace(out.String()) != "[]" {
		t.Errorf("lobster check examples: exit %d\n%s%s", code, out.String(), errb.String())
	}
	inputs, problems, overlooked := collect([]string{"../../examples"}, "")
	all, _ := filepath.Glob("../../examples/*")
	if len(problems) > 0 || len(overlooked) > 0 || len(inputs) != len(all) {
		t.Errorf("examples: found %q of %q; problems %v, overlooked %v", names(inputs), all, problems, overlooked)
	}
}

// zeros is an endless standard input that counts what was read of it.
type zeros struct{ n int64 }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.n += int64(len(p))
	return len(p), nil
}

// TestCheckStdinBounded: "check -" on endless input reads the limit and
// one byte more, then reports the file as too large.
func TestCheckStdinBounded(t *testing.T) {
	var in zeros
	var out, errb strings.Builder
	code := run([]string{"check", "-"}, &in, &out, &errb)
	if code != exitFindings || out.String() != "<stdin>:1:1: error: the file is more than 8388608 bytes; files over 8388608 bytes are not read [limit-exceeded]\n" {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	if in.n != parser.MaxFileSize+1 {
		t.Errorf("read %d bytes of standard input, want %d", in.n, parser.MaxFileSize+1)
	}
}
