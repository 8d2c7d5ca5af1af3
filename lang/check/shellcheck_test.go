package check_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// runShellcheck checks one test file with the shellcheck rule and the
// program bin, and returns every finding of its codes as
// "line:col-line:col code severity text", where text is the source the
// range covers, and the other findings as "code: message".
func runShellcheck(t *testing.T, path, bin string) (found, others []string) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, parseDiags := parser.Parse(filepath.Base(path), src)
	diags := check.RunWith(f, parseDiags, []*check.Analyzer{check.Shellcheck}, check.Options{Path: path, Shellcheck: bin})
	for _, d := range diags {
		if d.Code != "shellcheck" && !strings.HasPrefix(d.Code, "shellcheck/") {
			others = append(others, d.Code+": "+d.Message)
			continue
		}
		r := d.Range
		found = append(found, fmt.Sprintf("%d:%d-%d:%d %s %s %s", r.Start.Line, r.Start.Col, r.End.Line, r.End.Col,
			d.Code, d.Severity, src[r.Start.Offset:r.End.Offset]))
	}
	return found, others
}

// TestShellcheck runs the real shellcheck over testdata/shellcheck: the
// findings must sit exactly on the shell words, inside block scalars and
// quoted scalars with escapes, and never on Lobster references.
func TestShellcheck(t *testing.T) {
	bin, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Skip("shellcheck is not installed")
	}
	tests := []struct {
		file string
		want []string
		// codes: a finding of one of these codes that is not in want is an
		// error. Other codes are tolerated, since a newer shellcheck may
		// add checks.
		codes []string
	}{{
		file: "block.lobster",
		want: []string{
			"13:12-13:14 shellcheck/SC2086 info $f",      // after a tab in the text
			"16:22-16:29 shellcheck/SC2086 info ${NAME}", // assigned in the text: a shell variable
			"21:12-21:16 shellcheck/SC2086 info $DIR",    // no step DIR: $DIR.bak goes to the shell
		},
		codes: []string{"SC2086", "SC2154", "SC2034"},
	}, {
		file: "quoted.lobster",
		want: []string{
			"7:66-7:68 shellcheck/SC2086 info $X",       // after \\ \" é \u00e9 $fetch.stdout \t 日本
			"10:15-10:17 shellcheck/SC2086 info $Y",     // on the continuation line of a folded string
			"12:20-12:26 shellcheck/SC2016 info ''$a''", // '' is one quote in a single-quoted scalar
			"12:27-12:29 shellcheck/SC2086 info $Z",
		},
		codes: []string{"SC2086", "SC2016"},
	}, {
		file: "dialect.lobster",
		want: []string{
			"6:15-6:17 shellcheck/SC3037 warning -n", // /bin/sh by default
			"12:33-12:35 shellcheck/SC2086 info $A",  // bash: no SC3010 nor SC3037
			"23:33-23:35 shellcheck/SC2086 info $C",  // bash from the loop's env
		},
		codes: []string{"SC2086", "SC3010", "SC3037"},
	}, {
		file: "suppress.lobster",
		want: []string{
			"7:13-7:17 shellcheck/SC2086 info $DIR", // the suppression names another code
		},
		codes: []string{"SC2086"},
	}}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			found, _ := runShellcheck(t, filepath.Join("testdata", "shellcheck", tt.file), bin)
			for _, w := range tt.want {
				if !slices.Contains(found, w) {
					t.Errorf("missing finding %s", w)
				}
			}
			for _, f := range found {
				if slices.Contains(tt.want, f) {
					continue
				}
				fields := strings.Fields(f)
				code := strings.TrimPrefix(fields[1], "shellcheck/")
				if fields[1] == "shellcheck" || slices.Contains(tt.codes, code) || strings.Contains(f, "$fetch") ||
					strings.Contains(f, "${dir}") || strings.Contains(f, "$item") {
					t.Errorf("unexpected finding %s", f)
				}
			}
			if t.Failed() {
				t.Logf("got:\n%s", strings.Join(found, "\n"))
			}
		})
	}
}

