package check

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/source"
)

// Shellcheck relays the findings of shellcheck on run and command text,
// under shellcheck's own codes (shellcheck/SC2086), at their exact places in
// the YAML string. It runs only when Options.Shellcheck names the program.
var Shellcheck = &Analyzer{
	Name:     "shellcheck",
	Severity: source.Warning,
	Summary:  "shellcheck finds a problem in run or command text",
	Doc: `When shellcheck is installed, lobster check runs it on the text of every run and command
(--shellcheck=auto, the default: when "shellcheck" is on PATH; --shellcheck=off; or
--shellcheck=PATH). Each finding is reported as shellcheck/SCnnnn at its exact place inside the
YAML string, through block indentation, folding and escapes, with shellcheck's message and wiki
link.

The text is checked as the runtime runs it: with /bin/sh -lc, so in shellcheck's sh
dialect whatever shebang the text starts with, or in the dialect of the shell that LOBSTER_SHELL
names in the step's, its parents' or the workflow's env (bash, dash, ksh, sh). Text for other
shells (zsh, pwsh, cmd…) or a templated LOBSTER_SHELL is not checked. The runtime substitutes
references before the shell runs, so shellcheck sees each one that it substitutes replaced by as
many "x" as it has bytes: positions stay exact and $step.json is not taken for the shell variable
$step. What the runtime leaves to the shell is left too: $id.path when no step or loop
variable is named id ($DIR.bak), and ${name} when no arg is declared and name is written in
capitals or assigned in the text (NAME=…; echo "${NAME}"). These codes are never reported:
SC1091 (sourced file not found), SC2043, SC2050, SC2157, SC2194 (constant words where a
reference stood), SC2153 and SC2154 (a variable assigned nowhere in the text: the env of the
workflow, the step and the process sets it). In the default /bin/sh, SC3010, SC3014 and SC3046
are left to bashism-in-sh. exec --shell lines of pipelines are not checked.

Severity: shellcheck's error and warning are warnings (what shellcheck sees through placeholders
is not certain enough to fail a check), info is info and style is a hint.

Suppress a finding with a shellcheck directive in the text ("# shellcheck disable=SC2086",
which works inside block scalars), with "# lobster-ignore: shellcheck/SC2086" on the line where
the finding starts (outside block scalars), or for the whole file with "# lobster-ignore-file:
shellcheck/SC2086". A .shellcheckrc (or shellcheckrc) in the workflow file's directory or the
nearest parent that has one is honoured. The scripts go to shellcheck in batches, on every CPU.
The code "shellcheck" itself reports that shellcheck could not run or did not finish within 10
seconds; the findings of the batches that did finish are still reported.`,
	Bad:  "- id: list\n  run: ls $DIR",
	Good: "- id: list\n  run: ls \"$DIR\"",
	Run:  runShellcheck,
}

const (
	// scTimeout bounds the shellcheck runs of one file, together.
	scTimeout = 10 * time.Second
	// scBatch is the most scripts given to one shellcheck process.
	scBatch = 200
	// scAlwaysExcluded are codes that the placeholders and the
	// environment Lobster provides make wrong (actionlint's list).
	scAlwaysExcluded = "SC1091,SC2043,SC2050,SC2153,SC2154,SC2157,SC2194"
	// scBashismExcluded are left to bashism-in-sh under the default shell.
	scBashismExcluded = ",SC3010,SC3014,SC3046"
)

// scScript is one run/command text to check.
type scScript struct {
	field *ast.Field
	sh    *ast.Shell
	text  string // the decoded text with the references masked
	lines []int  // where the lines of text start, once needed
}

// scGroup is one shellcheck invocation's setting: the dialect, and whether
// the text runs under the default /bin/sh.
type scGroup struct {
	dialect string
	dflt    bool
}

