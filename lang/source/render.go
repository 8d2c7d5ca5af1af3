package source

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ANSI escapes used by [WriteText] when colour is on.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[1;31m"
	ansiYellow = "\x1b[1;33m"
	ansiBlue   = "\x1b[1;34m"
	ansiCyan   = "\x1b[1;36m"
	ansiDim    = "\x1b[2m"
)

// WriteText writes diags for people: for each diagnostic the line
//
//	file:line:col: severity: message [code]
//
// then, when files holds the diagnostic's file, the source line and a caret
// line that underlines the diagnostic's range (clipped to its first line),
// both behind a line-number gutter:
//
//	f.lobster:12:16: error: unknown step "fecth" [unknown-step-ref]
//	 12 |     run: echo "$fecth.stdout"
//	    |                ^~~~~~~~~~~~~
//
// then each related location as "  file:line:col: note: message".
//
// The caret line repeats the tabs of the source line and puts one space per
// other rune before the range and one mark per rune inside it, so that it lines
// up under the text whatever the tab width and for multi-byte UTF-8 (each rune
// counts as one column). A zero-width range gets a single '^'. files maps a
// diagnostic's File to its text; a diagnostic whose file is missing, or whose
// range is not valid, is written without a snippet. ANSI colours are used only
// when color is true. Diagnostics are written in the order given.
func WriteText(w io.Writer, files map[string]*File, diags []Diagnostic, color bool) error {
	bw := bufio.NewWriter(w)
	p := textPrinter{w: bw, color: color}
	for _, d := range diags {
		p.diagnostic(files, d)
	}
	return bw.Flush()
}

type textPrinter struct {
	w     *bufio.Writer
	color bool
}

// paint wraps s in the escape code when colour is on.
func (p *textPrinter) paint(code, s string) string {
	if !p.color || s == "" {
		return s
	}
	return code + s + ansiReset
}

func severityColor(s Severity) string {
	switch s {
	case Error:
		return ansiRed
	case Warning:
		return ansiYellow
	case Info:
		return ansiBlue
	default:
		return ansiCyan
	}
}

// location formats "file:line:col" (or just "file" when r has no position).
func location(file string, r Range) string {
	if !r.IsValid() {
		return file
	}
	return file + ":" + strconv.Itoa(r.Start.Line) + ":" + strconv.Itoa(r.Start.Col)
}

func (p *textPrinter) diagnostic(files map[string]*File, d Diagnostic) {
	fmt.Fprintf(p.w, "%s: %s: %s", p.paint(ansiBold, location(d.File, d.Range)),
		p.paint(severityColor(d.Severity), d.Severity.String()), d.Message)
	if d.Code != "" {
		fmt.Fprintf(p.w, " %s", p.paint(ansiDim, "["+d.Code+"]"))
	}
	p.w.WriteByte('\n')
	if f := files[d.File]; f != nil && d.Range.IsValid() && d.Range.Start.Line <= f.LineCount() {
		p.snippet(f, d.Range, severityColor(d.Severity))
	}
	for _, r := range d.Related {
		fmt.Fprintf(p.w, "  %s: %s: %s\n", p.paint(ansiBold, location(r.File, r.Range)),
			p.paint(ansiCyan, "note"), r.Message)
	}
}

// snippet writes the first line of r and the caret line under it.
func (p *textPrinter) snippet(f *File, r Range, caretColor string) {
	line := f.LineText(r.Start.Line)
	start := r.Start.Col - 1
	if start < 0 {
		start = 0
	}
	if start > len(line) {
		start = len(line)
	}
	end := start
	if r.End.Line == r.Start.Line {
		end = r.End.Col - 1
	} else if r.End.Line > r.Start.Line {
		end = len(line) // multi-line: clip to the end of the first line
	}
	if end > len(line) {
		end = len(line)
	}
	if end < start {
		end = start
	}

	num := strconv.Itoa(r.Start.Line)
	pad := strings.Repeat(" ", len(num))
	gutter := p.paint(ansiDim, " "+num+" |")
	fmt.Fprintf(p.w, "%s %s\n", gutter, line)

	var carets []byte
	for _, c := range string(line[:start]) {
		if c == '\t' {
			carets = append(carets, '\t')
		} else {
			carets = append(carets, ' ')
		}
	}
	marks := []byte{'^'}
	if n := utf8.RuneCount(line[start:end]); n > 1 {
		for i := 1; i < n; i++ {
			marks = append(marks, '~')
		}
	}
	fmt.Fprintf(p.w, "%s %s%s\n", p.paint(ansiDim, " "+pad+" |"), carets, p.paint(caretColor, string(marks)))
}

// The JSON shapes below mirror [Diagnostic] and [Fix] field for field. They
// exist because those types' MarshalJSON methods go through json.Marshal,
// which escapes '<', '>' and '&'; WriteJSON writes text unescaped.
type jsonDiagnostic struct {
	File     string    `json:"file"`
	Range    Range     `json:"range"`
	Severity Severity  `json:"severity"`
	Code     string    `json:"code"`
	Message  string    `json:"message"`
	Related  []Related `json:"related"`
	Fixes    []jsonFix `json:"fixes"`
}

type jsonFix struct {
	Message string `json:"message"`
	Edits   []Edit `json:"edits"`
}

// WriteJSON writes diags as one JSON array, indented by two spaces and
// without HTML escaping, in the order given. The array is "[]" when diags is
// empty, and so are the related, fixes and edits lists of each diagnostic. The
// shape is the JSON form of [Diagnostic]:
//
//	[{"file": "…", "range": {"start": {"offset", "line", "col"}, "end": {…}},
//	  "severity": "error"|"warning"|"info"|"hint", "code": "…", "message": "…",
//	  "related": [{"file", "range", "message"}],
//	  "fixes": [{"message": "…", "edits": [{"range": {…}, "newText": "…"}]}]}]
func WriteJSON(w io.Writer, diags []Diagnostic) error {
	out := make([]jsonDiagnostic, len(diags))
	for i, d := range diags {
		jd := jsonDiagnostic{
			File:     d.File,
			Range:    d.Range,
			Severity: d.Severity,
			Code:     d.Code,
			Message:  d.Message,
			Related:  d.Related,
			Fixes:    make([]jsonFix, len(d.Fixes)),
		}
		if jd.Related == nil {
			jd.Related = []Related{}
		}
		for j, f := range d.Fixes {
			jd.Fixes[j] = jsonFix{Message: f.Message, Edits: f.Edits}
			if jd.Fixes[j].Edits == nil {
				jd.Fixes[j].Edits = []Edit{}
			}
		}
		out[i] = jd
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(out)
}
