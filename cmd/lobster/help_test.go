package main

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/internal/flaghelp"
)

// TestHelpListsEveryCommand: lobster help lists every command, under a
// group it has.
func TestHelpListsEveryCommand(t *testing.T) {
	text := usageText()
	known := map[string]bool{}
	for _, g := range groups {
		known[g.name] = true
		if !strings.Contains(text, "\n"+g.title+":\n") {
			t.Errorf("lobster help has no heading %q", g.title)
		}
	}
	for _, c := range cliCommands {
		if !known[c.group] {
			t.Errorf("command %s: unknown group %q", c.name, c.group)
		}
		if !regexp.MustCompile(`(?m)^\t` + c.name + ` +` + regexp.QuoteMeta(c.summary) + `$`).MatchString(text) {
			t.Errorf("lobster help does not list %s:\n%s", c.name, text)
		}
	}
}

// TestHelpListsEveryFlag: the help of every command lists each flag of its
// flag sets, with a placeholder for a value, and the documentation
// mentions each.
func TestHelpListsEveryFlag(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cliCommands {
		page := helpPage(c)
		if c.flags == nil {
			continue
		}
		for _, s := range c.flags() {
			s.set.VisitAll(func(f *flag.Flag) {
				name, _ := flaghelp.Placeholder(f)
				item := "--" + f.Name
				if !flaghelp.IsBool(f) {
					if name == "" || name == "string" || name == "value" {
						t.Errorf("lobster %s --%s: no placeholder for its value (%q)", c.name, f.Name, f.Usage)
					}
					item += " " + name
				}
				if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(item) + `( |$)`).MatchString(page) {
					t.Errorf("lobster help %s does not list %s:\n%s", c.name, item, page)
				}
				if !strings.Contains(string(readme), "--"+f.Name) {
					t.Errorf("README.md does not mention lobster %s --%s", c.name, f.Name)
				}
			})
		}
	}
}

// TestRunFlagsAreParsed: every flag run's help lists is one parseRunArgs
// reads, and resume's one parseResumeArgs reads.
func TestRunFlagsAreParsed(t *testing.T) {
	runFlagSet(new(runFlags)).VisitAll(func(f *flag.Flag) {
		args := []string{"--" + f.Name}
		if !flaghelp.IsBool(f) {
			value := "auto" // a valid --progress, and a value for the rest
			if f.Name == "engine" {
				value = "local"
			}
			args = append(args, value)
		}
		r, err := parseRunArgs(append(args, "w.lobster"))
		if err != nil || len(r.rest) != 1 {
			t.Errorf("run --%s: %v, rest %q", f.Name, err, r.rest)
		}
	})
	resumeFlagSet().VisitAll(func(f *flag.Flag) {
		r, _ := parseResumeArgs([]string{"--" + f.Name, "yes", "--token", "x"})
		if r.unknown != "" {
			t.Errorf("resume --%s is not read", f.Name)
		}
	})
	if r, _ := parseResumeArgs([]string{"--aprove", "yes"}); r.unknown != "--aprove" {
		t.Errorf("resume --aprove: unknown %q", r.unknown)
	}
}

// TestFlagProblem: the flag package's errors in lobster's words.
func TestFlagProblem(t *testing.T) {
	cmd := cmdNamed("state")
	for args, want := range map[string]string{
		"--dryrun":           "state has no flag --dryrun; did you mean --dry-run?",
		"-dry-run=maybe":     `invalid --dry-run "maybe": parse error`,
		"--older-than":       "--older-than needs a value",
		"--older-than=x":     `invalid --older-than "x": must be a positive duration such as 12h or 7d`,
		"--format=json --zz": "state has no flag --zz",
	} {
		fs := stateFlagSet("prune", new(stateOptions))
		fs.SetOutput(new(strings.Builder))
		err := fs.Parse(strings.Fields(args))
		if err == nil {
			t.Fatalf("%s: no error", args)
		}
		if got := flagProblem(cmd, err); got != want {
			t.Errorf("%s: %q, want %q", args, got, want)
		}
	}
}
