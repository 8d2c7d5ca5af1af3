package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// CwdNotExpanded reports "~", $VAR and ${VAR} in a cwd, which nothing
// expands.
var CwdNotExpanded = &Analyzer{
	Name:     "cwd-not-expanded",
	Severity: source.Error,
	Summary:  "a cwd uses ~, $VAR or ${VAR}, which are not expanded there",
	Doc: `Only "${arg}" is substituted in cwd, and the result is used as the process
directory as it is: no shell sees it. "~/projects" and "$HOME/projects" name directories that do
not exist, and the step fails with the misleading "workflow shell not found". Pass the
directory as an arg ("cwd: ${root}") or use an absolute path. An undeclared lower-case "${name}"
is reported by undeclared-arg (the caller may pass it); step references by cwd-step-ref.`,
	Bad:  "cwd: ~/projects/site\nsteps:\n  - id: build\n    run: make",
	Good: "args:\n  root: {default: /home/me/projects/site}\ncwd: ${root}\nsteps:\n  - id: build\n    run: make",
	Run:  runCwdNotExpanded,
}

func runCwdNotExpanded(p *Pass) {
	for _, f := range aeCwdFields(p.Info) {
		t := f.Value.(*ast.Template)
		s := t.Scalar
		if s == nil {
			continue
		}
		text := s.Text
		lead := len(text) - len(strings.TrimLeft(text, " \t"))
		if strings.HasPrefix(text[lead:], "~") {
			end := strings.IndexByte(text[lead:], '/')
			if end < 0 {
				end = len(text)
			} else {
				end += lead
			}
			p.Reportf(s.Map.Span(lead, end), "%q is not expanded in cwd; the directory %q does not exist and the step fails with \"workflow shell not found\". pass the directory as an arg or write it in full",
				text[lead:end], aeShorten(text, 60))
		}
		if !strings.Contains(text, "$") {
			continue
		}
		spans := aeRefSpans(s, t.Refs)
		report := func(i, j int) {
			p.Reportf(s.Map.Span(i, j), "%q is not expanded in cwd (only ${arg} is substituted there); the directory %q does not exist and the step fails with \"workflow shell not found\"",
				text[i:j], aeShorten(text, 60))
		}
		for k, r := range t.Refs {
			if a, ok := r.(*ast.ArgRef); ok && p.Info.ArgBy[a.Name] == nil && aeIsAllCaps(a.Name) {
				report(spans[k].I, spans[k].J)
			}
		}
		aeUnexpanded(text, spans, func(i, j int, _ string) { report(i, j) })
	}
}
