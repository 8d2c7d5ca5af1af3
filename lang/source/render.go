package source

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
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
// counts as one column). A zero-width range gets a single '^'. A line over
// 160 bytes is clipped around the range, with "..." where text was left
// out. files maps a
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
	fmt.Fprintf(p.w, "%s: %s: %s", p.paint(ansiBold, Printable(location(d.File, d.Range))),
		p.paint(severityColor(d.Severity), d.Severity.String()), Printable(d.Message))
	if d.Code != "" {
		fmt.Fprintf(p.w, " %s", p.paint(ansiDim, "["+Printable(d.Code)+"]"))
	}
	p.w.WriteByte('\n')
	if f := files[d.File]; f != nil && d.Range.IsValid() && d.Range.Start.Line <= f.LineCount() {
		p.snippet(f, d.Range, severityColor(d.Severity))
	}
	for _, r := range d.Related {
		fmt.Fprintf(p.w, "  %s: %s: %s\n", p.paint(ansiBold, Printable(location(r.File, r.Range))),
			p.paint(ansiCyan, "note"), Printable(r.Message))
	}
}

// A source line longer than snippetWidth bytes is shown clipped: from
// snippetBefore bytes before the range, snippetWidth bytes at most, with
// clipMarker where text was left out. A one-line file of a gigabyte prints
// one short line.
const (
	snippetWidth  = 160
	snippetBefore = 40
	clipMarker    = "..."
)

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

	// A long line is clipped around the range, whole runes only, with a
	// marker on each side that lost text.
	var before, after string
	if len(line) > snippetWidth {
		lo := max(0, start-snippetBefore)
		for lo > 0 && !utf8.RuneStart(line[lo]) {
			lo--
		}
		hi := min(len(line), lo+snippetWidth)
		for hi < len(line) && hi > start && !utf8.RuneStart(line[hi]) {
			hi--
		}
		if lo > 0 {
			before = clipMarker
		}
		if hi < len(line) {
			after = clipMarker
		}
		line, start, end = line[lo:hi], start-lo, min(end, hi)-lo
	}

	// Control characters are shown escaped (Printable), and the carets
	// count the runes of the escapes.
	num := strconv.Itoa(r.Start.Line)
	pad := strings.Repeat(" ", len(num))
	gutter := p.paint(ansiDim, " "+num+" |")
	fmt.Fprintf(p.w, "%s %s%s%s\n", gutter, before, Printable(string(line)), after)

	carets := []byte(strings.Repeat(" ", len(before)))
	for _, c := range Printable(string(line[:start])) {
		if c == '\t' {
			carets = append(carets, '\t')
		} else {
			carets = append(carets, ' ')
		}
	}
	marks := []byte{'^'}
	if n := utf8.RuneCountInString(Printable(string(line[start:end]))); n > 1 {
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
	Unsafe  bool   `json:"unsafe,omitempty"`
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
			jd.Fixes[j] = jsonFix(f)
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

// CodePointCol converts the 1-based byte column of p to a 1-based column in
// Unicode code points, counted from the start of p's line in f. A column past
// the end of the line's text (on its line break, or a position f does not
// hold) counts one column per byte there. Invalid positions give 0.
func (f *File) CodePointCol(p Pos) int {
	if !p.IsValid() {
		return 0
	}
	if f == nil || p.Line > f.LineCount() {
		return p.Col
	}
	line := f.LineText(p.Line)
	n := p.Col - 1
	if n < 0 {
		return 1
	}
	if n <= len(line) {
		return utf8.RuneCount(line[:n]) + 1
	}
	return utf8.RuneCount(line) + n - len(line) + 1
}

// WriteGitHub writes diags as GitHub Actions workflow commands, one line per
// diagnostic, so that a workflow run shows them as annotations on the files:
//
//	::error file=f.lobster,line=3,col=16,endLine=3,endColumn=29,title=unknown-step-ref::unknown step "fecth"
//
// Errors become "error", warnings "warning", infos and hints "notice".
// Columns are 1-based and count Unicode code points (files maps a
// diagnostic's file to its text for that; without it the columns are bytes).
// Related locations are appended to the message as lines
// "file:line:col: note: message". Property values are escaped as GitHub's
// toolkit does ('%', CR, LF, ':' and ','), the message ('%', CR, LF).
func WriteGitHub(w io.Writer, files map[string]*File, diags []Diagnostic) error {
	bw := bufio.NewWriter(w)
	for _, d := range diags {
		level := "notice"
		switch d.Severity {
		case Error:
			level = "error"
		case Warning:
			level = "warning"
		}
		bw.WriteString("::" + level + " file=" + githubProperty(d.File))
		if r := d.Range; r.IsValid() {
			f := files[d.File]
			fmt.Fprintf(bw, ",line=%d,col=%d", r.Start.Line, f.CodePointCol(r.Start))
			if r.End.IsValid() {
				fmt.Fprintf(bw, ",endLine=%d,endColumn=%d", r.End.Line, f.CodePointCol(r.End))
			}
		}
		if d.Code != "" {
			bw.WriteString(",title=" + githubProperty(d.Code))
		}
		msg := d.Message
		for _, r := range d.Related {
			msg += "\n" + location(r.File, r.Range) + ": note: " + r.Message
		}
		bw.WriteString("::" + githubData(msg) + "\n")
	}
	return bw.Flush()
}

var (
	githubDataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func githubData(s string) string     { return githubDataEscaper.Replace(s) }
func githubProperty(s string) string { return githubPropertyEscaper.Replace(s) }

// SARIFTool describes the tool of a SARIF log: its name, version, home page
// and the rules (every code it can report).
type SARIFTool struct {
	Name           string
	Version        string
	InformationURI string
	Rules          []SARIFRule
	// RootURI, when set, is the absolute URI (with a trailing slash) that
	// relative file names are resolved against: locations then carry
	// uriBaseId "%SRCROOT%" and the run maps it to RootURI.
	RootURI string
}

// SARIFRule is one reportingDescriptor of a SARIF log.
type SARIFRule struct {
	ID       string   // the diagnostic code
	Name     string   // a readable identifier, such as "UnknownStepRef"
	Summary  string   // one line: shortDescription
	Doc      string   // fullDescription (markdown, kept as text)
	Help     string   // markdown: help (the whole reference entry), or ""
	HelpURI  string   // where the documentation is
	Severity Severity // the default level
}

// The SARIF 2.1.0 object model, as far as WriteSARIF fills it.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                   `json:"tool"`
		OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
		ColumnKind         string                      `json:"columnKind"`
		Results            []sarifResult               `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string        `json:"id"`
		Name                 string        `json:"name,omitempty"`
		ShortDescription     sarifMessage  `json:"shortDescription"`
		FullDescription      sarifMessage  `json:"fullDescription"`
		Help                 *sarifMessage `json:"help,omitempty"`
		HelpURI              string        `json:"helpUri,omitempty"`
		DefaultConfiguration struct {
			Level string `json:"level"`
		} `json:"defaultConfiguration"`
	}
	sarifMessage struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	sarifResult struct {
		RuleID           string          `json:"ruleId,omitempty"`
		RuleIndex        *int            `json:"ruleIndex,omitempty"`
		Level            string          `json:"level"`
		Message          sarifMessage    `json:"message"`
		Locations        []sarifLocation `json:"locations"`
		RelatedLocations []sarifLocation `json:"relatedLocations,omitempty"`
		Fixes            []sarifFix      `json:"fixes,omitempty"`
	}
	sarifLocation struct {
		ID               *int                  `json:"id,omitempty"`
		PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
		Message          *sarifMessage         `json:"message,omitempty"`
	}
	sarifPhysicalLocation struct {
		ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
		Region           *sarifRegion     `json:"region,omitempty"`
	}
	sarifArtifactLoc struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn"`
		EndLine     int `json:"endLine"`
		EndColumn   int `json:"endColumn"`
	}
	sarifContent struct {
		Text string `json:"text"`
	}
	sarifFix struct {
		Description     sarifMessage          `json:"description"`
		ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
	}
	sarifArtifactChange struct {
		ArtifactLocation sarifArtifactLoc   `json:"artifactLocation"`
		Replacements     []sarifReplacement `json:"replacements"`
	}
	sarifReplacement struct {
		DeletedRegion   sarifRegion  `json:"deletedRegion"`
		InsertedContent sarifContent `json:"insertedContent"`
	}
)

