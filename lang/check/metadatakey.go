package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// MetadataKey reports documentary keys that the reference ignores harmlessly.
var MetadataKey = &Analyzer{
	Name:     "metadata-key",
	Severity: source.Hint,
	Summary:  "a documentary key (description, name, version, author) that the runtime ignores",
	Doc: `The reference reads ` + "`name`" + ` and ` + "`description`" + ` at the top level only. A step's
` + "`description`" + ` (or ` + "`name`" + ` next to its ` + "`id`" + `), and a top-level ` + "`version`" + ` or ` + "`author`" + `, are
accepted and ignored. That is harmless and common, so this is a hint rather than
` + "`unknown-key`" + `: it tells the author that the key documents the file and changes nothing at run
time. Turn the rule off if the project uses such keys on purpose. A step with ` + "`name`" + ` and no
` + "`id`" + ` is ` + "`missing-id`" + ` instead.`,
	Bad:  "version: \"1.0\"\nsteps:\n  - id: build\n    description: Build the site\n    run: make",
	Good: "# version 1.0\nsteps:\n  - id: build # Build the site\n    run: make",
	Run:  func(p *Pass) { reportUnlessForeign(p, collectMetadataKeys) },
}

func collectMetadataKeys(p *Pass, emit func(source.Diagnostic)) {
	w := p.File.Workflow
	if w == nil {
		return
	}
	for _, f := range w.Unknown {
		if n := f.Name(); n == "version" || n == "author" {
			emit(p.Finding(f.Key.Span, "%q is documentation only; the runtime ignores it", n))
		}
	}
	for _, s := range structureSteps(p.Info) {
		for _, f := range s.Step.Unknown {
			switch f.Name() {
			case "description":
				emit(p.Finding(f.Key.Span, "%q is documentation only; the runtime ignores it", "description"))
			case "name":
				if s.Step.ID == nil {
					continue // missing-id suggests renaming it to id
				}
				d := p.Finding(f.Key.Span, "%q is documentation only; the runtime ignores it and knows the %s by its id", "name", s.Step.Context)
				if s.ID != "" {
					if sc := ast.StringOf(ast.Resolve(f.Value)); sc != nil && sc.Text == s.ID {
						d.Message += " (which has the same value)"
					}
				}
				emit(d)
			}
		}
	}
}
