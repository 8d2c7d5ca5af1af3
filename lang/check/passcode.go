package check

import "github.com/lobsterdev/lobster/lang/source"

// ReportCode adds a diagnostic under a code other than the analyzer's name,
// for a rule that relays the findings of an external tool under the tool's
// own codes (shellcheck/SC2086). The file and, if unset, the severity are
// set as by Report.
func (p *Pass) ReportCode(code string, d source.Diagnostic) {
	d.Code = code
	d.File = p.File.Src.Name
	if d.Severity == 0 {
		d.Severity = p.Analyzer.Severity
	}
	p.report(d)
}