// TestShellcheckSuppression: a suppression of a shellcheck code is a known
// code, used or not, whether shellcheck runs or not; a malformed one is not.
func TestShellcheckSuppression(t *testing.T) {
	bins := []string{""}
	if bin, err := exec.LookPath("shellcheck"); err == nil {
		bins = append(bins, bin)
	}
	path := filepath.Join("testdata", "shellcheck", "suppress.lobster")
	for _, bin := range bins {
		found, others := runShellcheck(t, path, bin)
		for _, f := range found {
			if strings.HasPrefix(f, "5:") {
				t.Errorf("shellcheck=%q: the suppressed finding is reported: %s", bin, f)
			}
		}
		var bad []string
		for _, o := range others {
			if strings.HasPrefix(o, "bad-suppression") || strings.HasPrefix(o, "unused-suppression") {
				bad = append(bad, o)
			}
		}
		want := []string{`bad-suppression: unknown code "shellcheck/SCx" in a suppression`}
		if !slices.Equal(bad, want) {
			t.Errorf("shellcheck=%q: suppression findings %q, want %q", bin, bad, want)
		}
	}
}

// TestShellcheckOff: without a program the rule does nothing.
func TestShellcheckOff(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "shellcheck", "*.lobster"))
	for _, path := range files {
		if found, _ := runShellcheck(t, path, ""); len(found) > 0 {
			t.Errorf("%s: findings without shellcheck: %q", path, found)
		}
	}
}

// fakeShellcheck writes an executable script that prints out (after
// saving its arguments to args.txt) and exits with status code.
func fakeShellcheck(t *testing.T, out string, code int) (bin, argsFile string) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake shellcheck is a shell script")
	}
	dir := t.TempDir()
	bin = filepath.Join(dir, "shellcheck")
	argsFile = filepath.Join(dir, "args.txt")
	outFile := filepath.Join(dir, "out.json")
	if err := os.WriteFile(outFile, []byte(out+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Only builtins: PATH may hold nothing else.
	script := fmt.Sprintf("#!/bin/sh\necho \"$@\" > '%s'\nwhile IFS= read -r l; do printf '%%s\\n' \"$l\"; done < '%s'\nexit %d\n", argsFile, outFile, code)
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return bin, argsFile
}

// TestShellcheckMapping maps canned json1 output back to the source, on
// every machine: shellcheck's columns count code points and a tab as one,
// its end columns are exclusive, a point finding gets one character, and
// positions past the end of a line or of the text are clamped.
func TestShellcheckMapping(t *testing.T) {
	const wf = "steps:\n" +
		"  - id: a\n" +
		"    run: |\n" +
		"      \techo \"日é\" $x\n" + // line 1 of the script
		"      if true; then :; fi\n" + // line 2 (text that does not parse is left to shell-syntax)
		"  - id: b\n" +
		"    run: \"echo \\u00e9\\t$y\"\n"
	const out = `{"comments":[
{"file":"0.sh","line":1,"endLine":1,"column":12,"endColumn":14,"level":"info","code":2086,"message":"Double quote to prevent globbing and word splitting."},
{"file":"0.sh","line":2,"endLine":2,"column":1,"endColumn":1,"level":"error","code":1046,"message":"Couldn't find 'fi' for this 'if'."},
{"file":"0.sh","line":3,"endLine":3,"column":1,"endColumn":1,"level":"error","code":1072,"message":"Expected 'fi'."},
{"file":"0.sh","line":1,"endLine":1,"column":1,"endColumn":99,"level":"style","code":9999,"message":"Whole line"},
{"file":"1.sh","line":1,"endLine":1,"column":8,"endColumn":10,"level":"warning","code":2154,"message":"y is referenced but not assigned."},
{"file":"1.sh","line":1,"endLine":1,"column":6,"endColumn":7,"level":"style","code":1,"message":"The e acute."},
{"file":"lib.sh","line":1,"endLine":1,"column":1,"endColumn":2,"level":"info","code":1091,"message":"Not ours."}
]}`
	bin, argsFile := fakeShellcheck(t, out, 1)
	dir := t.TempDir()
	path := filepath.Join(dir, "wf.lobster")
	if err := os.WriteFile(path, []byte(wf), 0o644); err != nil {
		t.Fatal(err)
	}
	found, _ := runShellcheck(t, path, bin)
	want := []string{
		`4:21-4:23 shellcheck/SC2086 info $x`,
		`4:7-4:23 shellcheck/SC9999 hint ` + "\techo \"日é\" $x",
		`5:7-5:8 shellcheck/SC1046 warning i`,
		`5:26-5:26 shellcheck/SC1072 warning `,
		`7:16-7:22 shellcheck/SC1 hint \u00e9`,
		`7:24-7:26 shellcheck/SC2154 warning $y`,
	}
	slices.Sort(found)
	slices.Sort(want)
	if !slices.Equal(found, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(found, "\n"), strings.Join(want, "\n"))
	}
	args, err := os.ReadFile(argsFile)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(args)); !strings.HasPrefix(got, "--format=json1 --shell=sh --exclude=SC1091,") || !strings.HasSuffix(got, " 0.sh 1.sh") {
		t.Errorf("shellcheck arguments: %s", got)
	}
}

