package check

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/parser"
)

// findings checks text with opts and returns "code line:col" of each finding
// of the codes asked for.
func findings(t *testing.T, text string, opts Options, codes ...string) []string {
	t.Helper()
	f, diags := parser.Parse("w.lobster", []byte(text))
	var out []string
	for _, d := range RunWith(f, diags, Rules, opts) {
		for _, c := range codes {
			if d.Code == c || strings.HasPrefix(d.Code, c+"/") {
				out = append(out, d.Code+" "+d.Range.Start.String())
			}
		}
	}
	return out
}

// TestOptionsCommands: a project's host commands (Options.Commands) are
// known to the pipeline rules, with their flags.
func TestOptionsCommands(t *testing.T) {
	host := &commands.Command{Name: "ado.pr.monitor", Host: true, Effect: commands.External, Flags: []*commands.Flag{
		{Name: "pr", Type: commands.Int, Required: true},
		{Name: "state", Type: commands.Enum, Values: []string{"open", "closed"}},
	}, Requires: []commands.Requirement{{Any: []string{"pr"}, Error: "ado.pr.monitor requires --pr"}}}
	reg := commands.Builtin().With(host)
	text := "steps:\n" +
		"  - id: a\n    pipeline: ado.pr.monitor --pr 7 --state open\n" +
		"  - id: b\n    pipeline: ado.pr.monitor --state shut --verbose\n"
	codes := []string{"unknown-pipeline-command", "missing-required-flag", "unknown-command-flag", "invalid-flag-value"}
	without := findings(t, text, Options{}, codes...)
	if strings.Join(without, ",") != "unknown-pipeline-command 3:15,unknown-pipeline-command 5:15" {
		t.Errorf("without the host command: %v", without)
	}
	with := findings(t, text, Options{Commands: reg}, codes...)
	want := "missing-required-flag 5:15,invalid-flag-value 5:38,unknown-command-flag 5:43"
	if strings.Join(with, ",") != want {
		t.Errorf("with the host command:\n%v\nwant %s", with, want)
	}
}

// TestOptionsEnv: a variable the host sets (Options.Env) is not reported.
func TestOptionsEnv(t *testing.T) {
	text := "steps:\n  - id: a\n    run: echo \"$LOBSTER_HOST_TOKEN\"\n"
	if got := findings(t, text, Options{}, "nonexistent-lobster-env"); len(got) != 1 {
		t.Errorf("without env: %v", got)
	}
	if got := findings(t, text, Options{Env: []string{"LOBSTER_HOST_TOKEN"}}, "nonexistent-lobster-env"); len(got) != 0 {
		t.Errorf("with env: %v", got)
	}
	// A host variable that happens to be spelt like a step's output.
	text = "steps:\n  - id: fetch\n    run: echo '{}'\n  - id: b\n    run: echo \"$fetch_json\"\n"
	if got := findings(t, text, Options{}, "shell-var-step-output"); len(got) != 1 {
		t.Errorf("shell-var-step-output without env: %v", got)
	}
	if got := findings(t, text, Options{Env: []string{"fetch_json"}}, "shell-var-step-output"); len(got) != 0 {
		t.Errorf("shell-var-step-output with env: %v", got)
	}
}

// TestOptionsShellcheck: more excluded codes, and the host's shell.
func TestOptionsShellcheck(t *testing.T) {
	bin, err := exec.LookPath("shellcheck")
	if err != nil {
		t.Skip("shellcheck is not installed")
	}
	text := "steps:\n  - id: a\n    run: ls $DIR\n  - id: b\n    run: echo $'a'\n"
	base := findings(t, text, Options{Shellcheck: bin}, "shellcheck")
	if strings.Join(base, ",") != "shellcheck/SC2086 3:13,shellcheck/SC3003 5:15" {
		t.Errorf("shellcheck: %v", base)
	}
	if got := findings(t, text, Options{Shellcheck: bin, ShellcheckExclude: []string{"2086", "SC3003"}}, "shellcheck"); len(got) != 0 {
		t.Errorf("excluded 2086 and SC3003: %v", got)
	}
	// $'…' is bash: the host's shell decides.
	if got := findings(t, text, Options{Shellcheck: bin, ShellcheckShell: "bash"}, "shellcheck"); strings.Join(got, ",") != "shellcheck/SC2086 3:13" {
		t.Errorf("with bash: %v", got)
	}
}
