package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/config"
	"github.com/lobsterdev/lobster/lang/discover"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// checkDoc and checkMore are the text of lobster help check.
const checkDoc = `Check parses workflow files and reports the problems it finds.

Each PATH is a file or a directory. Directories are searched recursively for
workflow files, named *.lobster, *.lobster.yaml, *.lobster.yml or
*.lobster.json, skipping directories whose name starts with "." and
node_modules; another .json, .yaml or .yml file that looks like a workflow
is named on standard error. A file named explicitly is checked whatever its
extension. A name ending in .json is parsed as strict JSON, anything else as
YAML. The PATH "-" reads one file from standard input. The nearest project
configuration (.lobsterrc.yaml or .lobsterrc.yml, in the file's directory
or above it) applies to each file, and its own findings are reported with
the files'; a configuration file named as a PATH is checked as one.

The text format prints each finding as

    file:line:col: severity: message [code]

with the source line and the range underlined; json prints one JSON array
of all findings, sorted by file and position; sarif prints a SARIF 2.1.0
log (for code scanning); github prints GitHub Actions workflow commands
(::error file=...::message), which a workflow run shows as annotations.

Flags may also follow the paths; "--" ends the flags.`

const checkMore = `Exit codes:

  0  no finding of error severity (with --fix: none left after fixing;
     with --diff: none in the files as they are)
  1  at least one finding of error severity
  2  usage error, or a file that cannot be read (or, with --fix, written)
  3  internal failure (the checker crashed on a file, or the output
     could not be written)`

// checkFlags are the options of lobster check.
type checkFlags struct {
	format        string
	color         string
	stdinFilename string
	explain       string
	fix           bool
	unsafeFixes   bool
	diff          bool
	shellcheck    string
}

// checkFlagSet is the flags of lobster check, set in opts.
func checkFlagSet(opts *checkFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.StringVar(&opts.format, "format", "text", "`text|json|sarif|github` the output format, as described above")
	fs.StringVar(&opts.color, "color", "auto", "`auto|always|never` colour the text output: auto colours only when standard output is a terminal, NO_COLOR is not set and TERM is not \"dumb\"")
	fs.StringVar(&opts.stdinFilename, "stdin-filename", "<stdin>", "the `NAME` under which \"-\" is checked and reported; a name ending in .json is parsed as JSON")
	fs.StringVar(&opts.explain, "explain", "", "print the documentation of the diagnostic `CODE` and exit")
	fs.BoolVar(&opts.fix, "fix", false, "apply the first fix of each finding to the files in place, report on standard error how many were applied, then report the findings that remain. Fixes that overlap an earlier one are left for the next run. Standard input cannot be fixed in place (use --diff)")
	fs.BoolVar(&opts.unsafeFixes, "unsafe-fixes", false, "with --fix or --diff, also apply the fixes that may change what the workflow does")
	fs.BoolVar(&opts.diff, "diff", false, "print the changes --fix would make as a unified diff, instead of the findings, and change no file")
	fs.StringVar(&opts.shellcheck, "shellcheck", "auto", "`auto|off|PATH` run shellcheck on the text of run and command and report its findings as shellcheck/SCnnnn: auto when shellcheck is on PATH, off never, or the shellcheck program PATH")
	return fs
}

// parseInterleaved parses args with fs, allowing flags after positional
// arguments, and returns the positional arguments in order. Everything after
// a "--" argument is positional.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return runCheckWith(nil, args, stdin, stdout, stderr)
}

