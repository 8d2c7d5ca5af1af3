package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// FoldedScalarShell reports run/command text written as a folded block
// scalar whose folding joins lines that are separate shell lines.
var FoldedScalarShell = &Analyzer{
	Name:     "folded-scalar-shell",
	Severity: source.Warning,
	Summary:  "a \">\" block scalar folds separate shell lines into one",
	Doc: `In a folded block scalar (">", ">-", ">+") YAML joins lines of the same indentation with a
space; only more-indented and empty lines keep their line breaks. A script written that way runs
as one line: a "# comment" swallows everything after it, "then" or "done" become arguments of the
line before, a here-document loses its body, a trailing "\" escapes a space instead of continuing
the line, and two commands become one command with the second as arguments. Use a literal block
scalar ("|") for multi-line scripts. Folding that joins the parts of one command (lines ending in
"|" or "&&", lines starting with an option) is not reported.`,
	Bad:  "- id: setup\n  run: >\n    mkdir -p out\n    cp report.json out/",
	Good: "- id: setup\n  run: |\n    mkdir -p out\n    cp report.json out/",
	Fix:  "change \">\" to \"|\" (unsafe: it changes the command if the folding was meant)",
	Run:  runFoldedScalarShell,
}

// plShellKeywordsAfter are reserved words that cannot follow a command's
// arguments on the same line.
var plShellKeywordsAfter = map[string]bool{
	"then": true, "do": true, "done": true, "fi": true, "else": true, "elif": true, "esac": true, "}": true, ";;": true,
}

// plCommonCommands are programs and builtins that almost always start a
// command line.
var plCommonCommands = map[string]bool{
	"echo": true, "printf": true, "cd": true, "mkdir": true, "rm": true, "cp": true, "mv": true, "cat": true,
	"export": true, "set": true, "if": true, "for": true, "while": true, "until": true, "case": true, "test": true,
	"sleep": true, "touch": true, "ls": true, "grep": true, "sed": true, "awk": true, "jq": true, "curl": true,
	"git": true, "gh": true, "python": true, "python3": true, "node": true, "npm": true, "npx": true, "exit": true,
	"source": true, "true": true, "false": true, "openclaw.invoke": true, "clawd.invoke": true, "lobster": true,
	"chmod": true, "tee": true, "read": true, "local": true, "unset": true, "trap": true, "wait": true,
	"docker": true, "make": true, "go": true, "pip": true, "uv": true, "bun": true, "deno": true, "wget": true,
}

func runFoldedScalarShell(p *Pass) {
	plShellFields(p.Info, func(si *StepInfo, f *ast.Field, sh *ast.Shell) {
		s := sh.Scalar
		if s.Style != ast.FoldedBlock {
			return
		}
		why, at, k := plHarmfulFoldIn(p.File, s)
		if why == "" {
			return
		}
		// The finding starts at the key: a comment after a block header is
		// not kept by the parser, so it could not suppress a finding that
		// starts there.
		header := source.Span{Start: s.Pos(), End: s.Pos() + 1}
		d := p.Finding(source.Span{Start: f.Key.Pos(), End: header.End}, "\">\" folds these lines into one, so %s; use \"|\" for multi-line scripts", why)
		d.Related = []source.Related{p.Related(s.Map.Span(at, k), "this line is joined with the next one")}
		d.Fixes = []source.Fix{{Message: "Use a literal block scalar (unsafe: it changes the command if the folding was meant)", Edits: []source.Edit{p.Edit(header, "|")}, Unsafe: true}}
		p.Report(d)
	})
}