// sarifLevel is the SARIF level of a severity: infos and hints are notes.
func sarifLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}

// WriteSARIF writes diags as a SARIF 2.1.0 log with one run of tool: every
// rule of the tool (id, name, descriptions, help, default level), and one
// result per diagnostic with its rule, level, message, location, related
// locations and fixes (as replacements of regions). Errors are level
// "error", warnings "warning", infos and hints "note".
//
// Regions have 1-based lines and 1-based columns counted in Unicode code
// points (the run's columnKind is "unicodeCodePoints"); the end column is
// the one after the last character. files maps a diagnostic's file to its
// text, to count the code points; a file it lacks gets byte columns. File
// names become relative URI references (or file: URIs for absolute paths),
// percent-encoded. The log is indented by two spaces, without HTML escaping.
func WriteSARIF(w io.Writer, files map[string]*File, diags []Diagnostic, tool SARIFTool) error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           tool.Name,
			Version:        tool.Version,
			InformationURI: tool.InformationURI,
			Rules:          make([]sarifRule, len(tool.Rules)),
		}},
		ColumnKind: "unicodeCodePoints",
		Results:    make([]sarifResult, 0, len(diags)),
	}
	if tool.RootURI != "" {
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{"%SRCROOT%": {URI: tool.RootURI}}
	}
	index := make(map[string]int, len(tool.Rules))
	for i, r := range tool.Rules {
		sr := sarifRule{
			ID:               r.ID,
			Name:             r.Name,
			ShortDescription: sarifMessage{Text: r.Summary},
			FullDescription:  sarifMessage{Text: r.Summary},
			HelpURI:          r.HelpURI,
		}
		if doc := strings.TrimSpace(r.Doc); doc != "" {
			sr.FullDescription = sarifMessage{Text: doc}
		}
		if help := strings.TrimSpace(r.Help); help != "" {
			sr.Help = &sarifMessage{Text: help, Markdown: help}
		}
		sr.DefaultConfiguration.Level = sarifLevel(r.Severity)
		run.Tool.Driver.Rules[i] = sr
		index[r.ID] = i
	}
	artifact := func(name string) sarifArtifactLoc {
		return sarifArtifactLocation(name, tool.RootURI != "")
	}
	region := func(file string, r Range) *sarifRegion {
		if !r.IsValid() {
			return nil
		}
		f := files[file]
		end := r.End
		if !end.IsValid() {
			end = r.Start
		}
		return &sarifRegion{
			StartLine:   r.Start.Line,
			StartColumn: f.CodePointCol(r.Start),
			EndLine:     end.Line,
			EndColumn:   f.CodePointCol(end),
		}
	}
	for _, d := range diags {
		res := sarifResult{
			RuleID:  d.Code,
			Level:   sarifLevel(d.Severity),
			Message: sarifMessage{Text: d.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysicalLocation{
				ArtifactLocation: artifact(d.File),
				Region:           region(d.File, d.Range),
			}}},
		}
		if i, ok := index[d.Code]; ok {
			res.RuleIndex = &i
		}
		for i, r := range d.Related {
			id := i
			res.RelatedLocations = append(res.RelatedLocations, sarifLocation{
				ID: &id,
				PhysicalLocation: sarifPhysicalLocation{
					ArtifactLocation: artifact(r.File),
					Region:           region(r.File, r.Range),
				},
				Message: &sarifMessage{Text: r.Message},
			})
		}
		for _, fx := range d.Fixes {
			change := sarifArtifactChange{ArtifactLocation: artifact(d.File), Replacements: []sarifReplacement{}}
			for _, e := range fx.Edits {
				reg := region(d.File, e.Range)
				if reg == nil {
					continue
				}
				change.Replacements = append(change.Replacements, sarifReplacement{
					DeletedRegion:   *reg,
					InsertedContent: sarifContent{Text: e.NewText},
				})
			}
			if len(change.Replacements) == 0 {
				continue
			}
			res.Fixes = append(res.Fixes, sarifFix{
				Description:     sarifMessage{Text: fx.Message},
				ArtifactChanges: []sarifArtifactChange{change},
			})
		}
		run.Results = append(run.Results, res)
	}
	log := sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(log)
}

