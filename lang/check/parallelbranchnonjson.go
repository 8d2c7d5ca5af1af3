package check

import (
	"encoding/json"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ParallelBranchNonJSON reports wait: all branches that print no JSON, when
// the parallel step's merged output is used.
var ParallelBranchNonJSON = &Analyzer{
	Name:     "parallel-branch-non-json",
	Severity: source.Info,
	Summary:  "a parallel branch prints no JSON, so it is missing from the parallel step's json",
	Doc: `With ` + "`wait: all`" + ` the parallel step's json is {branchId: branchJson, …}, and a branch whose output
is not JSON contributes undefined, which disappears from the merged output.
The rule reports only what it can tell for sure: a branch whose shell text prints literal text
with echo or printf (or nothing, such as "sleep 1"), when the parallel step's result is read
later or is the workflow's output. The branch's own "$b.stdout" still holds the text.`,
	Bad:  "- id: p\n  parallel:\n    branches:\n      - {id: a, run: \"echo '{\\\"ok\\\": true}'\"}\n      - {id: b, run: echo done}\n- id: use\n  run: echo \"$p.json\"",
	Good: "- id: p\n  parallel:\n    branches:\n      - {id: a, run: \"echo '{\\\"ok\\\": true}'\"}\n      - {id: b, run: \"echo '{\\\"status\\\": \\\"done\\\"}'\"}\n- id: use\n  run: echo \"$p.json\"",
	Run:  runParallelBranchNonJSON,
}

func runParallelBranchNonJSON(p *Pass) {
	var blocks []*StepInfo
	for _, si := range p.Info.Top {
		if si.Step.Parallel != nil && !polWaitsAny(si.Step) && si.ID != "" {
			blocks = append(blocks, si)
		}
	}
	if len(blocks) == 0 {
		return
	}
	// A block's merged output matters when it is read later or is the last
	// step (the workflow's output).
	used := map[string]bool{}
	if last := p.Info.Top[len(p.Info.Top)-1]; last.Step.Parallel != nil {
		used[last.ID] = true
	}
	for i := range p.Info.Refs {
		if r, ok := p.Info.Refs[i].Ref.(*ast.StepRef); ok {
			used[r.ID] = true
		}
	}
	for _, blk := range blocks {
		if !used[blk.ID] {
			continue
		}
		for _, b := range blk.Children {
			sh := polShell(b.Step)
			if sh == nil || sh.Err != nil || len(sh.Refs) > 0 || len(sh.Vars) > 0 {
				continue
			}
			out, ok := polLiteralShellOutput(sh.Scalar.Text)
			if !ok {
				continue
			}
			out = strings.TrimSpace(out)
			if out != "" && json.Valid([]byte(out)) {
				continue
			}
			at := ast.SpanOf(sh.Scalar)
			if b.Step.ID != nil {
				at = ast.SpanOf(b.Step.ID.Value)
			}
			if out == "" {
				p.Reportf(at, "branch %q prints nothing, so it is missing from \"$%s.json\"", b.ID, blk.ID)
				continue
			}
			p.Reportf(at, "branch %q prints %q, which is not JSON, so it is missing from \"$%s.json\"; read \"$%s.stdout\" instead, or print JSON", b.ID, polShorten(out, 40), blk.ID, b.ID)
		}
	}
}

// polLiteralShellOutput is what a shell text prints when it is a list of echo
// and printf commands with literal words and of commands that print nothing
// (sleep, true, :), joined by ";", "&&" or newlines. ok is false when the
// text does anything else: expansions, globs, pipes, redirections, other
// commands, escapes.
func polLiteralShellOutput(text string) (out string, ok bool) {
	var b strings.Builder
	var words []string
	var word strings.Builder
	inWord := false
	endWord := func() {
		if inWord {
			words = append(words, word.String())
			word.Reset()
			inWord = false
		}
	}
	endCommand := func() bool {
		endWord()
		defer func() { words = words[:0] }()
		if len(words) == 0 {
			return true
		}
		args := words[1:]
		switch words[0] {
		case "sleep", "true", ":":
			return true
		case "echo":
			nl := "\n"
			if len(args) > 0 && args[0] == "-n" {
				nl, args = "", args[1:]
			}
			for _, a := range args {
				if strings.ContainsRune(a, '\\') || strings.HasPrefix(a, "-") {
					return false
				}
			}
			b.WriteString(strings.Join(args, " ") + nl)
			return true
		case "printf":
			if len(args) != 1 || strings.ContainsAny(args[0], `%\`) {
				return false
			}
			b.WriteString(args[0])
			return true
		}
		return false
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch c {
		case ' ', '\t':
			endWord()
		case '\n', ';':
			if !endCommand() {
				return "", false
			}
		case '&':
			if i+1 < len(text) && text[i+1] == '&' {
				i++
				if !endCommand() {
					return "", false
				}
				continue
			}
			return "", false
		case '#':
			if inWord {
				word.WriteByte(c)
				continue
			}
			for i < len(text) && text[i] != '\n' {
				i++
			}
			i--
		case '\'':
			j := strings.IndexByte(text[i+1:], '\'')
			if j < 0 {
				return "", false
			}
			word.WriteString(text[i+1 : i+1+j])
			inWord = true
			i += j + 1
		case '"':
			j := strings.IndexByte(text[i+1:], '"')
			if j < 0 {
				return "", false
			}
			s := text[i+1 : i+1+j]
			if strings.ContainsAny(s, "$`\\") {
				return "", false
			}
			word.WriteString(s)
			inWord = true
			i += j + 1
		case '|', '>', '<', '(', ')', '`', '$', '\\', '*', '?', '[', '~', '=':
			return "", false
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	if !endCommand() {
		return "", false
	}
	return b.String(), true
}
