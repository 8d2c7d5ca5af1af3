package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// AbsolutePath reports machine-specific absolute paths in cwd, workflow:
// and as the program of a shell command.
var AbsolutePath = &Analyzer{
	Name:     "absolute-path",
	Severity: source.Info,
	Summary:  "an absolute path in cwd, workflow: or as a command's program ties the workflow to one machine",
	Doc: `Workflow files are committed and shared, and a path such as /home/alice/skills/run.sh or
/opt/acme/bin/deploy exists on one machine only. The rule looks at cwd, workflow: and
the program (or the script given to an interpreter) of each command in run/command text. System
locations (/usr, /bin, /etc, /tmp, /dev, /var…) are not reported. Pass the location as an arg
("cwd: ${root}") or rely on PATH; a relative workflow: path resolves against the calling file's
directory.`,
	Bad:  "steps:\n  - id: deploy\n    run: /opt/acme/bin/deploy --prod",
	Good: "args:\n  acme_bin: {default: /opt/acme/bin}\nsteps:\n  - id: deploy\n    run: \"\\\"$LOBSTER_ARG_ACME_BIN/deploy\\\" --prod\"",
	Run:  runAbsolutePath,
}

// aeSystemPrefixes are locations that exist on every machine of a kind.
var aeSystemPrefixes = []string{"/bin/", "/sbin/", "/usr/", "/etc/", "/dev/", "/tmp/", "/var/", "/proc/", "/sys/", "/run/",
	"/lib/", "/lib64/", "/nix/", "/snap/", "/opt/homebrew/", "/System/", "/Library/", "/private/tmp/"}

// aeMachinePath reports whether a path is absolute and machine-specific.
func aeMachinePath(path string) bool {
	if !aeAbsolutePath(path) || path == "/" {
		return false
	}
	if path[0] != '/' {
		return true // a Windows drive or share
	}
	p := path
	if !strings.HasSuffix(p, "/") {
		p += "/"
	}
	for _, pre := range aeSystemPrefixes {
		if strings.HasPrefix(p, pre) {
			return false
		}
	}
	return true
}

// aeInterpreters take a script path as their first operand.
var aeInterpreters = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "python": true, "python3": true,
	"node": true, "deno": true, "bun": true, "ruby": true, "perl": true, "php": true, "pwsh": true, "source": true, ".": true,
}

func runAbsolutePath(p *Pass) {
	if w := p.File.Workflow; w != nil && w.Cwd != nil {
		aeAbsoluteCwd(p, w.Cwd)
	}
	for _, si := range p.Info.Steps {
		s := si.Step
		if s.Cwd != nil {
			aeAbsoluteCwd(p, s.Cwd)
		}
		if t, ok := fieldValue(s.Workflow).(*ast.Template); ok && t.Scalar != nil {
			if path := strings.TrimSpace(t.Scalar.Text); aeMachinePath(path) {
				p.Reportf(ast.SpanOf(t), "absolute path %q ties the workflow to one machine; a relative workflow: path resolves against this file's directory", aeShorten(path, 80))
			}
		}
		for _, f := range []*ast.Field{s.Run, s.Command} {
			sh, ok := fieldValue(f).(*ast.Shell)
			if !ok || sh.Scalar == nil || !aeMayHaveMachinePath(sh.Scalar.Text) {
				continue
			}
			sc := sh.Scalar
			aeProgramWords(sc.Text, func(i, j int) {
				word := strings.Trim(sc.Text[i:j], `"'`)
				if aeMachinePath(word) {
					p.Reportf(sc.Map.Span(i, j), "absolute path %q ties the workflow to one machine; pass its directory as an arg or rely on PATH", aeShorten(word, 80))
				}
			})
		}
	}
}

func aeAbsoluteCwd(p *Pass, f *ast.Field) {
	t, ok := f.Value.(*ast.Template)
	if !ok || t.Scalar == nil {
		return
	}
	path := strings.TrimSpace(t.Scalar.Text)
	if aeMachinePath(path) {
		p.Reportf(ast.SpanOf(t), "absolute cwd %q ties the workflow to one machine; pass the directory as an arg (cwd: ${root})", aeShorten(path, 80))
	}
}

