package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/lobsterdev/lobster/internal/flaghelp"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/commands"
)

// This file holds what every command shares: the table of commands that
// lobster help lists, the help pages, whose flag lists are written from
// the commands' flag sets, and the voice of errors: "lobster: ..." on
// standard error, with a suggestion for a mistyped command or flag.

// A command is one of lobster's commands.
type command struct {
	name    string
	group   string // the heading lobster help lists it under (groups)
	summary string // its line in lobster help
	// usage is the synopsis, one line per form, without "usage: ".
	usage []string
	// doc is what the help says between the usage and the flags; more
	// what it says after them (the exit codes).
	doc, more string
	// flags are the command's flag sets, for its help and suggestions:
	// one, or one per subcommand.
	flags func() []namedFlags
	run   func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// namedFlags is a flag set with the heading its help gives it ("" for
// "Flags").
type namedFlags struct {
	heading string
	set     *flag.FlagSet
}

// The groups of lobster help, in order.
var groups = []struct{ name, title string }{
	{"author", "Writing workflows"},
	{"run", "Running workflows"},
	{"state", "Paused runs"},
	{"editor", "Editors and agents"},
	{"about", "About lobster"},
}

// cliCommands are lobster's commands, in the order lobster help lists them
// within a group (set in init: the help command refers to the table).
var cliCommands []*command

func init() {
	cliCommands = []*command{
		{name: "check", group: "author", summary: "check workflow files and report problems",
			usage: []string{"lobster check [flags] PATH..."}, doc: checkDoc, more: checkMore,
			flags: one(func() *flag.FlagSet { return checkFlagSet(new(checkFlags)) }), run: runCheck},
		{name: "plan", group: "author", summary: "print the execution plan of a workflow file",
			usage: planUsage, doc: planDoc, more: planMore,
			flags: one(func() *flag.FlagSet { return planFlagSet(new(planFlags)) }), run: noStdin(runPlan)},
		{name: "graph", group: "author", summary: "print the steps of a workflow file as a graph",
			usage: []string{"lobster graph [--file] PATH [--format mermaid|dot|ascii] [--args-json JSON]"}, doc: graphDoc, more: graphMore,
			flags: one(graphFlagSet), run: noStdin(runGraph)},
		{name: "schema", group: "author", summary: "print the JSON Schema of workflow files",
			usage: []string{"lobster schema [--config]"}, doc: schemaDoc,
			flags: one(func() *flag.FlagSet { return schemaFlagSet(new(bool)) }), run: noStdin(runSchema)},

		{name: "run", group: "run", summary: "check a workflow file, then run it; or run a pipeline",
			usage: runUsage, doc: runDoc, more: runMore,
			flags: one(func() *flag.FlagSet { return runFlagSet(new(runFlags)) }), run: noStdin(runRun)},
		{name: "resume", group: "run", summary: "continue or cancel a run paused at a gate",
			usage: resumeUsage, doc: resumeDoc, more: resumeMore,
			flags: one(resumeFlagSet), run: noStdin(runResume)},
		{name: "doctor", group: "run", summary: "check that this lobster can run workflows",
			usage: []string{"lobster doctor [NOTES...]"}, doc: doctorDoc, run: noStdin(runDoctor)},
		{name: "worker", group: "run", summary: "run the steps of runs on Temporal (lobster run --engine temporal)",
			usage: workerUsage, doc: workerDoc, more: workerMore,
			flags: one(func() *flag.FlagSet { return workerFlagSet(new(workerOptions)) }), run: noStdin(runWorker)},

		{name: "state", group: "state", summary: "list paused runs; prune the state directory",
			usage: stateUsage, doc: stateDoc, more: stateMore, flags: stateFlagSets, run: noStdin(runState)},

		{name: "mcp", group: "editor", summary: "serve the toolchain to AI agents (Model Context Protocol)",
			usage: []string{"lobster mcp [--http ADDR] [--allow-run] [--allow-agent-approval] [--shellcheck auto|off|PATH] [--engine local|temporal ...]"}, doc: mcpDoc,
			flags: one(func() *flag.FlagSet { return mcpFlagSet(new(mcpFlags)) }),
			run: func(args []string, _ io.Reader, _, stderr io.Writer) int {
				return runMCP(args, os.Stdin, os.Stdout, stderr)
			}},

		{name: "help", group: "about", summary: "show the help of lobster, of a command or of a pipeline command",
			usage: []string{"lobster help [COMMAND]"}, doc: helpDoc, run: noStdin(runHelp)},
		{name: "version", group: "about", summary: "print the lobster version",
			usage: []string{"lobster version"}, doc: versionDoc, run: noStdin(runVersion)},
	}
}

// one is a command's single flag set.
func one(fs func() *flag.FlagSet) func() []namedFlags {
	return func() []namedFlags { return []namedFlags{{set: fs()}} }
}

// noStdin adapts a command that does not read standard input through its
// arguments.
func noStdin(f func(args []string, stdout, stderr io.Writer) int) func([]string, io.Reader, io.Writer, io.Writer) int {
	return func(args []string, _ io.Reader, stdout, stderr io.Writer) int { return f(args, stdout, stderr) }
}

// lookup is the command called name, or nil.
func lookup(name string) *command {
	for _, c := range cliCommands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// commandNames are the names of the commands, for suggestions.
func commandNames() []string {
	names := make([]string, len(cliCommands))
	for i, c := range cliCommands {
		names[i] = c.name
	}
	return names
}

// usageText is what lobster help prints.
func usageText() string {
	var b strings.Builder
	b.WriteString(`Lobster checks, previews and runs workflow files (.lobster, YAML or JSON),
and runs pipelines typed on the command line.

Usage:

	lobster <command> [arguments]
	lobster FILE [--args-json JSON]   run a workflow file (as lobster run FILE)
	lobster '<pipeline>'              run a pipeline (as lobster run '<pipeline>')
`)
	width := 0
	for _, c := range cliCommands {
		width = max(width, len(c.name))
	}
	for _, g := range groups {
		fmt.Fprintf(&b, "\n%s:\n\n", g.title)
		for _, c := range cliCommands {
			if c.group == g.name {
				fmt.Fprintf(&b, "\t%-*s  %s\n", width, c.name, c.summary)
			}
		}
		if g.name == "editor" {
			fmt.Fprintf(&b, "\t%-*s  %s\n", width, "", "(lobster-lsp, a program of its own, is the language server)")
		}
	}
	b.WriteString(`
Run "lobster help <command>" for the flags of a command, "lobster help exec"
for a pipeline command ("lobster commands.list" lists them), and
"lobster check --explain CODE" for what a finding means.
`)
	return b.String()
}

// helpPage is the help of c: its usage, its text, its flags (from its
// flag sets) and what follows them.
func helpPage(c *command) string {
	var b strings.Builder
	for i, u := range c.usage {
		if i == 0 {
			b.WriteString("usage: " + u + "\n")
		} else {
			b.WriteString("       " + u + "\n")
		}
	}
	b.WriteString("\n" + strings.TrimRight(c.doc, "\n") + "\n")
	var sets []namedFlags
	if c.flags != nil {
		sets = c.flags()
	}
	for _, s := range sets {
		heading := s.heading
		if heading == "" {
			heading = "Flags"
		}
		b.WriteString("\n" + heading + ":\n\n")
		b.WriteString(flaghelp.List(s.set))
	}
	if len(sets) == 0 {
		b.WriteString("\nFlags:\n\n")
		b.WriteString(flaghelp.List(flag.NewFlagSet(c.name, flag.ContinueOnError)))
	}
	if c.more != "" {
		b.WriteString("\n" + strings.TrimRight(c.more, "\n") + "\n")
	}
	return b.String()
}

// unknownCommand reports a word that names no command, with the closest
// command when there is one.
func unknownCommand(stderr io.Writer, name string) int {
	textf(stderr, "lobster: unknown command %q%s\nRun \"lobster help\" for usage.\n", name, suggestion(name, commandNames(), ""))
	return exitUsage
}

// suggestion is `; did you mean "X"?` for the candidate X closest to
// name, or ""; with a prefix (the dashes of a flag), `; did you mean
// --X?`.
func suggestion(name string, candidates []string, prefix string) string {
	near := check.Suggest(name, candidates)
	switch {
	case near == "":
		return ""
	case prefix != "":
		return fmt.Sprintf("; did you mean %s%s?", prefix, near)
	}
	return fmt.Sprintf("; did you mean %q?", near)
}

// unknownFlag is the message for the flag name (with its dashes) that the
// flag sets of cmd do not define.
func unknownFlag(cmd *command, name string) string {
	bare := flagName(name)
	return fmt.Sprintf("%s has no flag --%s%s", cmd.name, bare, flagSuggestion(cmd, bare))
}

// flagName is the name of the flag a word of the command line gives:
// "--name=value" gives "name".
func flagName(word string) string {
	name, _, _ := strings.Cut(strings.TrimLeft(word, "-"), "=")
	return name
}

// flagSuggestion is "; did you mean --X?" for the flag X of cmd closest
// to name, or "".
func flagSuggestion(cmd *command, name string) string {
	var names []string
	if cmd.flags != nil {
		for _, s := range cmd.flags() {
			s.set.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		}
	}
	slices.Sort(names)
	return suggestion(name, slices.Compact(names), "--")
}

// flagProblem is the message for err, an error of fs.Parse for command
// cmd, in lobster's words: the flag package's own messages name flags
// with one dash and suggest nothing.
func flagProblem(cmd *command, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		return unknownFlag(cmd, name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: "); ok {
		return fmt.Sprintf("--%s needs a value", strings.TrimLeft(name, "-"))
	}
	// invalid value "x" for flag -name: reason
	// invalid boolean value "x" for -name: reason
	if rest, ok := strings.CutPrefix(msg, "invalid "); ok {
		if i := strings.Index(rest, " for "); i >= 0 {
			what, after := rest[:i], rest[i+len(" for "):]
			after = strings.TrimPrefix(after, "flag ")
			name, reason, _ := strings.Cut(after, ": ")
			value := strings.TrimPrefix(strings.TrimPrefix(what, "boolean "), "value ")
			return fmt.Sprintf("invalid --%s %s: %s", strings.TrimLeft(name, "-"), value, reason)
		}
	}
	return msg
}

// usageError reports a usage error of cmd: "lobster: MESSAGE" (when there
// is one), the usage and where the help is; it returns exitUsage.
func usageError(stderr io.Writer, cmd *command, format string, args ...any) int {
	if format != "" {
		textf(stderr, "lobster: "+format+"\n", args...)
	}
	printUsage(stderr, cmd)
	return exitUsage
}

// printUsage prints the usage of cmd and where its help is.
func printUsage(w io.Writer, cmd *command) {
	for i, u := range cmd.usage {
		if i == 0 {
			fmt.Fprintf(w, "usage: %s\n", u)
		} else {
			fmt.Fprintf(w, "       %s\n", u)
		}
	}
	fmt.Fprintf(w, "Run \"lobster help %s\" for details.\n", cmd.name)
}

// parseFlags parses args with fs (flags may follow the positional
// arguments when interleaved) and reports a problem as a usage error of
// cmd; -h and --help print the help. done says the command is over, with
// code.
func parseFlags(cmd *command, fs *flag.FlagSet, args []string, interleaved bool, stdout, stderr io.Writer) (pos []string, code int, done bool) {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	var err error
	if interleaved {
		pos, err = parseInterleaved(fs, args)
	} else {
		err = fs.Parse(args)
		pos = fs.Args()
	}
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(stdout, helpPage(cmd))
		return nil, exitOK, true
	case err != nil:
		return nil, usageError(stderr, cmd, "%s", flagProblem(cmd, err)), true
	}
	return pos, exitOK, false
}

// cmdNamed is the command called name, which must exist.
func cmdNamed(name string) *command {
	c := lookup(name)
	if c == nil {
		panic("no command " + name)
	}
	return c
}

// helpDoc is the text of lobster help help.
const helpDoc = `Help prints the usage of lobster, the help of a command, or the help of a
pipeline command (such as exec or approve).`

func runHelp(args []string, stdout, stderr io.Writer) int {
	switch len(args) {
	case 0:
		fmt.Fprint(stdout, usageText())
		return exitOK
	case 1:
		if c := lookup(args[0]); c != nil {
			fmt.Fprint(stdout, helpPage(c))
			return exitOK
		}
		if text, ok := commandHelp(args[0]); ok {
			fmt.Fprint(stdout, text)
			return exitOK
		}
		names := commandNames()
		for _, c := range commands.Builtin().All() {
			names = append(names, c.Name)
		}
		textf(stderr, "lobster: no command or pipeline command %q%s\nRun \"lobster help\" for usage.\n", args[0], suggestion(args[0], names, ""))
		return exitUsage
	default:
		return usageError(stderr, cmdNamed("help"), "help takes one command, not %d", len(args))
	}
}