// sarifArtifactLocation is the artifactLocation of a file name: a file: URI
// for an absolute path, otherwise a relative reference (based on %SRCROOT%
// when based is true). Names use forward slashes; the path is percent-encoded.
func sarifArtifactLocation(name string, based bool) sarifArtifactLoc {
	if strings.HasPrefix(name, "/") {
		return sarifArtifactLoc{URI: (&url.URL{Scheme: "file", Path: name}).String()}
	}
	if len(name) >= 3 && name[1] == ':' && (name[2] == '/' || name[2] == '\\') {
		// A Windows drive path.
		return sarifArtifactLoc{URI: (&url.URL{Scheme: "file", Path: "/" + strings.ReplaceAll(name, "\\", "/")}).String()}
	}
	loc := sarifArtifactLoc{URI: (&url.URL{Path: name}).String()}
	if based {
		loc.URIBaseID = "%SRCROOT%"
	}
	return loc
}

// diffContext is the number of unchanged lines around each hunk of a
// unified diff.
const diffContext = 3

// WriteUnifiedDiff writes the changes from old to new as a unified diff
// (the format of diff -u and git diff, with 3 lines of context), under the
// headers "--- oldName" and "+++ newName". Lines are compared whole; a last
// line without a line break is marked "\ No newline at end of file". Nothing
// is written when the texts are equal.
func WriteUnifiedDiff(w io.Writer, oldName, newName string, old, new []byte) error {
	if bytes.Equal(old, new) {
		return nil
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // an exact diff: workflow files are small
	a, b, lines := dmp.DiffLinesToRunes(string(old), string(new))
	diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(a, b, false), lines)

	// One entry per line: ' ' kept, '-' removed, '+' added.
	type lineOp struct {
		kind byte
		text string
	}
	var ops []lineOp
	for _, d := range diffs {
		kind := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			kind = '-'
		case diffmatchpatch.DiffInsert:
			kind = '+'
		}
		for t := d.Text; t != ""; {
			n := strings.IndexByte(t, '\n') + 1
			if n == 0 {
				n = len(t)
			}
			ops = append(ops, lineOp{kind, t[:n]})
			t = t[n:]
		}
	}
	// oldBefore[i] and newBefore[i] count the lines of each text before op i.
	oldBefore := make([]int, len(ops)+1)
	newBefore := make([]int, len(ops)+1)
	for i, op := range ops {
		oldBefore[i+1], newBefore[i+1] = oldBefore[i], newBefore[i]
		if op.kind != '+' {
			oldBefore[i+1]++
		}
		if op.kind != '-' {
			newBefore[i+1]++
		}
	}

	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "--- %s\n+++ %s\n", oldName, newName)
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from context lines before the first change to context
		// lines after the last change that is less than 2*context+1
		// unchanged lines away from the next one.
		start := max(0, i-diffContext)
		end := i // one past the last change
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j + 1
			} else if j-end >= 2*diffContext {
				break
			}
		}
		stop := min(len(ops), end+diffContext)
		oldCount, newCount := oldBefore[stop]-oldBefore[start], newBefore[stop]-newBefore[start]
		fmt.Fprintf(bw, "@@ -%s +%s @@\n", hunkRange(oldBefore[start], oldCount), hunkRange(newBefore[start], newCount))
		for _, op := range ops[start:stop] {
			bw.WriteByte(op.kind)
			bw.WriteString(op.text)
			if !strings.HasSuffix(op.text, "\n") {
				bw.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = stop
	}
	return bw.Flush()
}

// hunkRange formats one side of a hunk header: "start,count", or "start"
// when count is 1. An empty side is numbered by the line before it.
func hunkRange(before, count int) string {
	switch count {
	case 0:
		return strconv.Itoa(before) + ",0"
	case 1:
		return strconv.Itoa(before + 1)
	}
	return strconv.Itoa(before+1) + "," + strconv.Itoa(count)
}
