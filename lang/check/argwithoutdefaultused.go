package check

import (
	"fmt"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// ArgWithoutDefaultUsed reports args declared without a default and used as
// ${name}.
var ArgWithoutDefaultUsed = &Analyzer{
	Name:     "arg-without-default-used",
	Severity: source.Warning,
	Summary:  "an arg without a default is used as ${name}",
	Doc: `An arg entry gives a value only when its mapping has the key default ("default: null"
counts and yields null). "args: {target: {}}", an entry with only a description, or an empty
entry declare the name and give it no value. There is no required-arg check: when the
caller does not pass the arg, "${target}" is not substituted and stays in the text (in shell text
the shell then expands an environment variable named target, usually empty).`,
	Bad:  "args:\n  target:\n    description: where to deploy\nsteps:\n  - id: deploy\n    run: ./deploy.sh\n    env:\n      TARGET: ${target}",
	Good: "args:\n  target:\n    default: staging\n    description: where to deploy\nsteps:\n  - id: deploy\n    run: ./deploy.sh\n    env:\n      TARGET: ${target}",
	Fix:  "add default: \"\" to the arg",
	Run:  runArgWithoutDefaultUsed,
}

func runArgWithoutDefaultUsed(p *Pass) {
	if len(p.Info.Args) == 0 {
		return
	}
	var missing map[string]*ast.Field
	for _, fd := range p.Info.Args {
		switch v := fd.Value.(type) {
		case *ast.ArgDef:
			if v.Default != nil {
				continue
			}
		case *ast.Scalar:
			if v.Kind != ast.Null {
				continue // arg-def-not-mapping
			}
		default:
			continue
		}
		if missing == nil {
			missing = map[string]*ast.Field{}
		}
		missing[fd.Name()] = fd
	}
	if missing == nil {
		return
	}
	for i := range p.Info.Refs {
		r, ok := p.Info.Refs[i].Ref.(*ast.ArgRef)
		if !ok {
			continue
		}
		fd := missing[r.Name]
		if fd == nil {
			continue
		}
		delete(missing, r.Name)
		d := p.Finding(fd.Key.Span, "arg %q has no default; if the caller does not pass it, \"${%s}\" stays literal text (there is no required-arg check)", r.Name, r.Name)
		d.Related = []source.Related{p.Related(ast.SpanOf(r), "used here")}
		if e, ok := aeAddDefaultEdit(p, fd); ok {
			d.Fixes = []source.Fix{{Message: "Add default: \"\"", Edits: []source.Edit{e}}}
		}
		p.Report(d)
	}
}

// aeAddDefaultEdit adds an empty default to an arg entry that is a mapping
// without one, or null.
func aeAddDefaultEdit(p *Pass, fd *ast.Field) (source.Edit, bool) {
	key := "default"
	if p.File.JSON {
		key = `"default"`
	}
	entry := key + `: ""`
	src := p.File.Src
	switch v := fd.Value.(type) {
	case *ast.Scalar:
		if !aeInField(fd, v) {
			return source.Edit{}, false
		}
		if v.Span.Len() == 0 {
			return p.Edit(v.Span, " {"+entry+"}"), true
		}
		return p.Edit(v.Span, "{"+entry+"}"), true
	case *ast.ArgDef:
		if !aeInField(fd, v) {
			return source.Edit{}, false
		}
		if v.Flow {
			if v.Pos() >= len(src.Content) || src.Content[v.Pos()] != '{' {
				return source.Edit{}, false
			}
			text := entry
			if len(v.Fields) > 0 {
				text += ", "
			}
			at := v.Pos() + 1
			return p.Edit(source.Span{Start: at, End: at}, text), true
		}
		if len(v.Fields) == 0 {
			return source.Edit{}, false
		}
		first := v.Fields[0].Key.Pos()
		indent, ok := aeIndentAt(src, first)
		if !ok {
			return source.Edit{}, false
		}
		at := first - len(indent)
		return p.Edit(source.Span{Start: at, End: at}, fmt.Sprintf("%s%s\n", indent, entry)), true
	}
	return source.Edit{}, false
}
