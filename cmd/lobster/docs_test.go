//go:build unix

package main

// TestDocs runs the examples of the documentation (README.md, docs/*.md,
// editors/vscode/README.md) and compares their output with what the text
// shows. The convention, also told in the README ("Tested documentation"):
//
//   - A ```console block is a terminal session: a line starting with "$ " is
//     a command (a line ending in "\" continues it on the next line), the
//     lines after it up to the next command are its output, standard output
//     and standard error as a terminal interleaves them. In the shown
//     output, "…" stands for any text within a line, and a line holding
//     only "…" for any number of lines (times, long outputs);
//     <approval-id> and <resume-token> stand for an approval id and a
//     resume token, which are new on every run, and match only values of
//     their shape (placeholders).
//   - A ```sh (or bash, shell) block is run as it is; it must succeed. Its
//     output is not compared.
//   - The blocks of one Markdown file run in order in one bash process, in a
//     directory of their own holding a copy of examples/, with lobster
//     (built from this checkout) on PATH, HOME in a fresh directory and no
//     LOBSTER_* variables set, standard input empty: variables and cd carry
//     over from one block to the next, as in a reader's terminal.
//   - ```json blocks must parse as JSON, ```yaml blocks as YAML.
//   - HTML comments on the lines right before a block's fence change this:
//     <!-- file: NAME --> writes the block to NAME in that directory before
//     the next commands run; <!-- same as: PATH --> requires the block to
//     be the repository's file PATH; <!-- not run: REASON --> does not run a
//     shell block (install commands, servers, the test suite itself), whose
//     syntax is still checked; <!-- not checked: REASON --> checks nothing
//     (a schematic JSON shape with "…"); <!-- requires: PROGRAM --> runs the
//     block only when PROGRAM is on PATH.
//
// Documents marked "<!-- Generated from" are left out (docs/diagnostics.md:
// it is written from the checker's registry, and its examples are fragments
// of files, not files). docs/workflow-format.md, written from lang/schema,
// is run like the others.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/lobsterdev/lobster/lang/parser"
)

// repoRoot is the repository, from this package's directory.
const repoRoot = "../.."

// docFiles are the Markdown files whose examples are tested, relative to
// the repository.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "editors/vscode/README.md"}
	more, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range more {
		rel, _ := filepath.Rel(repoRoot, m)
		files = append(files, filepath.ToSlash(rel))
	}
	return files
}

// A mdBlock is a fenced code block of a Markdown file.
type mdBlock struct {
	file  string            // the Markdown file, relative to the repository
	line  int               // the line of the opening fence, 1-based
	lang  string            // the first word of the info string
	text  string            // the content, without the fence's indentation
	marks map[string]string // the <!-- key: value --> comments before the fence
}

func (b *mdBlock) where() string { return fmt.Sprintf("%s:%d", b.file, b.line) }

// The keys a comment before a block may use.
var markKeys = map[string]bool{"file": true, "same as": true, "not run": true, "not checked": true, "requires": true}

var (
	fenceRE = regexp.MustCompile("^( *)(```+|~~~+)\\s*([^`\\s]*)")
	markRE  = regexp.MustCompile(`^\s*<!--\s*([a-z ]+?)\s*:\s*(.*?)\s*-->\s*$`)
)

// generatedMark is in the first lines of a document generated from code.
const generatedMark = "<!-- Generated from"

// blocks returns the fenced code blocks of a Markdown text, and whether the
// text is generated from code.
func blocks(file, text string) (out []*mdBlock, generated bool, errs []string) {
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines) && i < 5; i++ {
		if strings.HasPrefix(lines[i], generatedMark) {
			generated = true
		}
	}
	for i := 0; i < len(lines); i++ {
		m := fenceRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		indent, fence := len(m[1]), m[2]
		b := &mdBlock{file: file, line: i + 1, lang: strings.ToLower(m[3]), marks: map[string]string{}}
		for j := i - 1; j >= 0; j-- {
			mm := markRE.FindStringSubmatch(lines[j])
			if mm == nil {
				break
			}
			if !markKeys[mm[1]] {
				errs = append(errs, fmt.Sprintf("%s:%d: unknown mark %q (known: file, same as, not run, not checked, requires)", file, j+1, mm[1]))
			}
			b.marks[mm[1]] = mm[2]
		}
		var body []string
		closed := false
		for i++; i < len(lines); i++ {
			l := lines[i]
			if t := strings.TrimLeft(l, " "); strings.HasPrefix(t, fence[:1]) && strings.Trim(t, fence[:1]+" \t") == "" && len(strings.TrimRight(t, " \t")) >= len(fence) {
				closed = true
				break
			}
			n := 0
			for n < indent && n < len(l) && l[n] == ' ' {
				n++
			}
			body = append(body, l[n:])
		}
		if !closed {
			errs = append(errs, fmt.Sprintf("%s: the block is not closed", b.where()))
		}
		if len(body) > 0 {
			b.text = strings.Join(body, "\n") + "\n"
		}
		out = append(out, b)
	}
	return out, generated, errs
}

