// Command lobster is the command-line tool for Lobster workflow files
// (.lobster, YAML or JSON).
//
// Usage:
//
//	lobster <command> [arguments]
//
// The commands are:
//
//	check    check workflow files and report problems
//	run      check a workflow file, then run it
//	plan     print the execution plan of a workflow file
//	graph    print the steps of a workflow file as a graph
//	schema   print the JSON Schema of workflow files
//	resume   continue or cancel a run paused at a gate
//	state    list paused runs; prune the state directory
//	mcp      serve the toolchain to AI agents (Model Context Protocol)
//	version  print the lobster version
//	help     show help for lobster or for a command
//
// # lobster check
//
//	lobster check [flags] PATH...
//
// Check parses every named file and every *.lobster file found under the
// named directories (skipping directories whose name starts with a dot, and
// node_modules), and reports what it finds. A file named explicitly is checked
// whatever its extension; a name ending in .json is parsed as strict JSON,
// anything else as YAML. The path "-" reads a file from standard input, named
// by --stdin-filename. Files are checked in parallel and reported in path
// order.
//
// The flags are:
//
//	--format text|json|sarif|github
//	                       output format (default text)
//	--color auto|always|never
//	                       colour the text output (default auto: only when
//	                       standard output is a terminal, NO_COLOR is unset
//	                       and TERM is not "dumb")
//	--stdin-filename NAME  the name of the file read from "-" (default <stdin>)
//	--explain CODE         print the documentation of a diagnostic code
//	--fix                  apply the first fix of each finding in place
//	--diff                 print the fixes as a unified diff instead
//
// Flags may come before or after the paths; "--" ends the flags.
//
// The text format prints each finding as
//
//	file:line:col: severity: message [code]
//
// followed by the source line with the range underlined and by related
// locations. The json format prints one JSON array of all findings, sorted by
// file and position, in the shape of the JSON form of the source package's
// Diagnostic type (documented in README.md). The sarif format prints a SARIF
// 2.1.0 log (for code scanning), the github format GitHub Actions workflow
// commands (annotations).
//
// --fix applies the first fix of each finding to the files (atomically),
// reports the number applied on standard error and then reports the findings
// that remain; --diff prints the same changes as a unified diff and writes
// nothing.
//
// # lobster schema
//
//	lobster schema
//
// Schema prints the JSON Schema (draft 2020-12) of workflow files, the one
// committed as schema/lobster.schema.json.
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
// success and 2 on a usage error.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"

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
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const usageText = `Lobster checks workflow files (.lobster, YAML or JSON).

Usage:

	lobster <command> [arguments]

The commands are:

	check    check workflow files and report problems
	run      check a workflow file, then run it
	plan     print the execution plan of a workflow file
	graph    print the steps of a workflow file as a graph
	schema   print the JSON Schema of workflow files
	resume   continue or cancel a run paused at a gate
	state    list paused runs; prune the state directory
	mcp      serve the toolchain to AI agents (Model Context Protocol)
	version  print the lobster version
	help     show help for lobster or for a command

Run "lobster help <command>" for more information about a command.
`

// run runs the command line args (without the program name) and returns the
// exit code. It never panics: a panic is reported as an internal error.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "lobster: internal error: %v\n", r)
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		// As the reference does: no command is a request for help.
		fmt.Fprint(stdout, usageText)
		return exitOK
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "check":
		return runCheck(rest, stdin, stdout, stderr)
	case "schema":
		return runSchema(rest, stdout, stderr)
	case "run":
		return runRun(rest, stdout, stderr)
	case "plan":
		return runPlan(rest, stdout, stderr)
	case "graph":
		return runGraph(rest, stdout, stderr)
	case "resume":
		return runResume(rest, stdout, stderr)
	case "state":
		return runState(rest, stdout, stderr)
	case "doctor":
		return runDoctor(rest, stdout, stderr)
	case "mcp":
		return runMCP(rest, os.Stdin, os.Stdout, stderr)
	case "version", "--version", "-v":
		return runVersion(rest, stdout, stderr)
	case "help", "-h", "-help", "--help":
		return runHelp(rest, stdout, stderr)
	default:
		// "lobster PATH" runs a workflow file, as in the reference.
		if isWorkflowPath(cmd) || isPipelineArgs(args) {
			return runRun(args, stdout, stderr)
		}
		fmt.Fprintf(stderr, "lobster: unknown command %q\nRun \"lobster help\" for usage.\n", cmd)
		return exitUsage
	}
}

// helpTexts holds the help of each command, for "lobster help <command>".
var helpTexts = map[string]string{
	"check":   checkHelp,
	"run":     runUsageText,
	"plan":    planHelp,
	"graph":   graphHelp,
	"resume":  resumeUsageText,
	"state":   stateHelp,
	"doctor":  doctorHelp,
	"schema":  schemaHelp,
	"mcp":     mcpHelp,
	"version": versionHelp,
	"help":    helpHelp,
}

const helpHelp = `usage: lobster help [command]

Help prints the usage of lobster, or the documentation of a command.
`

func runHelp(args []string, stdout, stderr io.Writer) int {
	switch len(args) {
	case 0:
		fmt.Fprint(stdout, usageText)
		return exitOK
	case 1:
		text, ok := helpTexts[args[0]]
		if !ok {
			text, ok = commandHelp(args[0])
		}
		if !ok {
			fmt.Fprintf(stderr, "lobster: unknown command %q\nRun \"lobster help\" for usage.\n", args[0])
			return exitUsage
		}
		fmt.Fprint(stdout, text)
		return exitOK
	default:
		fmt.Fprintf(stderr, "usage: lobster help [command]\n")
		return exitUsage
	}
}

const versionHelp = `usage: lobster version

Version prints the version of lobster alone on one line (also lobster -v and
lobster --version): the version a release was built with, else the module
version it was built from (a tag, or the pseudo-version of a commit such as
v0.0.0-20260913120000-abcdef123456); a build from a checkout with
uncommitted changes prints devel+REVISION.dirty, and a build without version
information "devel". lobster-lsp --version prints the same line.
`

func runVersion(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, "usage: lobster version\n") }
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fmt.Fprint(stdout, versionHelp)
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	fmt.Fprintln(stdout, version())
	return exitOK
}

// version is the version of the build (see internal/version).
func version() string { return buildversion.String() }
