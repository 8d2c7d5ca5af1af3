package check

import (
	"fmt"
	"strings"
	"sync"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/parser"
	"mvdan.cc/sh/v3/syntax"
)

// This file holds what the rules on shell text share: finding
// the command words of run/command text. The parser keeps only the shell
// variables of the text; rules that need its commands parse it again, only
// when a cheap scan shows they may find something.

// plShellParsers holds parsers in bash mode, which accepts every POSIX
// script and the bash extensions users write anyway.
var plShellParsers = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangBash))
}}

// plParseShell parses shell text, or returns nil when it does not parse.
func plParseShell(text string) *syntax.File {
	p := plShellParsers.Get().(*syntax.Parser)
	defer plShellParsers.Put(p)
	f, err := p.Parse(strings.NewReader(text), "")
	if err != nil {
		return nil
	}
	return f
}

// plShellOf returns the shell text of a run/command field, or nil.
func plShellOf(f *ast.Field) *ast.Shell {
	if f == nil {
		return nil
	}
	sh, _ := f.Value.(*ast.Shell)
	if sh == nil || sh.Scalar == nil {
		return nil
	}
	return sh
}

// plShellFields calls fn for the run and command fields of every step.
func plShellFields(in *Info, fn func(si *StepInfo, f *ast.Field, sh *ast.Shell)) {
	for _, si := range in.Steps {
		for _, f := range [...]*ast.Field{si.Step.Run, si.Step.Command} {
			if sh := plShellOf(f); sh != nil {
				fn(si, f, sh)
			}
		}
	}
}

// plIsNameByte reports whether c can be part of a command name as the
// registry spells them.
func plIsNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

// plMentionsCommand reports whether the text holds, as a word, the name of a
// pipeline command that shell text cannot run (see plShellCommand). It is
// the cheap test done before parsing.
func plMentionsCommand(text string) bool {
	byFirst := plNamesByFirst()
	for i := 0; i < len(text); {
		c := text[i]
		if !plNameBytes[c] {
			i++
			continue
		}
		j := i + 1
		for j < len(text) && plNameBytes[text[j]] {
			j++
		}
		if byFirst[c] != nil {
			if cmd := plCommandWord(text[i:j]); cmd != nil && (!cmd.Program || plMentionsFlag(text, cmd)) {
				return true
			}
		}
		i = j
	}
	return false
}

// plNameBytes is plIsNameByte as a table.
var plNameBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = plIsNameByte(byte(c))
	}
	return t
}()

// plNamesByFirst indexes the registered command names by their first byte,
// so that most words of a script are rejected without hashing. It is built
// on first use: building it builds the command registry, which a program
// that never checks shell text (lobster version) should not pay for.
var plNamesByFirst = sync.OnceValue(func() *[256][]string {
	var idx [256][]string
	for _, n := range commands.Names() {
		idx[n[0]] = append(idx[n[0]], n)
	}
	return &idx
})

// plCommandWord returns the command a word names, or nil.
func plCommandWord(w string) *commands.Command {
	for _, n := range plNamesByFirst()[w[0]] {
		if len(n) == len(w) && n == w {
			c, _ := commands.Lookup(n)
			return c
		}
	}
	return nil
}

// plMentionsFlag reports whether the text holds --<flag> for a flag of c.
func plMentionsFlag(text string, c *commands.Command) bool {
	for i := strings.Index(text, "--"); i >= 0; {
		j := i + 2
		for j < len(text) && plIsNameByte(text[j]) {
			j++
		}
		if c.Flag(text[i+2:j]) != nil {
			return true
		}
		k := strings.Index(text[j:], "--")
		if k < 0 {
			break
		}
		i = j + k
	}
	return false
}

// plShellCall is a simple command of shell text whose first word names a
// pipeline command.
type plShellCall struct {
	Name       string
	Cmd        *commands.Command
	Start, End int // the name, in decoded offsets
	Call       *syntax.CallExpr
	// LobsterFlag is the first argument that is a flag of Cmd ("--n"), or "".
	LobsterFlag string
}

// plShellCommands finds the simple commands of a shell text whose first
// word is a pipeline command name, in order. Functions defined in the text
// are skipped. ok is false when the text does not parse.
func plShellCommands(text string) (calls []plShellCall, file *syntax.File, ok bool) {
	file = plParseShell(text)
	if file == nil {
		return nil, nil, false
	}
	var funcs map[string]bool
	syntax.Walk(file, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if n.Name != nil {
				if funcs == nil {
					funcs = map[string]bool{}
				}
				funcs[n.Name.Value] = true
			}
		case *syntax.CallExpr:
			if len(n.Args) == 0 {
				return true
			}
			name := n.Args[0].Lit()
			c, found := commands.Lookup(name)
			if !found {
				return true
			}
			call := plShellCall{Name: name, Cmd: c, Start: int(n.Args[0].Pos().Offset()), End: int(n.Args[0].End().Offset()), Call: n}
			for _, a := range n.Args[1:] {
				lit := a.Lit()
				if !strings.HasPrefix(lit, "--") {
					continue
				}
				flag, _, _ := strings.Cut(lit[2:], "=")
				if c.Flag(flag) != nil && !plProgramFlag(name, flag) {
					call.LobsterFlag = "--" + flag
					break
				}
			}
			calls = append(calls, call)
		}
		return true
	})
	if funcs != nil {
		kept := calls[:0]
		for _, c := range calls {
			if !funcs[c.Name] {
				kept = append(kept, c)
			}
		}
		calls = kept
	}
	return calls, file, true
}