// aeProgramWords calls fn with the decoded range of the program word of each
// simple command of a shell text (and of the script operand of an
// interpreter), skipping comments, heredoc bodies and quoted text. It is a
// lexical approximation.
func aeProgramWords(text string, fn func(i, j int)) {
	var quote byte     // the open quote across lines
	var heredoc string // the pending heredoc delimiter
	inBody := false
	cmdStart := true // the next word starts a command
	interp := false  // the previous word was an interpreter
	for i := 0; i < len(text); {
		if inBody {
			nl := strings.IndexByte(text[i:], '\n')
			end := len(text)
			if nl >= 0 {
				end = i + nl
			}
			if strings.TrimLeft(text[i:end], "\t") == heredoc {
				inBody = false
			}
			i = end + 1
			continue
		}
		c := text[i]
		if quote != 0 {
			if c == '\\' && quote == '"' {
				i += 2
				continue
			}
			if c == quote {
				quote = 0
			}
			i++
			continue
		}
		switch c {
		case ' ', '\t':
			i++
			continue
		case '\n':
			if heredoc != "" {
				inBody = true
			}
			cmdStart, interp = true, false
			i++
			continue
		case ';', '&', '|', '(', ')', '{', '}':
			cmdStart, interp = true, false
			i++
			continue
		case '#':
			nl := strings.IndexByte(text[i:], '\n')
			if nl < 0 {
				return
			}
			i += nl
			continue
		}
		// A word.
		j := i
		for j < len(text) {
			b := text[j]
			if b == ' ' || b == '\t' || b == '\n' || b == ';' || b == '&' || b == '|' || b == '(' || b == ')' || b == '<' || b == '>' {
				break
			}
			if b == '\\' {
				j += 2
				continue
			}
			if b == '\'' || b == '"' {
				end := strings.IndexByte(text[j+1:], b)
				if end < 0 {
					quote = b
					j = len(text)
					break
				}
				j += end + 2
				continue
			}
			j++
		}
		j = min(j, len(text))
		word := text[i:j]
		switch {
		case c == '<' || c == '>':
			if strings.HasPrefix(text[i:], "<<") {
				k := i + 2
				if k < len(text) && text[k] == '-' {
					k++
				}
				for k < len(text) && (text[k] == ' ' || text[k] == '\t') {
					k++
				}
				e := k
				for e < len(text) && !strings.ContainsRune(" \t\n;&|<>)", rune(text[e])) {
					e++
				}
				heredoc = strings.Trim(text[k:e], `"'\`)
				j = e
			} else {
				j = i + 1
			}
		case cmdStart:
			if strings.Contains(word, "=") && !strings.HasPrefix(word, "=") && !strings.ContainsAny(word[:strings.IndexByte(word, '=')], `/"'$`) {
				break // an assignment before the command
			}
			switch word {
			case "sudo", "exec", "nohup", "time", "command", "env", "then", "do", "else", "if", "while", "until", "!", "xargs", "nice":
			default:
				cmdStart = false
				fn(i, j)
				interp = aeInterpreters[word] || aeInterpreters[word[strings.LastIndexByte(word, '/')+1:]]
			}
		case interp:
			if !strings.HasPrefix(word, "-") {
				interp = false
				fn(i, j)
			}
		}
		i = max(j, i+1)
	}
}

// aeMayHaveMachinePath is a quick test before aeProgramWords: whether a word
// of the text starts with a machine-specific absolute path.
func aeMayHaveMachinePath(text string) bool {
	for i := 0; i < len(text); {
		d := strings.IndexByte(text[i:], '/')
		if d < 0 {
			return false
		}
		i += d
		if i == 0 || strings.IndexByte(" \t\n\"'(;&|`", text[i-1]) >= 0 {
			j := i
			for j < len(text) && strings.IndexByte(" \t\n\"';&|)<>", text[j]) < 0 {
				j++
			}
			if aeMachinePath(text[i:j]) {
				return true
			}
			i = j
			continue
		}
		i++
	}
	return false
}