// A docCommand is a command of a console block and its shown output.
type docCommand struct {
	line int    // the line of the command in the Markdown file
	text string // the command, continuation lines included
	want string // the output shown
}

// commands splits a console block into its commands.
func (b *mdBlock) commands() ([]*docCommand, error) {
	var out []*docCommand
	lines := strings.Split(strings.TrimSuffix(b.text, "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if l == "$" || strings.HasPrefix(l, "$ ") {
			c := &docCommand{line: b.line + 1 + i, text: strings.TrimPrefix(strings.TrimPrefix(l, "$"), " ")}
			for strings.HasSuffix(l, "\\") && i+1 < len(lines) {
				i++
				l = lines[i]
				c.text += "\n" + strings.TrimPrefix(l, "> ")
			}
			out = append(out, c)
			continue
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("%s: a console block starts with a command (\"$ …\"), not %q", b.where(), l)
		}
		out[len(out)-1].want += l + "\n"
	}
	return out, nil
}

// A unit is what the session runs: one command of a console block, or a
// whole shell block.
type unit struct {
	where string
	text  string
	want  *string // nil: the output is not compared, and the unit must succeed
	block *mdBlock
}

func TestDocs(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	for _, file := range docFiles(t) {
		t.Run(file, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(file)))
			if err != nil {
				t.Fatal(err)
			}
			bs, generated, errs := blocks(file, string(data))
			for _, e := range errs {
				t.Error(e)
			}
			if generated {
				t.Skipf("%s is generated from code", file)
			}
			testDoc(t, bash, bs)
		})
	}
}

// testDoc checks the blocks of one Markdown file and runs its session.
func testDoc(t *testing.T, bash string, bs []*mdBlock) {
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	if err := copyDir(filepath.Join(repoRoot, "examples"), filepath.Join(work, "examples")); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	var units []*unit
	for _, b := range bs {
		if _, ok := b.marks["not checked"]; ok {
			continue
		}
		if want, ok := b.marks["same as"]; ok {
			data, err := os.ReadFile(filepath.Join(repoRoot, filepath.FromSlash(want)))
			if err != nil {
				t.Errorf("%s: same as: %v", b.where(), err)
			} else if string(data) != b.text {
				t.Errorf("%s: the block is not the file %s any more; show the file as it is:\n%s", b.where(), want, data)
			}
		}
		shell := b.lang == "console" || b.lang == "sh" || b.lang == "bash" || b.lang == "shell"
		switch b.lang {
		case "json":
			var v any
			if err := json.Unmarshal([]byte(b.text), &v); err != nil {
				t.Errorf("%s: the JSON does not parse: %v (mark a schematic shape with <!-- not checked: REASON -->)", b.where(), err)
			}
		case "yaml", "yml":
			_, diags := parser.Parse("block.yaml", []byte(b.text))
			for _, d := range diags {
				if d.Code == "yaml-syntax" || d.Code == "yaml-duplicate-key" || d.Code == "yaml-undefined-alias" {
					t.Errorf("%s: the YAML does not parse: line %d of the block: %s", b.where(), d.Range.Start.Line, d.Message)
				}
			}
		case "":
			if strings.HasPrefix(b.text, "$ ") {
				t.Errorf("%s: a terminal session is a ```console block", b.where())
			}
		}
		if name, ok := b.marks["file"]; ok {
			units = append(units, &unit{where: b.where(), text: writeFileCommand(name, b.text), block: b})
		}
		if !shell {
			continue
		}
		var cmds []*docCommand
		if b.lang == "console" {
			var err error
			if cmds, err = b.commands(); err != nil {
				t.Error(err)
				continue
			}
		} else {
			cmds = []*docCommand{{line: b.line + 1, text: b.text}}
		}
		for _, c := range cmds {
			if _, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(c.text), ""); err != nil {
				t.Errorf("%s:%d: the command does not parse: %v", b.file, c.line, err)
				c.text = ""
			}
		}
		if _, ok := b.marks["not run"]; ok {
			continue
		}
		if prog, ok := b.marks["requires"]; ok {
			if _, err := exec.LookPath(prog); err != nil {
				t.Logf("%s: not run: %s is not installed", b.where(), prog)
				continue
			}
		}
		for _, c := range cmds {
			if c.text == "" {
				continue
			}
			u := &unit{where: fmt.Sprintf("%s:%d", b.file, c.line), text: c.text, block: b}
			if b.lang == "console" {
				want := c.want
				u.want = &want
			}
			units = append(units, u)
		}
	}
	if len(units) == 0 {
		return
	}
	runSession(t, bash, work, home, units)
}

