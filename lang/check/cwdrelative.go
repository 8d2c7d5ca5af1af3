package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// CwdRelative reports relative cwd values.
var CwdRelative = &Analyzer{
	Name:     "cwd-relative",
	Severity: source.Warning,
	Summary:  "a relative cwd resolves against the directory lobster is started from",
	Doc: `A relative cwd (at any level) is resolved against the process's working directory, not the
workflow file's directory, so the workflow works only when started from one place; a
missing directory fails with "workflow shell not found". Note the asymmetry: a relative
workflow: path does resolve against the calling file's directory. A cwd that starts with
"${arg}" is judged by the arg's default; one that starts with "~" or "$" is reported by
cwd-not-expanded.`,
	Bad:  "steps:\n  - id: build\n    cwd: scripts\n    run: ./build.sh",
	Good: "args:\n  root: {default: /srv/app}\nsteps:\n  - id: build\n    cwd: ${root}/scripts\n    run: ./build.sh",
	Run:  runCwdRelative,
}

func runCwdRelative(p *Pass) {
	for _, f := range aeCwdFields(p.Info) {
		t := f.Value.(*ast.Template)
		s := t.Scalar
		if s == nil {
			continue
		}
		path, via, ok := aeCwdPath(p.Info, t)
		if !ok || path == "" || aeAbsolutePath(path) || path[0] == '~' || path[0] == '$' {
			continue
		}
		if via != "" {
			p.Reportf(ast.SpanOf(s), "cwd %q is the relative path %q (the default of arg %q); it resolves against the directory lobster is started from, not the workflow file's directory",
				aeShorten(s.Text, 60), aeShorten(path, 60), via)
			continue
		}
		p.Reportf(ast.SpanOf(s), "relative cwd %q resolves against the directory lobster is started from, not the workflow file's directory", aeShorten(path, 60))
	}
}

// aeCwdPath is the start of a cwd as the runtime sees it: the text with a
// leading ${arg} replaced by the arg's string default (via names the arg).
// ok is false when the start is an arg without a usable default.
func aeCwdPath(in *Info, t *ast.Template) (path, via string, ok bool) {
	text := strings.TrimSpace(t.Scalar.Text)
	if len(t.Refs) == 0 || !strings.HasPrefix(text, "${") {
		return text, "", true
	}
	a, isArg := t.Refs[0].(*ast.ArgRef)
	if !isArg || !strings.HasPrefix(text, "${"+a.Name+"}") {
		return text, "", true
	}
	fd := in.ArgBy[a.Name]
	if fd == nil {
		return "", "", false
	}
	def, isDef := fd.Value.(*ast.ArgDef)
	if !isDef || def.Default == nil {
		return "", "", false
	}
	sc, isScalar := ast.Resolve(def.Default.Value).(*ast.Scalar)
	if !isScalar || sc.Kind != ast.String {
		return "", "", false
	}
	rest := text[len(a.Name)+3:]
	joined := sc.Text + rest
	if joined == "" {
		return "", "", false
	}
	return joined, a.Name, true
}
