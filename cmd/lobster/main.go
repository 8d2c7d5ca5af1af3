// Command lobster is the command-line tool for Lobster workflow files
// (.lobster, YAML or JSON): it checks them, previews them, runs them and
// resumes their paused runs, and runs pipelines typed on the command line.
//
// Usage:
//
//	lobster <command> [arguments]
//	lobster FILE [--args-json JSON]
//	lobster '<pipeline>'
//
// "lobster help" lists the commands, grouped; "lobster help COMMAND" prints
// a command's help, whose list of flags is written from the flag set the
// command parses with. Errors go to standard error as "lobster: ...", a
// mistyped command or flag with the closest name; in tool mode (run --mode
// tool, resume, doctor) the reference's JSON envelopes go to standard
// output instead, unchanged.
//
// # Exit codes
//
// lobster check exits with
//
//	0  no finding of error severity (warnings, infos and hints do not count)
//	1  at least one finding of error severity
//	2  usage error (unknown command or flag, bad flag value, no paths), or a
//	   file that cannot be read; the reason is printed on standard error as
//	   "lobster: PATH: REASON"
//	3  internal failure: the checker crashed on a file, reported on standard
//	   error as "lobster: internal error checking PATH: ..." (never with a
//	   stack trace), or the output could not be written
//
// When several apply, the highest code wins. The other commands exit with 0 on
// success and 2 on a usage error; their help gives the rest.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/lobsterdev/lobster/internal/shim"
	buildversion "github.com/lobsterdev/lobster/internal/version"
)

// Exit codes of lobster check (documented in the package comment).
const (
	exitOK       = 0 // no error findings
	exitFindings = 1 // error findings
	exitUsage    = 2 // usage error or unreadable file
	exitInternal = 3 // internal failure: a crash, or output that cannot be written
)

func main() {
	// A check is a short burst of allocation: collecting garbage less often
	// saves time and costs little memory at the sizes workflow files have.
	// A run is long and spawns processes: it keeps the default.
	if len(os.Args) > 1 && os.Args[1] == "check" && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	referenceVoice = shim.IsShim(os.Args[0])
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// referenceVoice says that lobster runs a pipeline for openclaw.invoke or
// clawd.invoke, which print errors as the reference's programs of those
// names do ("Error: ...", "Parse error: ..."): a run step's errorMessage,
// part of a tool envelope, carries them.
var referenceVoice bool

// run runs the command line args (without the program name) and returns the
// exit code. It never panics: a panic is reported as an internal error.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			textf(stderr, "lobster: internal error: %v\n", r)
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		// As the reference does: no command is a request for help.
		fmt.Fprint(stdout, usageText())
		return exitOK
	}
	switch name := args[0]; name {
	case "version", "--version", "-v":
		return runVersion(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		return runHelp(args[1:], stdout, stderr)
	default:
		if c := lookup(name); c != nil {
			return c.run(args[1:], stdin, stdout, stderr)
		}
		// "lobster PATH" runs a workflow file, as in the reference.
		if isWorkflowPath(name) || isPipelineArgs(args) {
			return runRun(args, stdout, stderr)
		}
		return unknownCommand(stderr, name)
	}
}

// versionDoc is the text of lobster help version.
const versionDoc = `Version prints the version of lobster alone on one line (also lobster -v and
lobster --version): the version a release was built with, else the module
version it was built from (a tag, or the pseudo-version of a commit such as
v0.0.0-20260913120000-abcdef123456); a build from a checkout with
uncommitted changes prints devel+REVISION.dirty, and a build without version
information "devel". lobster-lsp --version prints the same line.`

func runVersion(args []string, stdout, stderr io.Writer) int {
	cmd := cmdNamed("version")
	pos, code, done := parseFlags(cmd, flag.NewFlagSet("version", flag.ContinueOnError), args, false, stdout, stderr)
	if done {
		return code
	}
	if len(pos) > 0 {
		return usageError(stderr, cmd, "version takes no arguments")
	}
	fmt.Fprintln(stdout, version())
	return exitOK
}

// version is the version of the build (see internal/version).
func version() string { return buildversion.String() }