// writeFileCommand is a shell command that writes text to name.
func writeFileCommand(name, text string) string {
	const eof = "LOBSTER_DOCS_EOF"
	dir, _ := syntax.Quote(filepath.Dir(name), syntax.LangBash)
	file, _ := syntax.Quote(name, syntax.LangBash)
	return fmt.Sprintf("mkdir -p %s && cat > %s <<'%s'\n%s%s", dir, file, eof, text, eof)
}

// endRE is the line that ends a unit's output: its index and exit status.
var endRE = regexp.MustCompile("\x1e([0-9]+) ([0-9]+)\x1e\n")

// sessionTimeout bounds the run of one Markdown file's examples.
const sessionTimeout = 3 * time.Minute

// runSession runs the units in one bash process in work and compares their
// output.
func runSession(t *testing.T, bash, work, home string, units []*unit) {
	var script strings.Builder
	script.WriteString("set +e\n")
	for i, u := range units {
		if u.want == nil {
			fmt.Fprintf(&script, "set -e\n{\n%s\n} </dev/null\nset +e\n", u.text)
		} else {
			fmt.Fprintf(&script, "{\n%s\n} </dev/null\n", u.text)
		}
		fmt.Fprintf(&script, "printf '\\036%%d %%d\\036\\n' %d \"$?\"\n", i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "--noprofile", "--norc")
	cmd.Dir = work
	cmd.Env = docEnv(home)
	cmd.Stdin = strings.NewReader(script.String())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	runErr := cmd.Run()

	rest := out.String()
	next, prev := 0, 0
	for _, m := range endRE.FindAllStringSubmatchIndex(rest, -1) {
		i, _ := strconv.Atoi(rest[m[2]:m[3]])
		status, _ := strconv.Atoi(rest[m[4]:m[5]])
		if i != next || i >= len(units) {
			t.Fatalf("the session's output is out of order at unit %d", i)
		}
		checkUnit(t, units[i], rest[prev:m[0]], status)
		next, prev = i+1, m[1]
	}
	if next < len(units) {
		u := units[next]
		what := "did not finish"
		if ctx.Err() != nil {
			what = fmt.Sprintf("did not finish in %v", sessionTimeout)
		} else if runErr != nil {
			what = fmt.Sprintf("failed (%v)", runErr)
		}
		t.Errorf("%s: %s:\n%s\n%s(the examples after it did not run)", u.where, what, indent(u.text), indent(rest[prev:]))
	}
}

// checkUnit compares a unit's output with what the document shows.
func checkUnit(t *testing.T, u *unit, got string, status int) {
	if u.want == nil {
		if status != 0 {
			t.Errorf("%s: exit status %d:\n%s\n%s", u.where, status, indent(u.text), indent(got))
		}
		return
	}
	if !matchOutput(*u.want, got) {
		t.Errorf("%s: $ %s\nthe output shown:\n%s\nthe output now (exit status %d):\n%s", u.where, u.text, indent(*u.want), status, indent(got))
	}
}

func indent(s string) string {
	if s == "" {
		return "    (nothing)\n"
	}
	var b strings.Builder
	for _, l := range strings.SplitAfter(strings.TrimSuffix(s, "\n"), "\n") {
		b.WriteString("    " + l)
	}
	return b.String() + "\n"
}

// docEnv is the environment of the session: this process's (whose PATH
// leads to the lobster under test), less LOBSTER_* and the settings that
// change colours, with HOME set to home.
func docEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "LOBSTER_"), k == "HOME", k == "NO_COLOR", k == "FORCE_COLOR", k == "CLICOLOR", k == "CLICOLOR_FORCE",
			k == "GITHUB_ACTIONS", k == "CDPATH", k == "BASH_ENV", k == "ENV":
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "HOME="+home)
	if os.Getenv("GORACE") == "" {
		// Under -race every lobster would sleep a second at exit.
		env = append(env, "GORACE=atexit_sleep_ms=0")
	}
	return env
}

