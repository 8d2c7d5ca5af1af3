package check

import (
	"sort"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// This file keeps a YAML error from causing other findings. After a syntax
// error the reader recovers and the rules run over what it made of the
// text: a step whose key was cut has no run ("does nothing"), a key
// recovery moved to another level is unknown there, a scalar cut short is
// not the script that was written, and a reference lost with the broken
// lines makes an arg look unused. None of these is a finding about the file
// the author wrote. So, when the file has broken text (ast.File.Broken):
//
//   - each syntax error is reported once: an error inside the damage of an
//     earlier one (below), or on the line after it, is the same cause;
//   - the unit that holds the broken text is damaged: the top-level step
//     or arg around it (or the top-level key, such as env), or, when the text lies
//     between units, the unit before it (a dedented line ends its unit
//     early, and the error is reported on the lines after), up to the next
//     line with content. No finding that starts in a damaged unit or points
//     into one is reported, nor one at a reference to a damaged step or to
//     no step, nor, when the args are damaged, one at an arg reference;
//   - the rules that conclude from the whole file (nothing refers to this
//     arg, no step has this id, the steps are missing) are not reported at
//     all: the broken text may hold what they did not find;
//   - a file that the reference rejects as a whole (several documents, a
//     root that is not a mapping) gets that one error and the YAML errors,
//     and no rule runs over its content.

// wholeFileCodes are the rules whose findings conclude from the absence of
// something anywhere in the file, or describe the file as a whole.
var wholeFileCodes = map[string]bool{
	"unused-arg":               true,
	"unknown-step-ref":         true,
	"forward-step-ref":         true,
	"id-not-referenceable":     true,
	"arg-without-default-used": true,
	"foreign-dialect":          true,
	"not-a-workflow":           true,
	"ids-differ-in-case":       true,
	"loop-shadows-step":        true,
	"yaml-unused-anchor":       true,
	"yaml-undefined-alias":     true,
	"approval-bypassable":      true,
	"cost-limit-without-llm":   true,
}

// dialectCodes are the per-key findings that a foreign dialect explains at
// once (see reportUnlessForeign): whether they are reported depends on the
// keys that show a dialect, wherever they are.
var dialectCodes = map[string]bool{
	"unknown-key":          true,
	"metadata-key":         true,
	"prefer-canonical-key": true,
	"mustache-syntax":      true,
}

// dialectWords are the words that show a foreign dialect (detectDialect).
var dialectWords = []string{"workflow", "version", "inputs", "output", "depends_on", "needs", "{{"}

// rejectsWhole reports whether the reference rejects the file as a whole
// before reading any workflow in it.
func rejectsWhole(f *ast.File, diags []source.Diagnostic) bool {
	for _, d := range diags {
		if d.Code == "yaml-multi-document" {
			return true
		}
	}
	return f.Doc != nil && f.Workflow == nil
}

// dropCascades removes the findings that depend on broken text.
func dropCascades(f *ast.File, info *Info, diags []source.Diagnostic) []source.Diagnostic {
	whole := rejectsWhole(f, diags)
	if len(f.Broken) == 0 && !whole {
		return diags
	}
	src := f.Src
	units := topUnits(f)
	// The syntax errors, each reported once: an error inside the damage of
	// an earlier one is the same cause, and its damage continues that
	// cause's.
	var causes []source.Span
	var kept, others []source.Diagnostic
	for _, d := range diags {
		if d.Code != "yaml-syntax" {
			others = append(others, d)
			continue
		}
		at := d.Range.Start.Offset
		if !inDamaged(causes, at) {
			kept = append(kept, d)
		}
		// An error on the line after the damage is the same cause too:
		// recovery skipped one line or block, but the next one does not fit
		// either.
		c, last := damageOf(f, units, at)
		if next := last + 1; next <= src.LineCount() {
			c.End = src.LineStart(next) + len(src.LineText(next))
		}
		causes = mergeSpans(append(causes, c))
	}
	if whole {
		for _, d := range others {
			switch {
			case d.Code == "yaml-multi-document", d.Code == "limit-exceeded":
			case d.Code == "not-a-workflow" && f.Workflow == nil && (len(f.Broken) == 0 || isSequence(f.Doc)):
				// A root that is a scalar may be what an error made of a
				// mapping; a list is a list.
			default:
				continue
			}
			kept = append(kept, d)
		}
		source.Sort(kept)
		return kept
	}
	var damaged []source.Span
	for _, b := range f.Broken {
		sp, _ := damageOf(f, units, b.Start)
		damaged = append(damaged, sp)
	}
	damaged = mergeSpans(damaged)
	var damagedText strings.Builder
	for _, sp := range damaged {
		damagedText.WriteString(src.TextOf(sp))
		damagedText.WriteByte('\n')
	}
	text := damagedText.String()
	dialect := false
	for _, w := range dialectWords {
		dialect = dialect || strings.Contains(text, w)
	}
	damaged = mergeSpans(append(damaged, dependentRefs(f, info, damaged, text)...))
	for _, d := range others {
		if wholeFileCodes[d.Code] || dialect && dialectCodes[d.Code] || touches(src, damaged, d) || namesDamaged(src, d, text) {
			continue
		}
		kept = append(kept, d)
	}
	source.Sort(kept)
	return kept
}

// dependentRefs are the references whose meaning depends on damaged text:
//   - a step reference to a damaged step, or to no step when the damaged
//     text holds its id (the step may be there);
//   - when the args are damaged, an arg reference or LOBSTER_ARG_ variable
//     whose arg is declared on a broken line, or not declared; when there
//     are no args, every one if the damaged text holds "args".
func dependentRefs(f *ast.File, info *Info, damaged []source.Span, text string) []source.Span {
	var out []source.Span
	w := f.Workflow
	var argsDamaged bool
	switch {
	case w.Args == nil:
		argsDamaged = strings.Contains(text, "args")
	default:
		i := sort.Search(len(damaged), func(i int) bool { return damaged[i].End > w.Args.Pos() })
		argsDamaged = i < len(damaged) && damaged[i].Start < w.Args.End()
	}
	// The broken lines: an arg declared on them may be cut or misread.
	var lines []source.Span
	for _, b := range f.Broken {
		first, last := f.Src.Pos(b.Start).Line, f.Src.Pos(max(b.Start, b.End-1)).Line
		lines = append(lines, source.Span{Start: f.Src.LineStart(first), End: f.Src.LineStart(last) + len(f.Src.LineText(last))})
	}
	lines = mergeSpans(lines)
	argDepends := func(declared *ast.Field) bool {
		if !argsDamaged {
			return false
		}
		if declared == nil {
			return true
		}
		i := sort.Search(len(lines), func(i int) bool { return lines[i].End > declared.Pos() })
		return i < len(lines) && lines[i].Start < declared.End()
	}
	for i := range info.Refs {
		rs := &info.Refs[i]
		switch r := rs.Ref.(type) {
		case *ast.StepRef:
			res := info.ResolveSite(rs, r.ID)
			if res.Target == nil && strings.Contains(text, r.ID) || res.Target != nil && inDamaged(damaged, res.Target.Step.Pos()) {
				out = append(out, ast.SpanOf(r))
			}
		case *ast.ArgRef:
			if argDepends(info.ArgBy[r.Name]) {
				out = append(out, ast.SpanOf(r))
			}
		}
	}
	if argsDamaged {
		byVar := map[string]*ast.Field{}
		for _, a := range info.Args {
			byVar[ArgEnvName(a.Name())] = a
		}
		for _, v := range info.Vars {
			if strings.HasPrefix(v.Var.Name, "LOBSTER_ARG") && argDepends(byVar[v.Var.Name]) {
				out = append(out, ast.SpanOf(v.Var))
			}
		}
	}
	return out
}

// namesDamaged reports whether a finding at a reference ($name…, ${name…})
// is about a name that the damaged text may define (a key or an id of that
// name): what it says of the name (no such step, no such arg) may be wrong.
func namesDamaged(src *source.File, d source.Diagnostic, text string) bool {
	at := src.TextOf(source.Span{Start: d.Range.Start.Offset, End: d.Range.End.Offset})
	at = strings.TrimLeft(at, "\"'")
	if o := d.Range.Start.Offset; !strings.HasPrefix(at, "$") && (o == 0 || src.Content[o-1] != '$' && src.Content[o-1] != '{') {
		return false // not at a reference or a variable
	}
	at = strings.TrimPrefix(strings.TrimPrefix(at, "$"), "{")
	n := 0
	for n < len(at) && (at[n] == '-' || parser.IsWordByte(at[n])) {
		n++
	}
	if n == 0 {
		return false
	}
	name := at[:n]
	env := strings.HasPrefix(name, "LOBSTER_ARG_")
	// Defined there: an arg ("name:" starting a line) or a step ("id: name"),
	// also with the colon missing.
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimLeft(line, " \t-")
		key, _, _ := strings.Cut(line, ":")
		key = strings.Trim(strings.TrimSpace(key), "\"'")
		if key == name || env && "LOBSTER_ARG_"+ArgEnvName(key) == name {
			return true
		}
		if id, ok := strings.CutPrefix(line, "id"); ok && strings.Trim(strings.TrimLeft(id, " \t:"), "\"' ") == name {
			return true
		}
	}
	return false
}

