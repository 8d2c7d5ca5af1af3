package check

import (
	"bytes"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// UnusedArg reports declared args that the file never uses.
var UnusedArg = &Analyzer{
	Name:     "unused-arg",
	Severity: source.Info,
	Summary:  "a declared arg is never used in the file",
	Doc: `The arg appears neither as "${name}" nor as its LOBSTER_ARG_ variable anywhere in the file. The
rule stays silent when the file reads LOBSTER_ARGS_JSON (which holds every arg) or calls a
sub-workflow (a child inherits the LOBSTER_ARG_ variables). A script that a step runs may
still read the variable; then this finding documents that the file itself does not.`,
	Bad:  "args:\n  region: {default: eu-west-1}\nsteps:\n  - id: list\n    run: aws s3 ls",
	Good: "args:\n  region: {default: eu-west-1}\nsteps:\n  - id: list\n    run: aws s3 ls --region \"$LOBSTER_ARG_REGION\"",
	Run:  runUnusedArg,
}

func runUnusedArg(p *Pass) {
	if len(p.Info.Args) == 0 {
		return
	}
	for _, si := range p.Info.Steps {
		if si.Step.Workflow != nil {
			return
		}
	}
	env, allJSON := aeLobsterArgReads(p.File)
	if allJSON {
		return
	}
	used := map[string]bool{}
	for i := range p.Info.Refs {
		if r, ok := p.Info.Refs[i].Ref.(*ast.ArgRef); ok {
			used[r.Name] = true
		}
	}
	// "$name" and "${name:-x}" mean the arg too (shell-default-on-arg
	// reports them).
	for _, vs := range p.Info.Vars {
		used[vs.Var.Name] = true
	}
	for _, fd := range p.Info.Args {
		name := fd.Name()
		if used[name] {
			continue
		}
		n := ArgEnvName(name)
		if n != "" && env[n] {
			continue
		}
		if n == "" {
			p.Reportf(fd.Key.Span, "arg %q is declared but never used: no \"${%s}\" in this file", name, name)
			continue
		}
		p.Reportf(fd.Key.Span, "arg %q is declared but never used: no \"${%s}\" and no LOBSTER_ARG_%s in this file", name, name, n)
	}
}

// aeLobsterArgReads finds the LOBSTER_ARG_N names written anywhere in a file
// outside comments, and whether LOBSTER_ARGS_JSON is.
func aeLobsterArgReads(f *ast.File) (map[string]bool, bool) {
	src := f.Src.Content
	names := map[string]bool{}
	json := false
	comments := f.Comments
	ci := 0
	prefix := []byte("LOBSTER_ARG")
	for i := 0; i < len(src); {
		k := bytes.Index(src[i:], prefix)
		if k < 0 {
			break
		}
		at := i + k
		end := at + len(prefix)
		j := end
		for j < len(src) && parser.IsWordByte(src[j]) {
			j++
		}
		i = j
		for ci < len(comments) && comments[ci].End() <= at {
			ci++
		}
		if ci < len(comments) && comments[ci].Pos() <= at || at > 0 && parser.IsWordByte(src[at-1]) {
			continue
		}
		switch word := src[end:j]; {
		case string(word) == "S_JSON":
			json = true
		case len(word) > 1 && word[0] == '_':
			if !names[string(word[1:])] {
				names[string(word[1:])] = true
			}
		}
	}
	return names, json
}
