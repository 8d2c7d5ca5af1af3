package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/source"
)

// UnknownCommandFlag reports flags a command never reads.
var UnknownCommandFlag = &Analyzer{
	Name:     "unknown-command-flag",
	Severity: source.Warning,
	Summary:  "a pipeline stage passes a flag its command does not read",
	Doc: `Flags are parsed generically and each command reads only its own: an
unknown flag is silently ignored, together with the word after it, which it takes as its value.
"head --count 5" takes 10 items. "--" alone is not an end of options: it is a flag with an empty
name that swallows the next word; "--_" replaces the positional list and crashes the command.
Flags after exec's program are reported by dashdash-positional instead. This is a warning, as the
runtime ignores the flag; "--_" is an error.`,
	Bad:  "- id: top\n  pipeline: exec --json cat items.json | head --count 5",
	Good: "- id: top\n  pipeline: exec --json cat items.json | head --n 5",
	Fix:  "replace the flag with the suggested one when there is exactly one candidate",
	Run:  runUnknownCommandFlag,
}

func runUnknownCommandFlag(p *Pass) {
	plEachStage(p.Info, func(st *plStage) {
		if st.Cmd == nil {
			return
		}
		for i := range st.Flags {
			f := &st.Flags[i]
			if f.Def != nil || f.NameRef || plExecFlagAfterProgram(st, f) {
				continue
			}
			fl := f.Flag
			sp := ast.SpanOf(fl)
			valueNote := ""
			if fl.Value != nil && !fl.Eq {
				valueNote = fmt.Sprintf(" and so is the word %q after it, which it takes as its value", fl.Value.Text)
				sp = source.Span{Start: sp.Start, End: fl.NameSpan.End}
			}
			switch fl.Name {
			case "":
				p.Reportf(sp, "\"--\" is not an end of options: it is a flag with an empty name, which %q ignores%s", st.Name, valueNote)
				continue
			case "_":
				d := p.Finding(sp, "\"--_\" replaces the positional argument list: %q crashes (\"args._.push is not a function\") or reads the wrong arguments", st.Name)
				d.Severity = source.Error
				p.Report(d)
				continue
			}
			d := p.Finding(sp, "%q has no flag \"--%s\"%s; the flag is ignored%s", st.Name, fl.Name, plReadsNote(st.Cmd), valueNote)
			if near := plSuggestFlag(st.Cmd, fl.Name); near != "" {
				d.Message += fmt.Sprintf("; did you mean \"--%s\"?", near)
				if p.Text(fl.NameSpan) == fl.Name {
					d.Fixes = []source.Fix{{Message: fmt.Sprintf("Change --%s to --%s", fl.Name, near), Edits: []source.Edit{p.Edit(fl.NameSpan, near)}}}
				}
			}
			p.Report(d)
		}
	})
}

// plReadsNote says which flags a command reads, when there are few.
func plReadsNote(c *commands.Command) string {
	switch {
	case len(c.Flags) == 0:
		return " (it reads no flags)"
	case len(c.Flags) <= 4:
		return " (it reads " + plFlagList(c) + ")"
	}
	return ""
}

// plSuggestFlag proposes a flag of c for an unknown name: one that differs
// only in case or separators (--argsJson, --item_key), else the closest by
// edit distance.
func plSuggestFlag(c *commands.Command, name string) string {
	key := plLooseKey(name)
	for _, f := range c.Flags {
		if plLooseKey(f.Name) == key {
			return f.Name
		}
	}
	if near := Suggest(name, c.FlagNames()); near != "" {
		return c.Flag(near).Name
	}
	return ""
}

// plExecFlagAfterProgram reports whether f is a flag of an exec stage in
// direct mode written after the program: dashdash-positional reports it.
func plExecFlagAfterProgram(st *plStage, f *plFlag) bool {
	if st.Name != "exec" || len(st.Pos) == 0 {
		return false
	}
	if sh := st.FlagNamed("shell"); sh != nil {
		return false
	}
	return f.Flag.Pos() > st.Pos[0].Pos()
}
