package check

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// SubworkflowMissing reports workflow: paths that name no file.
var SubworkflowMissing = &Analyzer{
	Name:     "subworkflow-missing",
	Severity: source.Error,
	Summary:  "a workflow: path names no file, relative to the calling file's directory",
	Doc: `A relative workflow: path is resolved against the directory of the file that holds the
step, not the current directory and not the step's cwd. When no file is there, the step
fails with "Workflow step <id> workflow file not found: <resolved path>". A dry run does not load
children, so only a real run finds out.

A path that names a named pipe, a device or a socket is reported as well: it is never read
(reading one could wait forever or never end).

Paths with a step reference are known only at run time and are not checked. A ${arg} in the path
is replaced by the arg's default; the finding is then a warning, since a run that passes another
value reads another file.`,
	Bad:  "steps:\n  - id: sub\n    workflow: chlid.lobster",
	Good: "steps:\n  - id: sub\n    workflow: child.lobster\n-- child.lobster --\nsteps:\n  - id: hello\n    run: echo hello\n",
	Fix:  "rename the path to a workflow file of the same directory with a close name (unsafe)",
	Run:  runSubworkflowMissing,
}

func runSubworkflowMissing(p *Pass) {
	for _, c := range subCalls(p.Info, p.Options.Path) {
		err := p.sub(c.File).Err
		var why, fails string
		missing := false
		switch {
		case err == nil:
			continue
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			why, fails, missing = "not found", "the step fails with \"workflow file not found\"", true
		case errors.Is(err, syscall.EISDIR):
			why, fails = "is a directory, not a file", "the step fails when it reads it"
		case errors.Is(err, bounded.ErrNotRegular):
			why, fails = "is "+bounded.Reason(err), "the step fails when it reads it"
		default:
			continue // unreadable here; the run may see it
		}
		where := "relative to this file's directory"
		if filepath.IsAbs(c.Path) {
			where = "an absolute path"
		}
		d := p.Finding(ast.SpanOf(c.Value), "sub-workflow %q%s %s (looked for %s, %s); %s",
			c.Value.Scalar.Text, defaultedNote(c), why, c.File, where, fails)
		if strings.HasPrefix(c.Path, "~") || strings.Contains(c.Path, "$") {
			d.Message += "; the path is not shell-expanded: \"~\" and \"$NAME\" stay literal (use ${arg} with an arg)"
		}
		if len(c.Defaulted) > 0 {
			d.Severity = source.Warning
		} else if missing {
			if near := nearbyWorkflow(c.File); near != "" {
				text := c.Value.Scalar.Text
				i := strings.LastIndexAny(text, "/"+string(filepath.Separator)) + 1
				d.Message += fmt.Sprintf("; did you mean %q?", text[:i]+near)
				d.Fixes = []source.Fix{{Message: fmt.Sprintf("Change the path to %q", text[:i]+near),
					Edits: []source.Edit{p.Edit(c.Value.Scalar.Map.Span(i, len(text)), near)}, Unsafe: true}}
			}
		}
		p.Report(d)
	}
}

// nearbyWorkflow finds a workflow file next to a missing path with a close
// name: the same name with another extension, or a likely typo.
func nearbyWorkflow(missing string) string {
	dir, base := filepath.Split(missing)
	if dir == "" {
		dir = "."
	}
	f, err := os.Open(dir)
	if err != nil {
		return ""
	}
	defer f.Close()
	entries, _ := f.ReadDir(1000)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	var names []string
	for _, e := range entries {
		n := e.Name()
		ext := filepath.Ext(n)
		if e.IsDir() || !parser.IsWorkflowName(n) && ext != filepath.Ext(base) {
			continue
		}
		if stem != "" && strings.TrimSuffix(n, ext) == stem {
			return n
		}
		names = append(names, n)
	}
	return Suggest(base, names)
}