// touches reports whether a finding starts in a damaged span, or points
// into one.
func touches(src *source.File, damaged []source.Span, d source.Diagnostic) bool {
	if inDamaged(damaged, d.Range.Start.Offset) {
		return true
	}
	for _, r := range d.Related {
		if r.File == src.Name && inDamaged(damaged, r.Range.Start.Offset) {
			return true
		}
	}
	return false
}

// inDamaged reports whether off lies in one of the sorted, disjoint spans.
func inDamaged(spans []source.Span, off int) bool {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].End > off })
	return i < len(spans) && spans[i].Start <= off
}

// damageOf is the damage of the syntax error at offset at: its broken text
// widened to whole lines, the unit (top-level step or top-level key) that
// holds it or, between units, the one before it, and the blank and comment
// lines after them (where recovery read nothing that could show it had
// found its way back).
// It also returns the number of its last line.
func damageOf(f *ast.File, units []source.Span, at int) (source.Span, int) {
	src := f.Src
	end := at
	for _, b := range f.Broken {
		if b.Start == at {
			end = max(end, b.End)
		}
	}
	first := src.Pos(at).Line
	last := src.Pos(max(at, end-1)).Line
	span := source.Span{Start: src.LineStart(first), End: src.LineStart(last) + len(src.LineText(last))}
	var unit *source.Span
	for i := range units {
		if units[i].Start > at {
			break
		}
		unit = &units[i]
		if units[i].End > at {
			break
		}
	}
	if unit != nil {
		span.Start = min(span.Start, unit.Start)
		span.End = max(span.End, unit.End)
	}
	last = max(last, src.Pos(span.End).Line)
	for line := last + 1; line <= src.LineCount(); line++ {
		t := strings.TrimSpace(string(src.LineText(line)))
		if t != "" && !strings.HasPrefix(t, "#") {
			break
		}
		span.End = max(span.End, src.LineStart(line)+len(src.LineText(line)))
		last = line
	}
	return span, last
}