// runCheckWith is runCheck with the function that checks one file; nil
// means lobster check's own, with the --shellcheck program.
func runCheckWith(analyze analyzer, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var opts checkFlags
	cmd := cmdNamed("check")
	paths, parsed, done := parseFlags(cmd, checkFlagSet(&opts), args, true, stdout, stderr)
	if done {
		return parsed
	}
	usageErr := func(format string, args ...any) int { return usageError(stderr, cmd, format, args...) }
	switch opts.format {
	case "text", "json", "sarif", "github":
	default:
		return usageErr("invalid --format %q: want text, json, sarif or github", opts.format)
	}
	if opts.color != "auto" && opts.color != "always" && opts.color != "never" {
		return usageErr("invalid --color %q: want auto, always or never", opts.color)
	}
	if opts.explain != "" {
		if len(paths) > 0 {
			return usageErr("--explain takes no paths")
		}
		doc, ok := explain(opts.explain)
		if !ok {
			textf(stderr, "lobster: no documentation for %s%s\n", opts.explain, suggestion(opts.explain, check.Codes(), ""))
			return exitUsage
		}
		fmt.Fprint(stdout, doc)
		if !strings.HasSuffix(doc, "\n") {
			fmt.Fprintln(stdout)
		}
		return exitOK
	}
	if len(paths) == 0 {
		return usageErr("no paths given")
	}
	if opts.fix && opts.diff {
		return usageErr("--fix and --diff exclude each other: --diff shows what --fix would do")
	}
	if opts.diff && opts.format != "text" {
		return usageErr("--diff prints a diff: it takes no --format")
	}
	if opts.fix && countStdin(paths) > 0 {
		return usageErr(`--fix cannot write standard input ("-"): use --diff`)
	}

	if n := countStdin(paths); n > 1 {
		return usageErr(`"-" given %d times`, n)
	}
	var finder *config.Finder
	if analyze == nil {
		bin, err := shellcheckProgram(opts.shellcheck)
		if err != nil {
			return usageErr("%v", err)
		}
		finder = config.NewFinder()
		analyze = analyzeConfigured(bin, finder)
	}
	inputs, problems, overlooked := collect(paths, opts.stdinFilename)
	code := exitOK
	for _, p := range problems {
		textf(stderr, "lobster: %s: %s\n", p.path, p.reason)
		code = exitUsage
	}
	for _, name := range overlooked {
		textf(stderr, "lobster: %s: not checked: it looks like a workflow, but in directories workflow files are named %s; rename it, or name the file itself\n", name, suffixList())
	}

	results := checkAll(analyze, inputs, stdin)
	files := make(map[string]*source.File)
	var diags []source.Diagnostic
	for _, r := range results {
		switch {
		case r.readErr != "":
			textf(stderr, "lobster: %s: %s\n", r.name, r.readErr)
			code = max(code, exitUsage)
		case r.panicked != "":
			textf(stderr, "lobster: internal error checking %s: %s\n", r.name, r.panicked)
			code = max(code, exitInternal)
		}
	}

	switch {
	case opts.diff:
		return max(code, writeFixDiff(results, opts.unsafeFixes, stdout, stderr))
	case opts.fix:
		code = max(code, applyFixes(analyze, inputs, results, opts.unsafeFixes, stderr))
	}

	for _, r := range results {
		if r.readErr == "" && r.panicked == "" {
			files[r.name] = r.file
			diags = append(diags, r.diags...)
		}
	}
	if finder != nil {
		// The configurations' own findings, once each (not again for a
		// configuration file named as a path).
		var loaded []*config.Config
		for _, c := range finder.Loaded() {
			if !slices.ContainsFunc(inputs, func(in input) bool { return !in.stdin && sameFile(in.path, c.Path) }) {
				loaded = append(loaded, c)
			}
		}
		cdiags, cfiles := configDiagnostics(loaded)
		diags = append(diags, cdiags...)
		for name, f := range cfiles {
			files[name] = f
		}
	}
	source.Sort(diags)
	if source.HasErrors(diags) {
		code = max(code, exitFindings)
	}

	var werr error
	switch opts.format {
	case "json":
		werr = source.WriteJSON(stdout, diags)
	case "sarif":
		werr = source.WriteSARIF(stdout, withRelatedFiles(files, diags), diags, sarifTool())
	case "github":
		werr = source.WriteGitHub(stdout, withRelatedFiles(files, diags), diags)
	default:
		werr = source.WriteText(stdout, files, diags, useColor(opts.color, stdout, os.Getenv))
	}
	if werr != nil {
		textf(stderr, "lobster: writing output: %v\n", werr)
		code = max(code, exitInternal)
	}
	return code
}

// useColor decides whether text output to w is coloured: always, never, or
// (auto) when w is a terminal, NO_COLOR is unset or empty and TERM is not
// "dumb".
func useColor(mode string, w io.Writer, getenv func(string) string) bool {
	switch mode {
	case "always":
		return true
	case "never":
		return false
	}
	if getenv("NO_COLOR") != "" || getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(w)
}

// input is one file to check.
type input struct {
	name  string // the display name: the path as given or walked, with forward slashes
	path  string // the path to read; empty for stdin
	stdin bool
}

// problem is a path that cannot be checked.
type problem struct {
	path, reason string
}

