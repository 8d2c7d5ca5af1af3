package source

import (
	"encoding/json"
	"fmt"
	"sort"
)

// Severity ranks a diagnostic. The numbers follow LSP; zero is invalid.
type Severity int

// Severities, most severe first.
const (
	Error Severity = iota + 1
	Warning
	Info
	Hint
)

var severityNames = [...]string{"", "error", "warning", "info", "hint"}

// String is the lower-case name of s ("error", "warning", "info", "hint").
func (s Severity) String() string {
	if s < Error || s > Hint {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// ParseSeverity is the inverse of [Severity.String].
func ParseSeverity(name string) (Severity, bool) {
	for i, n := range severityNames {
		if i > 0 && n == name {
			return Severity(i), true
		}
	}
	return 0, false
}

// MarshalJSON writes the severity's name.
func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON reads a severity's name.
func (s *Severity) UnmarshalJSON(b []byte) error {
	var name string
	if err := json.Unmarshal(b, &name); err != nil {
		return err
	}
	v, ok := ParseSeverity(name)
	if !ok {
		return fmt.Errorf("unknown severity %q", name)
	}
	*s = v
	return nil
}

// Diagnostic is one finding: a parse error, a load-time rule of the reference
// or a checker rule. Its fields map one to one onto LSP's Diagnostic and onto
// the JSON output of `lobster check --format json`.
type Diagnostic struct {
	File     string    `json:"file"`
	Range    Range     `json:"range"`
	Severity Severity  `json:"severity"`
	Code     string    `json:"code"` // stable kebab-case rule code
	Message  string    `json:"message"`
	Related  []Related `json:"related"`
	Fixes    []Fix     `json:"fixes"`
}

// Related points at another place that explains a diagnostic.
type Related struct {
	File    string `json:"file"`
	Range   Range  `json:"range"`
	Message string `json:"message"`
}

// Fix is a suggested change, as text edits in the diagnostic's file. An
// unsafe fix may change what the workflow does (the author must choose);
// `lobster check --fix` applies only safe ones unless asked.
type Fix struct {
	Message string `json:"message"`
	Edits   []Edit `json:"edits"`
	Unsafe  bool   `json:"unsafe,omitempty"`
}

// Edit replaces the text of Range with NewText.
type Edit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// MarshalJSON writes empty related and fixes lists as [] rather than null,
// so that consumers can index them without a check.
func (d Diagnostic) MarshalJSON() ([]byte, error) {
	type plain Diagnostic
	p := plain(d)
	if p.Related == nil {
		p.Related = []Related{}
	}
	if p.Fixes == nil {
		p.Fixes = []Fix{}
	}
	return json.Marshal(p)
}

// MarshalJSON writes an empty edit list as [].
func (f Fix) MarshalJSON() ([]byte, error) {
	type plain Fix
	p := plain(f)
	if p.Edits == nil {
		p.Edits = []Edit{}
	}
	return json.Marshal(p)
}

// Sort orders diagnostics by file, start offset, end offset, code and message.
func Sort(diags []Diagnostic) {
	sort.SliceStable(diags, func(i, j int) bool { return Less(diags[i], diags[j]) })
}

// Less is the order used by [Sort].
func Less(a, b Diagnostic) bool {
	if a.File != b.File {
		return a.File < b.File
	}
	if a.Range.Start.Offset != b.Range.Start.Offset {
		return a.Range.Start.Offset < b.Range.Start.Offset
	}
	if a.Range.End.Offset != b.Range.End.Offset {
		return a.Range.End.Offset < b.Range.End.Offset
	}
	if a.Code != b.Code {
		return a.Code < b.Code
	}
	return a.Message < b.Message
}

// HasErrors reports whether any diagnostic has error severity.
func HasErrors(diags []Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// String formats d in the one-line form "file:line:col: severity: message [code]".
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s]", d.File, d.Range.Start.Line, d.Range.Start.Col, d.Severity, d.Message, d.Code)
}