// TestShellcheckMessage: the message is shellcheck's, with its code and
// wiki link and without the final period.
func TestShellcheckMessage(t *testing.T) {
	const out = `{"comments":[{"file":"0.sh","line":1,"endLine":1,"column":6,"endColumn":8,"level":"info","code":2086,"message":"Double quote to prevent globbing and word splitting."}]}`
	bin, _ := fakeShellcheck(t, out, 1)
	f, diags := parser.Parse("wf.lobster", []byte("steps:\n  - id: a\n    run: echo $x\n"))
	got := check.RunWith(f, diags, []*check.Analyzer{check.Shellcheck}, check.Options{Shellcheck: bin})
	want := "SC2086: Double quote to prevent globbing and word splitting (https://www.shellcheck.net/wiki/SC2086)"
	if len(got) != 1 || got[0].Message != want || got[0].Severity != source.Info || got[0].Code != "shellcheck/SC2086" {
		t.Errorf("got %+v, want one info shellcheck/SC2086 %q", got, want)
	}
}

// TestShellcheckFailure: a program that fails is reported once, with the
// code "shellcheck", at the first run key.
func TestShellcheckFailure(t *testing.T) {
	for _, tc := range []struct {
		out  string
		code int
		want string
	}{
		{"", 3, "exit status 3"},
		{"not json", 1, "unreadable output"},
	} {
		bin, _ := fakeShellcheck(t, tc.out, tc.code)
		f, diags := parser.Parse("wf.lobster", []byte("steps:\n  - id: a\n    run: echo $x\n  - id: b\n    run: echo $y\n"))
		got := check.RunWith(f, diags, []*check.Analyzer{check.Shellcheck}, check.Options{Shellcheck: bin})
		if len(got) != 1 || got[0].Code != "shellcheck" || got[0].Range.Start.Line != 3 || !strings.Contains(got[0].Message, tc.want) {
			t.Errorf("got %+v, want one shellcheck finding on line 3 containing %q", got, tc.want)
		}
	}
}

// TestShellcheckBatches: more scripts than one shellcheck process takes run
// as several batches; when one batch fails, the findings of the others are
// still reported, with the failure.
func TestShellcheckBatches(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake shellcheck is a shell script")
	}
	bin := filepath.Join(t.TempDir(), "shellcheck")
	// The batch holding the first script fails; the batch holding the
	// last script reports a finding on it.
	script := "#!/bin/sh\nfor a in \"$@\"; do\n  case $a in\n    0.sh) echo boom >&2; exit 3;;\n  esac\ndone\n" +
		"for a in \"$@\"; do\n  case $a in\n    210.sh) echo '{\"comments\":[{\"file\":\"210.sh\",\"line\":1,\"endLine\":1,\"column\":6,\"endColumn\":8,\"level\":\"warning\",\"code\":2086,\"message\":\"Double quote.\"}]}'; exit 1;;\n  esac\ndone\necho '{\"comments\":[]}'\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	src.WriteString("steps:\n")
	for i := range 211 {
		fmt.Fprintf(&src, "  - id: s%d\n    run: echo $x\n", i)
	}
	f, diags := parser.Parse("wf.lobster", []byte(src.String()))
	got := check.RunWith(f, diags, []*check.Analyzer{check.Shellcheck}, check.Options{Shellcheck: bin})
	var codes []string
	for _, d := range got {
		codes = append(codes, fmt.Sprintf("%s@%d", d.Code, d.Range.Start.Line))
	}
	want := []string{"shellcheck@3", "shellcheck/SC2086@423"}
	if len(got) != 2 || !slices.Equal(codes, want) || !strings.Contains(got[0].Message, "boom") {
		t.Errorf("got %v (%+v), want %v", codes, got, want)
	}
}

