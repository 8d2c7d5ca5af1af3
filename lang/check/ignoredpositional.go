package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/source"
)

// IgnoredPositional reports positional arguments a command never reads.
var IgnoredPositional = &Analyzer{
	Name:     "ignored-positional",
	Severity: source.Warning,
	Summary:  "a pipeline stage passes positional arguments its command ignores",
	Doc: `Commands read only their own flags and positional arguments; the others are silently ignored: "head 5"
takes 10 items (it reads --n), sort, dedupe and groupBy read only --key, json and table read
nothing, pick, where, state.get and state.set read only their first positional, and diff.last,
workflows.run, template, openclaw.agent and llm.invoke ignore their positional text when the
matching flag (--key, --name, --text, --prompt) is given. This is a warning, as the runtime
ignores the words. Extra words after a where expression are reported by
where-expression-invalid when the first word is not a valid expression.`,
	Bad:  "- id: top\n  pipeline: exec --json cat items.json | head 5",
	Good: "- id: top\n  pipeline: exec --json cat items.json | head --n 5",
	Fix:  "rewrite head N as head --n N, and sort/dedupe/groupBy K as --key K",
	Run:  runIgnoredPositional,
}

func runIgnoredPositional(p *Pass) {
	plEachStage(p.Info, func(st *plStage) {
		if st.Cmd == nil || st.HasRef || len(st.Pos) == 0 || st.Name == "exec" {
			return // exec: exec-shell-ignored-args
		}
		used := st.UsedPositionals()
		if used < 0 || used >= len(st.Pos) {
			return
		}
		if st.Name == "where" {
			if _, ok := plParseWhere(st.Pos[0].Text); !ok {
				return // where-expression-invalid
			}
		}
		ignored := st.Pos[used:]
		sp := source.Span{Start: ignored[0].Pos(), End: ignored[len(ignored)-1].End()}
		list := plWordList(ignored)
		var d source.Diagnostic
		switch {
		case used == 0 && st.Cmd.ReadsPositionals():
			d = p.Finding(sp, "%q ignores %s because %s is given", st.Name, plQuotedList(ignored), plGivenUnless(st))
		case used == 0:
			d = plNoPositionals(p, st, sp, list)
		default:
			d = p.Finding(sp, "%q reads only its first positional argument (%q); %s", st.Name, st.Pos[0].Text, list)
			if st.Name == "pick" && strings.HasSuffix(st.Pos[0].Text, ",") {
				var all []string
				for _, w := range st.Pos {
					all = append(all, w.Text)
				}
				d.Message += fmt.Sprintf("; write the fields as one word: pick %s", strings.Join(all, ""))
			} else {
				d.Message += "; quote the argument if it holds spaces"
			}
		}
		p.Report(d)
	})
}

// plNoPositionals builds the finding for a command that reads no
// positional, with a fix for head N and sort/dedupe/groupBy K.
func plNoPositionals(p *Pass, st *plStage, sp source.Span, list string) source.Diagnostic {
	one := len(st.Pos) == 1
	w := st.Pos[0]
	switch {
	case st.Name == "head" && one && st.FlagNamed("n") == nil:
		if _, ok := js.Number(w.Text); ok && w.Text != "" {
			d := p.Finding(sp, "\"head\" ignores positional %q and takes 10 items; use head --n %s", w.Text, w.Text)
			d.Fixes = []source.Fix{{Message: "Write --n " + w.Text, Edits: []source.Edit{p.Edit(source.Span{Start: w.Pos(), End: w.Pos()}, "--n ")}}}
			return d
		}
	case (st.Name == "sort" || st.Name == "dedupe" || st.Name == "groupBy") && one && st.FlagNamed("key") == nil:
		d := p.Finding(sp, "%q ignores positional %q; it reads the key from --key: use %s --key %s", st.Name, w.Text, st.Name, w.Text)
		d.Fixes = []source.Fix{{Message: "Write --key " + w.Text, Edits: []source.Edit{p.Edit(source.Span{Start: w.Pos(), End: w.Pos()}, "--key ")}}}
		return d
	}
	if len(st.Cmd.Flags) == 0 {
		return p.Finding(sp, "%q takes no arguments; %s", st.Name, list)
	}
	return p.Finding(sp, "%q takes no positional arguments (it reads %s); %s", st.Name, plFlagList(st.Cmd), list)
}

// plGivenUnless names the flag that makes the command ignore its
// positionals.
func plGivenUnless(st *plStage) string {
	for _, u := range st.Cmd.Positionals[0].Unless {
		if f := st.FlagNamed(u); f != nil && f.Given() {
			return "--" + f.Flag.Name
		}
	}
	return "a flag"
}