// plProgramFlag reports whether a flag of a pipeline command that shares its
// name with a program is also an option of that program (GNU sort --key).
func plProgramFlag(name, flag string) bool {
	return name == "sort" && flag == "key"
}

// plBashFeature reads the shell parser's POSIX-mode error for a feature of
// another shell ("arrays are a bash/mksh/zsh feature; tried parsing as
// posix"), and returns the feature sentence.
func plBashFeature(msg string) (string, bool) {
	i := strings.Index(msg, " feature; tried parsing as ")
	if i < 0 || !strings.Contains(msg[:i], "bash") {
		return "", false
	}
	return fmt.Sprintf("%s feature", msg[:i]), true
}

// plLobsterShellSet reports whether an env block sets LOBSTER_SHELL.
func plLobsterShellSet(f *ast.Field) bool {
	if f == nil {
		return false
	}
	m, ok := f.Value.(*ast.TemplateMap)
	if !ok {
		return false
	}
	for _, e := range m.Fields {
		if e.Name() == "LOBSTER_SHELL" {
			return true
		}
	}
	return false
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

// plCallText is the source of a simple command, shortened for a message.
func plCallText(text string, c plShellCall) string {
	line := c.Name
	if c.Call != nil {
		line = text[c.Call.Pos().Offset():c.Call.End().Offset()]
	}
	line = strings.Join(strings.Fields(line), " ")
	if len(line) > 60 {
		line = line[:57] + "…"
	}
	return line
}

// plShellCommandsLex is the fallback of plShellCommands for text that does
// not parse: pipeline command names (not program names) written where a
// command starts, outside quotes.
func plShellCommandsLex(text string) []plShellCall {
	var calls []plShellCall
	var quote byte
	cmdPos := true // at a place where a command word may start
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
			continue
		case quote == '"':
			if c == '\\' {
				i++
			} else if c == '"' {
				quote = 0
			}
			continue
		}
		switch {
		case c == '\'' || c == '"':
			quote, cmdPos = c, false
		case c == '\\':
			i++
			cmdPos = false
		case c == '#' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\t' || text[i-1] == '\n'):
			for i < len(text) && text[i] != '\n' {
				i++
			}
			cmdPos = true
		case c == '\n' || c == ';' || c == '|' || c == '&' || c == '(' || c == '`' || c == '{':
			cmdPos = true
		case c == ' ' || c == '\t':
		case plIsNameByte(c):
			j := i
			for j < len(text) && plIsNameByte(text[j]) {
				j++
			}
			if cmdPos && (j == len(text) || text[j] == ' ' || text[j] == '\t' || text[j] == '\n' || text[j] == ';' || text[j] == '|') {
				if cmd, ok := commands.Lookup(text[i:j]); ok && !cmd.Program {
					calls = append(calls, plShellCall{Name: text[i:j], Cmd: cmd, Start: i, End: j})
				}
			}
			i = j - 1
			cmdPos = false
		default:
			cmdPos = false
		}
	}
	return calls
}

// shSyntaxError reports whether shell-syntax reports the text: it does not
// parse as POSIX shell, runs under /bin/sh, and the error is not one that
// another rule explains.
func shSyntaxError(in *Info, si *StepInfo, sh *ast.Shell) bool {
	if sh == nil || sh.Err == nil || sh.Scalar == nil {
		return false
	}
	if _, ok := plBashFeature(sh.Err.Msg); ok {
		return false // bashism-in-sh
	}
	if w := in.File.Workflow; w == nil || plLobsterShellSet(w.Env) {
		return false
	}
	for s := si; s != nil; s = s.Parent {
		if plLobsterShellSet(s.Step.Env) {
			return false
		}
	}
	if sc := sh.Scalar; sc.Style == ast.Plain || sc.Style == ast.FoldedBlock {
		if why, _, _ := plHarmfulFoldIn(in.File, sc); why != "" {
			return false // folding broke it: plain-scalar-shell, folded-scalar-shell
		}
	}
	return !shHasTemplateSyntax(sh.Scalar.Text)
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

// shHasTemplateSyntax reports whether shell text holds "{{" or "${name.",
// which other rules explain (and which makes the parser stop there).
func shHasTemplateSyntax(text string) bool {
	if strings.Contains(text, "{{") {
		return true
	}
	for i := strings.Index(text, "${"); i >= 0; {
		j := i + 2
		for j < len(text) && (parser.IsWordByte(text[j]) || text[j] == '-') {
			j++
		}
		if j < len(text) && text[j] == '.' {
			return true
		}
		k := strings.Index(text[j:], "${")
		if k < 0 {
			break
		}
		i = j + k
	}
	return false
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

// plShellKeywordsAfter are reserved words that cannot follow a command's
// arguments on the same line.
var plShellKeywordsAfter = map[string]bool{
	"then": true, "do": true, "done": true, "fi": true, "else": true, "elif": true, "esac": true, "}": true, ";;": true,
}

// plShort shortens text for a message.
func plShort(s string) string {
	if len(s) > 40 {
		return s[:39] + "…"
	}
	return s
}
