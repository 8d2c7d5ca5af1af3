package check

import (
	"fmt"
	"strings"
	"sync"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// Analyzer is one checker rule. Its Name is the stable diagnostic code.
type Analyzer struct {
	Name    string // stable kebab-case code; never renamed or reused
	Summary string // one line: what it catches
	Doc     string // why it matters and how the runtime behaves (markdown)
	// Bad is a workflow that the rule reports and Good the same written
	// correctly, which it does not (TestExamples checks both): a whole file
	// or a list of steps, followed by the files it refers to in txtar
	// form ("-- child.lobster --" and the file's text).
	Bad      string
	Good     string
	Fix      string          // what the quick fix does, or "" when there is none
	Severity source.Severity // default severity
	// Run reports the rule's findings. It is nil for codes reported by the
	// parser (YAML and the reference's load-time rules), which are listed
	// for their documentation.
	Run func(*Pass)
	// Supersedes lists more general codes that this rule refines: a finding
	// of one of them that starts where a finding of this rule starts is
	// dropped (condition-arg-ref refines the parser's condition-syntax).
	Supersedes []string
}

// Pass is one analyzer's run over one file.
type Pass struct {
	Analyzer *Analyzer
	File     *ast.File
	Info     *Info   // facts shared by all analyzers, computed once per file
	Options  Options // where the file is and how to read the files it refers to
	// Rejected is set when the parser found an error for which the
	// reference refuses to load the file: messages must not say that the
	// reference reads the file (or ignores a part of it).
	Rejected bool
	report   func(source.Diagnostic)
	subs     *subFiles // the child workflows this check has loaded
}

// ReadFile reads a file the workflow refers to.
func (p *Pass) ReadFile(path string) ([]byte, error) { return p.Options.readFile(path) }

// Src is the file's source, for converting spans and reading text.
func (p *Pass) Src() *source.File { return p.File.Src }

// Report adds a diagnostic; the code, file and (if unset) severity are the
// analyzer's.
func (p *Pass) Report(d source.Diagnostic) {
	d.Code = p.Analyzer.Name
	d.File = p.File.Src.Name
	if d.Severity == 0 {
		d.Severity = p.Analyzer.Severity
	}
	p.report(d)
}

// Reportf reports a finding at a span.
func (p *Pass) Reportf(sp source.Span, format string, args ...any) {
	p.Report(source.Diagnostic{Range: p.File.Src.RangeOf(sp), Message: fmt.Sprintf(format, args...)})
}

// Finding starts a diagnostic at a span, for adding related locations and fixes.
func (p *Pass) Finding(sp source.Span, format string, args ...any) source.Diagnostic {
	return source.Diagnostic{Range: p.File.Src.RangeOf(sp), Message: fmt.Sprintf(format, args...)}
}

// Related is a related location in the file.
func (p *Pass) Related(sp source.Span, msg string) source.Related {
	return source.Related{File: p.File.Src.Name, Range: p.File.Src.RangeOf(sp), Message: msg}
}

// Edit replaces the text of a span.
func (p *Pass) Edit(sp source.Span, newText string) source.Edit {
	return source.Edit{Range: p.File.Src.RangeOf(sp), NewText: newText}
}

// Text is the source text of a span.
func (p *Pass) Text(sp source.Span) string { return p.File.Src.TextOf(sp) }

var codePattern = lazyRE(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

// Validate checks a list of analyzers: unique well-formed names, a summary,
// a valid severity, and documentation examples.
func Validate(analyzers []*Analyzer) error {
	seen := map[string]bool{}
	for _, a := range analyzers {
		switch {
		case !codePattern().MatchString(a.Name):
			return fmt.Errorf("analyzer %q: the name must be kebab-case", a.Name)
		case seen[a.Name]:
			return fmt.Errorf("analyzer %q is listed twice", a.Name)
		case strings.TrimSpace(a.Summary) == "":
			return fmt.Errorf("analyzer %q has no summary", a.Name)
		case a.Severity < source.Error || a.Severity > source.Hint:
			return fmt.Errorf("analyzer %q has no valid severity", a.Name)
		case strings.TrimSpace(a.Bad) == "":
			return fmt.Errorf("analyzer %q has no example of what it reports", a.Name)
		}
		seen[a.Name] = true
	}
	return nil
}

// Lookup finds an analyzer of All by code.
func Lookup(code string) *Analyzer {
	return byName()[code]
}

// byName indexes All by code, on first use.
var byName = sync.OnceValue(func() map[string]*Analyzer {
	m := make(map[string]*Analyzer, len(All))
	for _, a := range All {
		m[a.Name] = a
	}
	return m
})