// ellipsis stands for any text in a shown output.
const ellipsis = "…"

// matchOutput reports whether got is the output want shows: line by line,
// trailing white space and blank lines at the end ignored, "…" standing
// for any text within a line and a line of only "…" for any lines.
func matchOutput(want, got string) bool {
	return matchLines(outputLines(want), outputLines(got))
}

func outputLines(s string) []string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t\r")
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if strings.TrimSpace(want[0]) == ellipsis {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && matchLine(want[0], got[0]) && matchLines(want[1:], got[1:])
}

// placeholders stand, in a shown output, for values that change from run
// to run, and say their shape: the line matches only when the value has it.
var placeholders = map[string]string{
	"<approval-id>":  `[0-9a-f]{8}`,       // runtime/state: newApprovalID
	"<resume-token>": `eyJ[A-Za-z0-9_-]+`, // runtime/state: Token.Encode, unpadded base64url of a JSON object
}

// placeholderRE finds "…" and the placeholders in a shown line.
var placeholderRE = func() *regexp.Regexp {
	alts := []string{regexp.QuoteMeta(ellipsis)}
	for p := range placeholders {
		alts = append(alts, regexp.QuoteMeta(p))
	}
	return regexp.MustCompile(strings.Join(alts, "|"))
}()

// matchLine matches one line, "…" standing for any text and each
// placeholder for a value of its shape.
func matchLine(want, got string) bool {
	if !placeholderRE.MatchString(want) {
		return want == got
	}
	var re strings.Builder
	re.WriteString("^")
	last := 0
	for _, m := range placeholderRE.FindAllStringIndex(want, -1) {
		re.WriteString(regexp.QuoteMeta(want[last:m[0]]))
		if p := want[m[0]:m[1]]; p == ellipsis {
			re.WriteString(".*")
		} else {
			re.WriteString("(?:" + placeholders[p] + ")")
		}
		last = m[1]
	}
	re.WriteString(regexp.QuoteMeta(want[last:]) + "$")
	return regexp.MustCompile(re.String()).MatchString(got)
}

// copyDir copies the regular files of a directory tree.
func copyDir(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, info.Mode().Perm())
	})
}

// TestMatchLine: "…" stands for any text, a placeholder only for a value
// of its shape.
func TestMatchLine(t *testing.T) {
	for _, tc := range []struct {
		want, got string
		ok        bool
	}{
		{`a…c`, `abbc`, true},
		{`a…c`, `abbd`, false},
		{`a.c`, `abc`, false}, // no regular expression but the placeholders
		{`"approvalId": "<approval-id>"`, `"approvalId": "0f3a9c21"`, true},
		{`"approvalId": "<approval-id>"`, `"approvalId": "0f3a9c2"`, false},
		{`"approvalId": "<approval-id>"`, `"approvalId": "0F3A9C21"`, false},
		{`"resumeToken": "<resume-token>",`, `"resumeToken": "eyJwcm90b2NvbFZlcnNpb24iOjF9",`, true},
		{`"resumeToken": "<resume-token>",`, `"resumeToken": "workflow_resume_1",`, false},
		{`<approval-id> … deploy`, `0f3a9c21 approval 3s deploy`, true},
		{`<other>`, `<other>`, true},
	} {
		if got := matchLine(tc.want, tc.got); got != tc.ok {
			t.Errorf("matchLine(%q, %q) = %v, want %v", tc.want, tc.got, got, tc.ok)
		}
	}
}