// scComment is one finding in shellcheck's json1 output. Lines and columns
// are 1-based; a column counts Unicode code points (an invalid UTF-8 byte
// counts one), a tab counts one; the end column is exclusive.
type scComment struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	EndLine   int    `json:"endLine"`
	Column    int    `json:"column"`
	EndColumn int    `json:"endColumn"`
	Level     string `json:"level"`
	Code      int    `json:"code"`
	Message   string `json:"message"`
}

func runShellcheck(p *Pass) {
	bin := p.Options.Shellcheck
	if bin == "" {
		return
	}
	var scripts []scScript
	groups := map[scGroup][]int{}
	var wfEnv *ast.Field
	if w := p.File.Workflow; w != nil {
		wfEnv = w.Env
	}
	for _, si := range p.Info.Steps {
		for _, f := range [...]*ast.Field{si.Step.Run, si.Step.Command} {
			sh := plShellOf(f)
			if sh == nil || sh.Scalar.Kind != ast.String || strings.TrimSpace(sh.Scalar.Text) == "" ||
				strings.IndexByte(sh.Scalar.Text, 0) >= 0 {
				continue
			}
			g, ok := scDialect(si, wfEnv, p.Options.ShellcheckShell)
			if !ok || shSyntaxError(p.Info, si, sh) || scTouchesBroken(p.File, sh.Scalar) {
				continue // shell-syntax reports it, or a YAML error cut it short
			}
			groups[g] = append(groups[g], len(scripts))
			scripts = append(scripts, scScript{field: f, sh: sh, text: scMask(p.Info, si, sh)})
		}
	}
	if len(scripts) == 0 {
		return
	}
	fail := func(format string, args ...any) {
		p.Reportf(scripts[0].field.Key.Span, "shellcheck could not check the shell text of this file: "+format, args...)
	}
	if strings.ContainsAny(bin, `/\`) && !filepath.IsAbs(bin) {
		if abs, err := filepath.Abs(bin); err == nil {
			bin = abs // shellcheck runs in the directory of the scripts
		}
	}
	rc, hasRC := scFindRC(p.Options.Path)
	// The scripts whose findings the cache holds are reported from it;
	// only the others go to shellcheck.
	cache := p.Options.ShellcheckCache
	cacheKeys := make([]scKey, len(scripts))
	for g, idx := range groups {
		var todo []int
		for _, k := range idx {
			cacheKeys[k] = scKeyOf(bin, g, p.Options.ShellcheckExclude, rc, hasRC, scripts[k].text)
			if comments, ok := cache.get(cacheKeys[k]); ok {
				for _, c := range comments {
					scReport(p, &scripts[k], c)
				}
				continue
			}
			todo = append(todo, k)
		}
		if len(todo) == 0 {
			delete(groups, g)
		} else {
			groups[g] = todo
		}
	}
	if len(groups) == 0 {
		return
	}
	dir, err := os.MkdirTemp("", "lobster-shellcheck-")
	if err != nil {
		fail("%v", err)
		return
	}
	defer os.RemoveAll(dir)
	for _, idx := range groups {
		for _, k := range idx {
			if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(k)+".sh"), []byte(scripts[k].text), 0o600); err != nil {
				fail("%v", err)
				return
			}
		}
	}
	if hasRC {
		_ = os.WriteFile(filepath.Join(dir, ".shellcheckrc"), rc, 0o600)
	}

	ctx, cancel := context.WithTimeout(context.Background(), scTimeout)
	defer cancel()
	keys := make([]scGroup, 0, len(groups))
	for g := range groups {
		keys = append(keys, g)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].dialect != keys[j].dialect {
			return keys[i].dialect < keys[j].dialect
		}
		return keys[i].dflt
	})
	type batch struct {
		g        scGroup
		idx      []int
		comments []scComment
		err      error
	}
	var batches []*batch
	for _, g := range keys {
		for idx := groups[g]; len(idx) > 0; {
			n := min(len(idx), scBatch)
			batches = append(batches, &batch{g: g, idx: idx[:n]})
			idx = idx[n:]
		}
	}
	// shellcheck uses one core: the batches run on all of them.
	next := make(chan *batch, len(batches))
	for _, b := range batches {
		next <- b
	}
	close(next)
	var wg sync.WaitGroup
	for range min(runtime.NumCPU(), len(batches)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range next {
				b.comments, b.err = scRun(ctx, bin, dir, b.g, b.idx, p.Options.ShellcheckExclude)
			}
		}()
	}
	wg.Wait()
	// The findings of the batches that finished are kept when others fail.
	var failed error
	for _, b := range batches {
		if b.err != nil {
			failed = cmp.Or(failed, b.err)
			continue
		}
		found := map[int][]scComment{}
		for _, c := range b.comments {
			k, err := strconv.Atoi(strings.TrimSuffix(filepath.Base(c.File), ".sh"))
			if err != nil || k < 0 || k >= len(scripts) || c.Code <= 0 || !slices.Contains(b.idx, k) {
				continue // a sourced file, or not a finding
			}
			found[k] = append(found[k], c)
			scReport(p, &scripts[k], c)
		}
		for _, k := range b.idx {
			cache.put(cacheKeys[k], found[k])
		}
	}
	if failed != nil {
		fail("%v", failed)
	}
}

// scRun runs one shellcheck process over the scripts idx of dir.
func scRun(ctx context.Context, bin, dir string, g scGroup, idx []int, more []string) ([]scComment, error) {
	exclude := scAlwaysExcluded
	if g.dflt {
		exclude += scBashismExcluded
	}
	for _, code := range more {
		if !strings.HasPrefix(code, "SC") {
			code = "SC" + code
		}
		exclude += "," + code
	}
	args := make([]string, 0, 3+len(idx))
	args = append(args, "--format=json1", "--shell="+g.dialect, "--exclude="+exclude)
	for _, k := range idx {
		args = append(args, strconv.Itoa(k)+".sh")
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.WaitDelay = time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		return nil, fmt.Errorf("%s did not finish within %v", bin, scTimeout)
	}
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		if msg := strings.TrimSpace(errb.String()); msg != "" {
			err = errors.New(firstLine(msg))
		}
		return nil, fmt.Errorf("%s: %v", bin, err)
	}
	var res struct {
		Comments []scComment `json:"comments"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return nil, fmt.Errorf("%s: unreadable output: %v", bin, err)
	}
	return res.Comments, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// scReport reports one shellcheck finding at its place in the source.
func scReport(p *Pass, s *scScript, c scComment) {
	if s.lines == nil {
		s.lines = scLineStarts(s.text)
	}
	i := scOffset(s.text, s.lines, c.Line, c.Column)
	j := scOffset(s.text, s.lines, max(c.EndLine, c.Line), c.EndColumn)
	if c.EndLine < c.Line || c.EndLine == c.Line && c.EndColumn < c.Column {
		j = i
	}
	if i == len(s.text) && i > 0 && s.text[i-1] == '\n' {
		i, j = i-1, i-1 // past the end: at the end of the last line
	}
	if j == i && i < len(s.text) && s.text[i] != '\n' {
		_, w := utf8.DecodeRuneInString(s.text[i:])
		j = i + w // a point: underline the character there
	}
	sev := source.Warning
	switch c.Level {
	case "info":
		sev = source.Info
	case "style":
		sev = source.Hint
	}
	d := p.Finding(s.sh.Scalar.Map.Span(i, j), "SC%d: %s (https://www.shellcheck.net/wiki/SC%d)",
		c.Code, strings.TrimSuffix(strings.TrimSpace(c.Message), "."), c.Code)
	d.Severity = sev
	p.ReportCode("shellcheck/SC"+strconv.Itoa(c.Code), d)
}

// scLineStarts are the offsets where the lines of text start; shellcheck
// ends a line at "\n" only.
func scLineStarts(text string) []int {
	starts := make([]int, 1, 1+strings.Count(text, "\n"))
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// scOffset is the byte offset of 1-based line and code-point column col,
// clamped to the line and the text.
func scOffset(text string, starts []int, line, col int) int {
	if line < 1 {
		return 0
	}
	if line > len(starts) {
		return len(text)
	}
	i := starts[line-1]
	for n := 1; n < col && i < len(text) && text[i] != '\n'; n++ {
		_, w := utf8.DecodeRuneInString(text[i:])
		i += w
	}
	return i
}

// scMask is the decoded text of sh with the Lobster references that the
// runtime substitutes before the shell sees the text replaced by as many
// 'x' bytes, so that the byte offsets stay those of the text. Left as they
// are, for the shell, as the runtime leaves them:
// ${name} when no arg name is declared and name looks like a shell
// variable: written in capitals (an environment variable) or assigned in
// the text (NAME=…; echo "${NAME}"); and $id.path when no step or loop
// variable id exists ($DIR.bak). An undeclared lower-case ${name} is masked:
// it is most likely an arg that the caller passes (undeclared-arg reports
// it). ${id.path} is masked: it is not Lobster syntax, and braced-ref
// reports it.
func scMask(in *Info, si *StepInfo, sh *ast.Shell) string {
	s := sh.Scalar
	if len(sh.Refs) == 0 {
		return s.Text
	}
	var b []byte
	for _, r := range sh.Refs {
		switch r := r.(type) {
		case *ast.ArgRef:
			if in.ArgBy[r.Name] == nil && scShellVarName(s.Text, r.Name) {
				continue
			}
		case *ast.StepRef:
			if in.Resolve(si, r.ID).Visibility == Unknown {
				continue
			}
		}
		if b == nil {
			b = []byte(s.Text)
		}
		i := sort.Search(len(b)+1, func(i int) bool { return s.Map.Start(i) >= r.Pos() })
		j := sort.Search(len(b)+1, func(j int) bool { return s.Map.End(j) >= r.End() })
		for k := i; k < j && k < len(b); k++ {
			b[k] = 'x'
		}
	}
	if b == nil {
		return s.Text
	}
	return string(b)
}

// scShellVarName reports whether an undeclared ${name} in text reads a
// shell variable: name has no lower-case letter, or text assigns it
// ("name=" or "for name").
func scShellVarName(text, name string) bool {
	if strings.ToUpper(name) == name {
		return true
	}
	for i := 0; ; {
		k := strings.Index(text[i:], name)
		if k < 0 {
			return false
		}
		k += i
		end := k + len(name)
		if k == 0 || !plIsNameByte(text[k-1]) {
			if end < len(text) && text[end] == '=' {
				return true
			}
			if strings.HasSuffix(text[:k], "for ") && end < len(text) && (text[end] == ' ' || text[end] == ';' || text[end] == '\n') {
				return true
			}
		}
		i = end
	}
}

// scDialect is the shellcheck dialect of a step's shell text: the shell
// named by LOBSTER_SHELL in the nearest env that sets it (the step's, its
// parents', the workflow's), /bin/sh by default. ok is false for a shell
// shellcheck does not know or a value that cannot be told.
//
// host is the dialect of the shell the host runs steps with
// (Options.ShellcheckShell), "" for /bin/sh.
func scDialect(si *StepInfo, wfEnv *ast.Field, host string) (g scGroup, ok bool) {
	for s := si; s != nil; s = s.Parent {
		if d, set := scEnvShell(s.Step.Env); set {
			return scGroup{dialect: d}, d != ""
		}
	}
	if d, set := scEnvShell(wfEnv); set {
		return scGroup{dialect: d}, d != ""
	}
	if host != "" && host != "sh" {
		return scGroup{dialect: host}, true
	}
	return scGroup{dialect: "sh", dflt: true}, true
}

// scEnvShell reads LOBSTER_SHELL from an env block: set reports whether
// the block sets it, dialect is "" when shellcheck cannot check that shell.
func scEnvShell(f *ast.Field) (dialect string, set bool) {
	if f == nil {
		return "", false
	}
	m, ok := f.Value.(*ast.TemplateMap)
	if !ok {
		return "", false
	}
	e := m.Lookup("LOBSTER_SHELL")
	if e == nil {
		return "", false
	}
	var text string
	switch v := e.Value.(type) {
	case *ast.Template:
		if len(v.Refs) > 0 || v.Scalar == nil {
			return "", true
		}
		text = v.Scalar.Text
	case *ast.Scalar:
		if v.Kind != ast.String {
			return "", true
		}
		text = v.Text
	default:
		return "", true
	}
	name := strings.TrimSpace(text)
	name = strings.TrimSuffix(strings.ToLower(name[strings.LastIndexAny(name, `/\`)+1:]), ".exe")
	switch name {
	case "", "sh":
		return "sh", true
	case "bash", "dash", "ksh":
		return name, true
	case "mksh":
		return "ksh", true
	}
	return "", true
}

// scFindRC reads the .shellcheckrc that shellcheck would use for a script
// next to the workflow file (it is copied to where the scripts are).
func scFindRC(path string) (rc []byte, ok bool) {
	if path == "" {
		return nil, false
	}
	d, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return nil, false
	}
	for {
		for _, name := range [...]string{".shellcheckrc", "shellcheckrc"} {
			if b, err := bounded.ReadFile(filepath.Join(d, name), bounded.DefaultLimit); err == nil {
				return b, true
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil, false
		}
		d = parent
	}
}

// A ShellcheckCache keeps shellcheck's findings on shell texts from one
// check to the next, so that a program that checks the same files again
// and again (the language server, on every edit) runs shellcheck only on
// the texts that changed: an edit outside run and command text runs no
// shellcheck at all. A finding is kept under everything that decides it:
// the program, the dialect, the codes left out, the .shellcheckrc that
// applies and the text. It holds the findings of at most about twice the
// size it was made with, dropping the least recently used half when full.
// A nil cache keeps nothing. It is safe for concurrent use.
type ShellcheckCache struct {
	mu       sync.Mutex
	size     int
	cur, old map[scKey][]scComment
}

// NewShellcheckCache returns a cache that keeps the findings of about size
// shell texts (at most twice that).
func NewShellcheckCache(size int) *ShellcheckCache {
	return &ShellcheckCache{size: max(size, 1), cur: map[scKey][]scComment{}}
}

// scKey names what decides shellcheck's findings on one text.
type scKey [sha256.Size]byte

func scKeyOf(bin string, g scGroup, exclude []string, rc []byte, hasRC bool, text string) scKey {
	h := sha256.New()
	for _, part := range []string{bin, g.dialect, strconv.FormatBool(g.dflt), strings.Join(exclude, ","), strconv.FormatBool(hasRC), string(rc), text} {
		fmt.Fprintf(h, "%d:%s", len(part), part)
	}
	var k scKey
	h.Sum(k[:0])
	return k
}

func (c *ShellcheckCache) get(k scKey) ([]scComment, bool) {
	if c == nil {
		return nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.cur[k]; ok {
		return v, true
	}
	v, ok := c.old[k]
	if ok {
		c.putLocked(k, v)
	}
	return v, ok
}

func (c *ShellcheckCache) put(k scKey, v []scComment) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.putLocked(k, v)
}

func (c *ShellcheckCache) putLocked(k scKey, v []scComment) {
	if len(c.cur) >= c.size {
		c.old, c.cur = c.cur, map[scKey][]scComment{}
	}
	c.cur[k] = v
}

// scTouchesBroken reports whether a YAML error's broken text starts on a
// line of the scalar: the text may be cut short or run on past its end.
func scTouchesBroken(f *ast.File, s *ast.Scalar) bool {
	first, last := f.Src.Pos(s.Pos()).Line, f.Src.Pos(s.End()).Line
	for _, b := range f.Broken {
		if l := f.Src.Pos(b.Start).Line; first <= l && l <= last {
			return true
		}
	}
	return false
}
