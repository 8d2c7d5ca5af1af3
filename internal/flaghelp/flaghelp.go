// Package flaghelp writes the flag lists of the help pages of lobster and
// lobster-lsp, so that both programs list their flags the same way.
package flaghelp

import (
	"flag"
	"strings"
)

// Layout of a flag list: the text of a flag starts at column textColumn,
// lines end before column lineWidth.
const (
	textColumn = 24
	lineWidth  = 80
)

// List lists the flags of fs, sorted by name, then -h and --help: each as
// --name PLACEHOLDER, then its usage with its default, wrapped (see
// Placeholder).
func List(fs *flag.FlagSet) string {
	var b strings.Builder
	item := func(name, text string) {
		b.WriteString("  " + name)
		col := 2 + len(name)
		if col+2 > textColumn {
			b.WriteString("\n")
			col = 0
		}
		b.WriteString(strings.Repeat(" ", textColumn-col))
		b.WriteString(wrap(text, textColumn, lineWidth) + "\n")
	}
	fs.VisitAll(func(f *flag.Flag) {
		placeholder, usage := Placeholder(f)
		name := "--" + f.Name
		if placeholder != "" && !IsBool(f) {
			name += " " + placeholder
		}
		if def := f.DefValue; def != "" && def != "false" && def != "0" && def != "0s" {
			usage += " (default " + def + ")"
		}
		item(name, usage)
	})
	item("-h, --help", "print this help")
	return b.String()
}

// Placeholder splits the usage of f into the placeholder of its value and
// its text. A usage that starts with a back-quoted word gives that word,
// without it in the text ("`auto|off|PATH` run shellcheck..."); else, as
// in flag.UnquoteUsage, the first back-quoted word names the value and
// stays in the text ("the workflow `FILE`").
func Placeholder(f *flag.Flag) (name, text string) {
	if rest, ok := strings.CutPrefix(f.Usage, "`"); ok {
		if name, text, ok := strings.Cut(rest, "` "); ok {
			return name, text
		}
	}
	return flag.UnquoteUsage(f)
}

// IsBool says whether f takes no value.
func IsBool(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// wrap fills text into lines that end before column width, every line
// after the first indented to column indent.
func wrap(text string, indent, width int) string {
	var b strings.Builder
	col := indent
	for i, word := range strings.Fields(text) {
		if i > 0 {
			if col+1+len(word) > width {
				b.WriteString("\n" + strings.Repeat(" ", indent))
				col = indent
			} else {
				b.WriteString(" ")
				col++
			}
		}
		b.WriteString(word)
		col += len([]rune(word))
	}
	return b.String()
}