// mergeSpans sorts spans and merges those that overlap or touch.
func mergeSpans(spans []source.Span) []source.Span {
	sort.Slice(spans, func(i, j int) bool { return spans[i].Start < spans[j].Start })
	merged := spans[:0]
	for _, s := range spans {
		if n := len(merged); n > 0 && s.Start <= merged[n-1].End+1 {
			merged[n-1].End = max(merged[n-1].End, s.End)
			continue
		}
		merged = append(merged, s)
	}
	return merged
}

// topUnits lists, in source order, the spans of the top-level keys other
// than steps and args, of the items of the steps list and of the args, each
// from the start of its first line.
func topUnits(f *ast.File) []source.Span {
	w := f.Workflow
	if w == nil {
		return nil
	}
	src := f.Src
	lineFrom := func(sp source.Span) source.Span {
		start := src.LineStart(src.Pos(sp.Start).Line)
		if strings.TrimLeft(src.TextOf(source.Span{Start: start, End: sp.Start}), " \t-") != "" {
			start = sp.Start // the unit shares its line with other text
		}
		return source.Span{Start: start, End: sp.End}
	}
	var units []source.Span
	var items []ast.Node
	for _, fd := range w.Fields {
		items = items[:0]
		switch v := fd.Value.(type) {
		case *ast.StepList:
			for _, it := range v.Items {
				items = append(items, it)
			}
		case *ast.Args:
			for _, a := range v.Fields {
				items = append(items, a)
			}
		}
		if len(items) == 0 || fd != w.Steps && fd != w.Args {
			units = append(units, lineFrom(ast.SpanOf(fd)))
			continue
		}
		units = append(units, lineFrom(source.Span{Start: fd.Pos(), End: items[0].Pos()}))
		for _, it := range items {
			units = append(units, lineFrom(ast.SpanOf(it)))
		}
	}
	return units
}

func isSequence(v ast.Value) bool {
	_, ok := ast.Resolve(v).(*ast.Sequence)
	return ok
}
