package check

import (
	"bytes"
	"sort"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file recognises workflow files written in another dialect than the
// reference's: the foreign-dialect rule reports it, and the rules whose
// findings such a file would only repeat stay silent on it.

// dialect is the result of dialect detection.
type dialect struct {
	name     string      // "" for the reference's dialect
	at       source.Span // where to report it
	evidence []string    // what was recognised, for the message
}

// ForeignDialectOf names the foreign dialect a file is written in
// ("workflow-graph", "github-actions", "step-io"), or "" for a
// reference-dialect file. It is a
// few lookups plus one scan of the text for "${{" and "{{inputs.", cheap
// enough for every rule that needs it to call it.
func ForeignDialectOf(in *Info) string { return detectDialect(in).name }

// reportUnlessForeign runs a per-key rule's collector and reports its
// findings unless the file is in a foreign dialect, which foreign-dialect
// reports once instead. The dialect is detected only when there is a finding.
func reportUnlessForeign(p *Pass, collect func(*Pass, func(source.Diagnostic))) {
	var found []source.Diagnostic
	collect(p, func(d source.Diagnostic) { found = append(found, d) })
	if len(found) == 0 || detectDialect(p.Info).name != "" {
		return
	}
	for _, d := range found {
		p.Report(d)
	}
}

func detectDialect(in *Info) dialect {
	f := in.File
	w := f.Workflow
	if w == nil {
		return dialect{}
	}
	var top = struct {
		workflow, version, inputs, output, outputMappings *ast.Field
	}{}
	for _, fd := range w.Unknown {
		switch fd.Name() {
		case "workflow":
			top.workflow = fd
		case "version":
			top.version = fd
		case "inputs":
			top.inputs = fd
		case "output", "outputs":
			if top.output == nil {
				top.output = fd
			}
		case "output_mappings":
			top.outputMappings = fd
		}
	}
	// A top-level workflow: mapping instead of steps.
	if top.workflow != nil && w.Steps == nil {
		if _, ok := ast.Resolve(top.workflow.Value).(*ast.Mapping); ok {
			return dialect{name: "workflow-graph", at: top.workflow.Key.Span, evidence: []string{`a top-level "workflow:" DAG`}}
		}
	}
	// GitHub Actions syntax.
	var gha dialect
	addGHA := func(sp source.Span, what string) {
		if gha.name == "" || sp.Start < gha.at.Start {
			gha.name, gha.at = "github-actions", sp
		}
		gha.evidence = append(gha.evidence, what)
	}
	ghaExpr, ghaExprs := findOutsideComments(f, "${{", 3)
	if top.inputs != nil {
		if _, ok := ast.Resolve(top.inputs.Value).(*ast.Sequence); ok {
			addGHA(top.inputs.Key.Span, `a list of "inputs"`)
		}
	}
	if top.outputMappings != nil {
		addGHA(top.outputMappings.Key.Span, `"output_mappings"`)
	}
	var named, depends *ast.Field
	for _, s := range in.Top {
		for _, fd := range s.Step.Unknown {
			switch fd.Name() {
			case "name":
				if s.Step.ID == nil && named == nil {
					named = fd
				}
			case "depends_on", "needs":
				if depends == nil {
					depends = fd
				}
			}
		}
	}
	if named != nil && depends != nil {
		addGHA(depends.Key.Span, `steps named with "name" that declare "`+depends.Name()+`"`)
	}
	// A stray "${{ }}" or two in an ordinary file is mustache-syntax; three,
	// or one with other evidence, make the file GitHub-Actions-like.
	if ghaExprs >= 3 || ghaExprs > 0 && gha.name != "" {
		addGHA(ghaExpr, `"${{ … }}" expressions (GitHub Actions expression syntax)`)
	}
	if gha.name != "" {
		if _, n := findOutsideComments(f, "{{inputs.", 1); n > 0 {
			gha.evidence = append(gha.evidence, `"{{inputs.…}}" templates`)
		}
		return gha
	}
	// Step inputs and outputs: top-level inputs/output with version or step args/output.
	if top.inputs != nil || top.output != nil {
		at := top.inputs
		if at == nil || (top.output != nil && top.output.Pos() < at.Pos()) {
			at = top.output
		}
		var ev []string
		if top.version != nil {
			ev = append(ev, `top-level "version"`)
		}
		if top.inputs != nil {
			ev = append(ev, `top-level "inputs"`)
		}
		if top.output != nil {
			ev = append(ev, `top-level "`+top.output.Name()+`"`)
		}
		args, output := 0, 0
		for _, s := range in.Steps {
			for _, fd := range s.Step.Unknown {
				switch fd.Name() {
				case "args":
					args++
				case "output":
					output++
				}
			}
		}
		if args+output > 0 {
			ev = append(ev, `step "args"/"output"`)
		}
		// One stray key is a mistake that unknown-key explains; the dialect
		// has a version, or both step args and step outputs.
		if top.version != nil || args > 0 && output > 0 {
			return dialect{name: "step-io", at: at.Key.Span, evidence: ev}
		}
	}
	return dialect{}
}

// findOutsideComments counts the occurrences of needle in the file's text
// that are not inside a comment, up to limit, and returns the span of the
// first one (the whole "{{ … }}" when it closes on the same line).
func findOutsideComments(f *ast.File, needle string, limit int) (first source.Span, n int) {
	src := f.Src.Content
	from := 0
	for n < limit {
		i := bytes.Index(src[from:], []byte(needle))
		if i < 0 {
			break
		}
		i += from
		from = i + len(needle)
		if inComment(f.Comments, i) {
			continue
		}
		if n == 0 {
			end := i + len(needle)
			if j := bytes.Index(src[end:], []byte("}}")); j >= 0 && bytes.IndexByte(src[end:end+j], '\n') < 0 {
				end += j + 2
			}
			first = source.Span{Start: i, End: end}
		}
		n++
	}
	return first, n
}

// inComment reports whether offset lies inside one of the (sorted) comments.
func inComment(comments []*ast.Comment, offset int) bool {
	i := sort.Search(len(comments), func(i int) bool { return comments[i].End() > offset })
	return i < len(comments) && comments[i].Pos() <= offset
}
