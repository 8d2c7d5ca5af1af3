package check

import (
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/commands"
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