// collect expands paths into the files to check: files as named, directories
// walked for workflow files (lang/discover). The inputs are sorted by name
// and contain each file once. overlooked are the files of the directories
// that the rule leaves out but that look like workflows, by name.
func collect(paths []string, stdinName string) (inputs []input, problems []problem, overlooked []string) {
	seen := make(map[string]bool)
	add := func(in input) {
		key := "-"
		if !in.stdin {
			key = filepath.Clean(in.path)
		}
		if !seen[key] {
			seen[key] = true
			inputs = append(inputs, in)
		}
	}
	for _, p := range paths {
		if p == "-" {
			add(input{name: filepath.ToSlash(stdinName), stdin: true})
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			problems = append(problems, problem{filepath.ToSlash(p), bounded.Reason(err)})
			continue
		}
		if !fi.IsDir() {
			add(input{name: filepath.ToSlash(p), path: p})
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				problems = append(problems, problem{filepath.ToSlash(path), bounded.Reason(err)})
				if d != nil && d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				if path != p && discover.SkipDir(d.Name()) {
					return fs.SkipDir
				}
				return nil
			}
			if !discover.IsWorkflowFile(d.Name()) {
				if discover.LooksLikeWorkflow(path) {
					overlooked = append(overlooked, filepath.ToSlash(path))
				}
				return nil
			}
			if d.Type()&fs.ModeSymlink != 0 {
				// Follow links to files; skip dangling links (editor
				// lock files such as .#x.lobster) and links to directories.
				if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
					return nil
				}
			} else if !d.Type().IsRegular() {
				return nil
			}
			add(input{name: filepath.ToSlash(path), path: path})
			return nil
		})
		if err != nil {
			problems = append(problems, problem{filepath.ToSlash(p), bounded.Reason(err)})
		}
	}
	sort.SliceStable(inputs, func(i, j int) bool { return inputs[i].name < inputs[j].name })
	sort.Strings(overlooked)
	return inputs, problems, overlooked
}

// suffixList is "*.lobster, *.lobster.yaml, … or *.lobster.json".
func suffixList() string {
	var b strings.Builder
	for i, s := range discover.Suffixes {
		switch {
		case i == len(discover.Suffixes)-1:
			b.WriteString(" or ")
		case i > 0:
			b.WriteString(", ")
		}
		b.WriteString("*" + s)
	}
	return b.String()
}

// countStdin counts the "-" arguments.
func countStdin(paths []string) int {
	n := 0
	for _, p := range paths {
		if p == "-" {
			n++
		}
	}
	return n
}

// result is the outcome of checking one input.
type result struct {
	name     string
	file     *source.File
	diags    []source.Diagnostic
	readErr  string // the file could not be read
	panicked string // the checker panicked
}

// An analyzer checks the text of one file, named name, and returns the file's
// line table and its diagnostics.
type analyzer func(name string, src []byte) (*source.File, []source.Diagnostic)

// shellcheckProgram resolves --shellcheck: auto is shellcheck from PATH
// when there is one, off is none ("").
func shellcheckProgram(flag string) (string, error) {
	switch flag {
	case "off":
		return "", nil
	case "auto":
		bin, err := exec.LookPath("shellcheck")
		if err != nil {
			return "", nil
		}
		return bin, nil
	case "":
		return "", fmt.Errorf("invalid --shellcheck \"\": want auto, off or the path of shellcheck")
	}
	bin, err := exec.LookPath(flag)
	if err != nil {
		var ee *exec.Error
		if errors.As(err, &ee) {
			err = ee.Err
		}
		return "", fmt.Errorf("invalid --shellcheck %q: %s", flag, bounded.Reason(err))
	}
	return bin, nil
}

// checkAll checks the inputs in parallel, at most GOMAXPROCS at a time, and
// returns the results in the order of inputs. Standard input is read first.
func checkAll(analyze analyzer, inputs []input, stdin io.Reader) []result {
	results := make([]result, len(inputs))
	var stdinData []byte
	var stdinErr error
	for _, in := range inputs {
		if in.stdin {
			stdinData, stdinErr = bounded.ReadAll(stdin, parser.MaxFileSize)
			break
		}
	}
	var total int64 // what will be parsed: files over the limit are not read
	for _, in := range inputs {
		if in.stdin {
			total += int64(len(stdinData))
		} else if st, err := os.Stat(in.path); err == nil && st.Mode().IsRegular() && st.Size() <= parser.MaxFileSize {
			total += st.Size()
		}
	}
	prefaultHeap(total)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(inputs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				in := inputs[i]
				r := result{name: in.name}
				var src []byte
				var err error
				if in.stdin {
					src, err = stdinData, stdinErr
				} else {
					src, err = parser.ReadFile(in.path)
				}
				if d, ok := parser.LimitDiagnostic(in.name, err); ok {
					r.diags = []source.Diagnostic{d} // no text: no snippet
				} else if err != nil {
					r.readErr = bounded.Reason(err)
				} else {
					r.file, r.diags, r.panicked = checkFile(analyze, in.name, src)
				}
				results[i] = r
			}
		}()
	}
	for i := range inputs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return results
}

// checkFile runs analyze on one file. A panic is recovered and returned as
// text, so that one bad file does not stop the others and no stack trace
// reaches the user.
func checkFile(analyze analyzer, name string, src []byte) (f *source.File, diags []source.Diagnostic, panicked string) {
	defer func() {
		if r := recover(); r != nil {
			f, diags, panicked = nil, nil, fmt.Sprint(r)
		}
	}()
	f, diags = analyze(name, src)
	if f == nil {
		f = source.NewFile(name, src)
	}
	for i := range diags {
		if diags[i].File == "" {
			diags[i].File = name
		}
	}
	return f, diags, ""
}