// TestShellcheckSkipsSyntaxErrors: text that does not parse as shell is
// reported by shell-syntax, and not sent to shellcheck as well.
func TestShellcheckSkipsSyntaxErrors(t *testing.T) {
	bin, argsFile := fakeShellcheck(t, `{"comments":[]}`, 0)
	path := filepath.Join(t.TempDir(), "wf.lobster")
	if err := os.WriteFile(path, []byte("steps:\n  - id: a\n    run: echo \"hello\n  - id: b\n    run: echo ok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runShellcheck(t, path, bin)
	args, err := os.ReadFile(argsFile)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(args)); !strings.HasSuffix(got, " 0.sh") || strings.Contains(got, "1.sh") {
		t.Errorf("shellcheck got %q; want only the script that parses", got)
	}
}

// TestShellcheckSkipsTruncated: a script that a YAML error cut short is
// not sent to shellcheck.
func TestShellcheckSkipsTruncated(t *testing.T) {
	bin, argsFile := fakeShellcheck(t, `{"comments":[]}`, 0)
	path := filepath.Join(t.TempDir(), "wf.lobster")
	if err := os.WriteFile(path, []byte("steps:\n  - id: a\n    run: echo ok\n  - id: b\n    run: echo x: y\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runShellcheck(t, path, bin)
	args, err := os.ReadFile(argsFile)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(args)); !strings.HasSuffix(got, " 0.sh") || strings.Contains(got, "1.sh") {
		t.Errorf("shellcheck got %q; want only the script that is whole", got)
	}
}

// TestShellcheckCache: with a cache, a check of the same text runs no
// shellcheck and reports the same findings; an edit runs shellcheck on the
// changed text only; a .shellcheckrc that now applies runs it on all of
// them again.
func TestShellcheckCache(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake shellcheck is a shell script")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "shellcheck")
	log := filepath.Join(dir, "log.txt")
	// One finding on the first characters of every script it is given;
	// each run appends its arguments to the log.
	script := "#!/bin/sh\necho \"$@\" >> '" + log + "'\nprintf '{\"comments\":['\nsep=\n" +
		"for a in \"$@\"; do case $a in *.sh) printf '%s{\"file\":\"%s\",\"line\":1,\"endLine\":1,\"column\":1,\"endColumn\":5,\"level\":\"info\",\"code\":2086,\"message\":\"m.\"}' \"$sep\" \"$a\"; sep=,;; esac; done\n" +
		"printf ']}\\n'\nexit 1\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	wfDir := filepath.Join(dir, "wf")
	if err := os.Mkdir(wfDir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(wfDir, "wf.lobster")
	cache := check.NewShellcheckCache(100)
	check1 := func(text string) []string {
		t.Helper()
		f, diags := parser.Parse(path, []byte(text))
		var out []string
		for _, d := range check.RunWith(f, diags, []*check.Analyzer{check.Shellcheck}, check.Options{Path: path, Shellcheck: bin, ShellcheckCache: cache}) {
			out = append(out, fmt.Sprintf("%d:%d %s", d.Range.Start.Line, d.Range.Start.Col, d.Code))
		}
		return out
	}
	runs := func() []string {
		t.Helper()
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Split(strings.TrimSpace(string(data)), "\n")
	}
	const v1 = "steps:\n  - id: a\n    run: echo 1\n  - id: b\n    run: echo 2\n"
	want := []string{"3:10 shellcheck/SC2086", "5:10 shellcheck/SC2086"}
	if got := check1(v1); !slices.Equal(got, want) {
		t.Fatalf("first check: %v, want %v", got, want)
	}
	if got := check1(v1); !slices.Equal(got, want) {
		t.Errorf("the same text again: %v, want %v", got, want)
	}
	if r := runs(); len(r) != 1 {
		t.Errorf("shellcheck ran %d times for two checks of one text: %q", len(r), r)
	}
	// An edit of b's text and a new step c: only those go to shellcheck.
	const v2 = "steps:\n  - id: a\n    run: echo 1\n  - id: b\n    run: echo 3\n  - id: c\n    run: echo 2\n"
	want2 := []string{"3:10 shellcheck/SC2086", "5:10 shellcheck/SC2086", "7:10 shellcheck/SC2086"}
	if got := check1(v2); !slices.Equal(got, want2) {
		t.Errorf("after the edit: %v, want %v", got, want2)
	}
	if r := runs(); len(r) != 2 || !strings.HasSuffix(r[1], " 1.sh") || strings.Contains(r[1], "0.sh") || strings.Contains(r[1], "2.sh") {
		t.Errorf("after the edit, shellcheck ran with %q; want one run on the edited text (1.sh) only", r)
	}
	if err := os.WriteFile(filepath.Join(dir, ".shellcheckrc"), []byte("disable=SC2164\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := check1(v2); !slices.Equal(got, want2) {
		t.Errorf("with a .shellcheckrc: %v, want %v", got, want2)
	}
	if r := runs(); len(r) != 3 || !strings.HasSuffix(r[2], " 0.sh 1.sh 2.sh") {
		t.Errorf("with a new .shellcheckrc, shellcheck ran with %q; want all three texts again", r)
	}
}
