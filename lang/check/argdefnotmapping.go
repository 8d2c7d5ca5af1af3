package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ArgDefNotMapping reports args that are not a mapping and arg entries that
// are not a mapping.
var ArgDefNotMapping = &Analyzer{
	Name:     "arg-def-not-mapping",
	Severity: source.Error,
	Summary:  "args, or an arg entry, is not a mapping, so no default is set",
	Doc: `args is never validated. Only an entry that is a mapping with the key default gives
the arg a value: "args: {target: prod}" declares nothing usable and the value prod is
ignored, so "${target}" stays literal text and LOBSTER_ARG_TARGET is not set. A list of names
("args: [target]") is ignored as a whole. An empty entry ("target:") declares the name without a
default and is not reported here (see arg-without-default-used).`,
	Bad:  "args:\n  target: prod\nsteps:\n  - id: deploy\n    run: ./deploy.sh \"$LOBSTER_ARG_TARGET\"",
	Good: "args:\n  target: {default: prod}\nsteps:\n  - id: deploy\n    run: ./deploy.sh \"$LOBSTER_ARG_TARGET\"",
	Fix:  "rewrite name: value to name: {default: value}",
	Run:  runArgDefNotMapping,
}

func runArgDefNotMapping(p *Pass) {
	w := p.File.Workflow
	if w == nil || w.Args == nil {
		return
	}
	a, ok := w.Args.Value.(*ast.Args)
	if !ok {
		v := ast.Resolve(w.Args.Value)
		if s, ok := v.(*ast.Scalar); ok && s.Kind == ast.Null || v == nil {
			return
		}
		hint := ""
		if seq, ok := v.(*ast.Sequence); ok && len(seq.Items) > 0 {
			if s, ok := ast.Resolve(seq.Items[0]).(*ast.Scalar); ok && s.Kind == ast.String {
				hint = fmt.Sprintf(" like {%s: {default: \"\"}}", s.Text)
			}
		}
		p.Reportf(ast.SpanOf(w.Args.Value), "\"args\" must be a mapping of name: {default: …}%s; as written it is %s, which is ignored: no arg gets a default", hint, ast.TypeName(v))
		return
	}
	for _, fd := range a.Fields {
		switch v := ast.Resolve(fd.Value).(type) {
		case *ast.ArgDef, nil:
			continue
		case *ast.Scalar:
			if v.Kind == ast.Null {
				continue
			}
		}
		written := strings.TrimSpace(p.Text(ast.SpanOf(fd.Value)))
		if strings.ContainsAny(written, "\n\r") {
			written = "…"
			if sc, ok := ast.Resolve(fd.Value).(*ast.Scalar); ok {
				line, _, _ := strings.Cut(sc.Text, "\n")
				written = strconv.Quote(aeShorten(line, 30))
			}
		}
		d := p.Finding(ast.SpanOf(fd.Value), "arg %q must be a mapping like {default: %s}; as written it has no default and the value is ignored",
			fd.Name(), aeShorten(written, 40))
		if e, ok := aeWrapDefaultEdit(p, fd); ok {
			d.Fixes = []source.Fix{{Message: "Make the value the default", Edits: []source.Edit{e}}}
		}
		p.Report(d)
	}
}

// aeWrapDefaultEdit rewrites an entry's value v to {default: v} when v is
// written on one line in flow or scalar form.
func aeWrapDefaultEdit(p *Pass, fd *ast.Field) (source.Edit, bool) {
	sp := ast.SpanOf(fd.Value)
	if !aeInField(fd, fd.Value) || sp.Len() == 0 {
		return source.Edit{}, false
	}
	switch v := fd.Value.(type) {
	case *ast.Scalar:
		if v.Style == ast.LiteralBlock || v.Style == ast.FoldedBlock {
			return source.Edit{}, false
		}
	case *ast.Sequence:
		if !v.Flow {
			return source.Edit{}, false
		}
	case *ast.Mapping:
		if !v.Flow {
			return source.Edit{}, false
		}
	case *ast.Alias:
	default:
		return source.Edit{}, false
	}
	text := p.Text(sp)
	if strings.ContainsAny(text, "\n\r") {
		return source.Edit{}, false
	}
	key := "default"
	if p.File.JSON {
		key = `"default"`
	}
	return p.Edit(sp, "{"+key+": "+text+"}"), true
}
