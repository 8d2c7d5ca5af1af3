package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/engines"
	"github.com/lobsterdev/lobster/runtime/state"
)

// The text of lobster help state.
var stateUsage = []string{
	"lobster state list [--format text|json] [--engine local|temporal ...]",
	"lobster state prune [--older-than DURATION] [--dry-run] [--format text|json] [--engine local|temporal ...]",
}

const stateDoc = `State shows and cleans the state directory (LOBSTER_STATE_DIR, default
~/.lobster/state), where paused runs wait for "lobster resume".

list prints the paused runs, oldest first: the approval id, what the run
waits for (approval or input), its age, the step (or pipeline stage) that
paused and the workflow file (or pipeline). --format json prints them as a
JSON array with the state key and the resume token as well.

prune removes what no run needs any more, and never what a live run or
resume uses: locks whose holder is gone, temporary files and lock leftovers
older than 10 minutes, spent resume states whose resume is no longer
running (after 24 hours when the resume is not known), and approval ids
whose run is gone. Paused runs are kept unless --older-than is given:
then those paused longer than DURATION go too, with their approval ids (a
resume of one of them is refused as unknown). DURATION is a Go duration
(90m, 12h) or a number of days (7d). --dry-run prints what would go and
removes nothing. Each removal is one line: the file, what it was, why.

With --engine temporal (and --temporal-address, --temporal-namespace, as
for lobster run) list shows the runs paused on Temporal instead, and prune
--older-than cancels those paused longer than DURATION, one line per run
naming its workflow id; prune removes nothing else there (Temporal forgets
ended runs after the namespace's retention).`

const stateMore = `Exit codes: 0 success; 1 the directory could not be read or a file could
not be removed; 2 a usage error.`

// stateOptions are the options of lobster state's subcommands.
type stateOptions struct {
	format    string
	olderThan time.Duration
	dryRun    bool
	engine    engines.Config
}

// stateFlagSet is the flags of lobster state sub (list or prune), set in
// o; nil for another sub.
func stateFlagSet(sub string, o *stateOptions) *flag.FlagSet {
	fs := flag.NewFlagSet("state "+sub, flag.ContinueOnError)
	fs.StringVar(&o.format, "format", "text", "`text|json` print a table, or JSON")
	switch sub {
	case "list":
	case "prune":
		fs.Func("older-than", "remove the runs paused longer than `DURATION` too", func(s string) (err error) {
			o.olderThan, err = parseAge(s)
			return err
		})
		fs.BoolVar(&o.dryRun, "dry-run", false, "print what would go, and remove nothing")
	default:
		return nil
	}
	engineFlags(fs, &o.engine, false)
	return fs
}

// stateFlagSets are the flag sets of lobster state, for its help.
func stateFlagSets() []namedFlags {
	return []namedFlags{
		{"Flags of list", stateFlagSet("list", new(stateOptions))},
		{"Flags of prune", stateFlagSet("prune", new(stateOptions))},
	}
}

func runState(args []string, stdout, stderr io.Writer) int {
	cmd := cmdNamed("state")
	if len(args) == 0 {
		return usageError(stderr, cmd, "state needs a subcommand: list or prune")
	}
	if asksHelp(args[:1]) || args[0] == "help" {
		fmt.Fprint(stdout, helpPage(cmd))
		return exitOK
	}
	o := stateOptions{engine: engines.FromEnv(os.Getenv)}
	fs := stateFlagSet(args[0], &o)
	if fs == nil {
		return usageError(stderr, cmd, "unknown state command %q%s", args[0], suggestion(args[0], []string{"list", "prune"}, ""))
	}
	pos, code, done := parseFlags(cmd, fs, args[1:], false, stdout, stderr)
	if done {
		return code
	}
	if len(pos) > 0 {
		return usageError(stderr, cmd, "state %s: unexpected argument %q", args[0], pos[0])
	}
	if o.format != "text" && o.format != "json" {
		return usageError(stderr, cmd, "state %s: --format must be text or json", args[0])
	}
	format, olderThan, dryRun := &o.format, o.olderThan, o.dryRun
	dir, err := state.DefaultDir(os.Getenv)
	if err != nil {
		textf(stderr, "lobster: %v\n", err)
		return exitFindings
	}
	ctx, _, stop, _ := signalContext()
	defer stop()
	e, err := openEngine(ctx, o.engine)
	if err != nil {
		textf(stderr, "lobster: %v\n", err)
		return exitFindings
	}
	defer e.Close()
	j := e.Janitor(dir)
	now := time.Now()
	if args[0] == "list" {
		runs, err := j.Paused(ctx, now)
		if err != nil {
			textf(stderr, "lobster: %v\n", err)
			return exitFindings
		}
		if *format == "json" {
			return writeJSON(stdout, stderr, nonNilSlice(runs))
		}
		printPaused(stdout, runs, now)
		return exitOK
	}
	removed, err := j.Prune(ctx, state.PruneOptions{OlderThan: olderThan, DryRun: dryRun, Now: now})
	if *format == "json" {
		if code := writeJSON(stdout, stderr, map[string]any{"dryRun": dryRun, "removed": nonNilSlice(removed)}); code != exitOK {
			return code
		}
	} else {
		verb := "removed"
		if dryRun {
			verb = "would remove"
		}
		for _, r := range removed {
			textf(stdout, "%s %s: %s (%s)\n", verb, r.What, r.File, r.Reason)
		}
	}
	if err != nil {
		textf(stderr, "lobster: %v\n", err)
		return exitFindings
	}
	return exitOK
}

// parseAge reads --older-than: a Go duration or a number of days.
func parseAge(s string) (time.Duration, error) {
	var d time.Duration
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(days, 64)
		if err != nil || n <= 0 || n > 1e5 {
			return 0, errors.New("must be a positive duration such as 12h or 7d")
		}
		d = time.Duration(n * float64(24*time.Hour))
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil || d <= 0 {
			return 0, errors.New("must be a positive duration such as 12h or 7d")
		}
	}
	return d, nil
}

// printPaused prints the paused runs as a table.
func printPaused(w io.Writer, runs []state.PausedRun, now time.Time) {
	if len(runs) == 0 {
		fmt.Fprintln(w, "no paused runs")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tWAITING\tAGE\tSTEP\tWORKFLOW")
	for _, r := range runs {
		id := r.ApprovalID
		if id == "" {
			id = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", oneLine(id), oneLine(r.Waiting), age(now.Sub(r.CreatedAt)), oneLine(r.Step), oneLine(r.Workflow))
	}
	tw.Flush()
}

// age is d as the list shows it: 45s, 12m, 5h, 3d.
func age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return strconv.Itoa(int(max(d, 0)/time.Second)) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + "h"
	}
	return strconv.Itoa(int(d/(24*time.Hour))) + "d"
}

// oneLine is s on one line (tabs and line feeds shown as spaces), other
// control characters escaped (source.Printable), and cut at 120
// characters: a state's text must not garble the table or drive the
// terminal.
func oneLine(s string) string {
	s = source.Printable(strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' {
			return ' '
		}
		return r
	}, s))
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	if s == "" {
		return "-"
	}
	return s
}

func writeJSON(stdout, stderr io.Writer, v any) int {
	data, err := json.MarshalIndent(v, "", "  ")
	if err == nil {
		_, err = stdout.Write(append(data, '\n'))
	}
	if err != nil {
		textf(stderr, "lobster: %v\n", err)
		return exitInternal
	}
	return exitOK
}

func nonNilSlice[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