// plHarmfulFoldIn finds the first line break that folding turned into a
// space where the script needed it: why (for the message) and the decoded
// range [at, k) of the line joined with the next one; why is "" when every
// fold is harmless.
func plHarmfulFoldIn(file *ast.File, s *ast.Scalar) (why string, at, k int) {
	folds := plFoldPoints(file, s)
	if len(folds) == 0 {
		return "", 0, 0
	}
	text := s.Text
	var quote byte
	comment := -1  // start of a comment on the current line
	lineStart := 0 // start of the current source line, in decoded offsets
	cmdStart := 0  // start of the current decoded line
	heredoc := false
	next := 0 // index in folds
	for i := 0; i <= len(text) && next < len(folds); i++ {
		if i == folds[next] {
			k := i
			next++
			if quote == 0 {
				if why, at := plHarmfulFold(text, k, lineStart, cmdStart, comment, heredoc); why != "" {
					return why, at, k
				}
			}
			lineStart, heredoc = k+1, false
			continue
		}
		if i == len(text) {
			break
		}
		c := text[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case quote == '"':
			if c == '\\' && folds[next] != i+1 {
				i++
			} else if c == '"' {
				quote = 0
			}
		case comment >= 0:
			if c == '\n' {
				comment, lineStart, cmdStart, heredoc = -1, i+1, i+1, false
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '\\':
			if folds[next] != i+1 {
				i++
			}
		case c == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t' || text[i-1] == '\n'):
			comment = i
		case c == '<' && i+1 < len(text) && text[i+1] == '<':
			heredoc = true
			i++
		case c == '\n':
			lineStart, cmdStart, heredoc = i+1, i+1, false
		}
	}
	return "", 0, 0
}

// plFoldPoints lists the decoded offsets of the spaces that folding made
// of line breaks.
func plFoldPoints(file *ast.File, s *ast.Scalar) []int {
	var folds []int
	src := file.Src.Content
	for _, sg := range s.Map.Segments() {
		if sg.Verbatim || sg.DecLen != 1 || sg.Dec >= len(s.Text) || s.Text[sg.Dec] != ' ' {
			continue
		}
		if sg.Src+sg.SrcLen <= len(src) && strings.IndexByte(string(src[sg.Src:sg.Src+sg.SrcLen]), '\n') >= 0 {
			folds = append(folds, sg.Dec)
		}
	}
	return folds
}

// plHarmfulFold says why the fold at decoded offset k breaks the script,
// or "". lineStart is where the source line before the fold starts,
// cmdStart where the decoded line starts; comment is the start of an open
// comment or -1. at is where the line before the fold starts.
func plHarmfulFold(text string, k, lineStart, cmdStart, comment int, heredoc bool) (why string, at int) {
	prev := strings.TrimRight(text[lineStart:k], " \t")
	rest := text[k+1:]
	if j := strings.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	nextLine := strings.TrimLeft(rest, " \t")
	nextFirst := nextLine
	if j := strings.IndexAny(nextFirst, " \t;"); j >= 0 {
		nextFirst = nextFirst[:j]
	}
	switch {
	case comment >= 0:
		return fmt.Sprintf("the comment %q swallows the rest of the script", plShort(text[comment:k])), lineStart
	case heredoc:
		return fmt.Sprintf("the here-document started in %q loses its lines", plShort(prev)), lineStart
	case strings.HasSuffix(prev, "\\"):
		return fmt.Sprintf("the backslash that ends %q escapes a space instead of continuing the line", plShort(prev)), lineStart
	}
	for _, end := range [...]string{"|", "&&", "||", ";", "&", "(", "{"} {
		if strings.HasSuffix(prev, end) {
			return "", 0
		}
	}
	lastWord := prev
	if j := strings.LastIndexAny(lastWord, " \t"); j >= 0 {
		lastWord = lastWord[j+1:]
	}
	switch lastWord {
	case "then", "do", "else", "in":
		return "", 0
	}
	if plShellKeywordsAfter[nextFirst] {
		return fmt.Sprintf("%q becomes an argument of the line before it", nextFirst), lineStart
	}
	if nextLine == "" || strings.IndexByte("-|&><;)'\"$([", nextLine[0]) >= 0 {
		return "", 0
	}
	prevFirst := strings.TrimLeft(text[cmdStart:k], " \t")
	if j := strings.IndexAny(prevFirst, " \t"); j >= 0 {
		prevFirst = prevFirst[:j]
	}
	if plCommonCommands[nextFirst] || lineStart == cmdStart && nextFirst == prevFirst && nextFirst != "" {
		return fmt.Sprintf("%q is joined to the line before it (%q) instead of running as its own command", plShort(nextLine), plShort(strings.TrimLeft(text[cmdStart:k], " \t"))), lineStart
	}
	return "", 0
}

// plShort shortens text for a message.
func plShort(s string) string {
	if len(s) > 40 {
		return s[:39] + "…"
	}
	return s
}
