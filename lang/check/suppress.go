package check

import (
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// Suppression comments:
//
//	# lobster-ignore: code[, code…] reason
//
// on the line of a finding (after the YAML on that line) or alone on the line
// above it, and
//
//	# lobster-ignore-file: code[, code…] reason
//
// anywhere, for the whole file. A finding is suppressed when its range starts
// on a covered line. A comment inside a block scalar is text, not a comment,
// so it cannot suppress. A suppression naming an unknown code, or that
// suppresses nothing, is itself reported.

const (
	ignorePrefix     = "lobster-ignore:"
	ignoreFilePrefix = "lobster-ignore-file:"
)

// suppression is one parsed comment.
type suppression struct {
	comment *ast.Comment
	codes   []string
	file    bool
	line    int // the line it covers (0 for file-wide)
	used    map[string]bool
}

// parseSuppressions reads the suppression comments of a file.
func parseSuppressions(f *ast.File) []*suppression {
	var out []*suppression
	for _, c := range f.Comments {
		body := strings.TrimSpace(strings.TrimPrefix(c.Text, "#"))
		s := &suppression{comment: c, used: map[string]bool{}}
		switch {
		case strings.HasPrefix(body, ignoreFilePrefix):
			s.file = true
			body = body[len(ignoreFilePrefix):]
		case strings.HasPrefix(body, ignorePrefix):
			body = body[len(ignorePrefix):]
		default:
			continue
		}
		s.codes = parseCodes(body)
		if !s.file {
			pos := f.Src.Pos(c.Pos())
			s.line = pos.Line
			if onlyBlanksBefore(f.Src, c.Pos()) {
				s.line++ // alone on its line: it covers the next one
			}
		}
		out = append(out, s)
	}
	return out
}

// parseCodes reads "code, code reason…": codes are separated by commas;
// the first word that does not end in a comma ends the list.
func parseCodes(body string) []string {
	var codes []string
	for _, word := range strings.Fields(body) {
		more := strings.HasSuffix(word, ",")
		for _, c := range strings.Split(strings.TrimSuffix(word, ","), ",") {
			if c != "" {
				codes = append(codes, c)
			}
		}
		if !more {
			break
		}
	}
	return codes
}

func onlyBlanksBefore(f *source.File, offset int) bool {
	p := f.Pos(offset)
	for _, c := range f.LineText(p.Line)[:p.Col-1] {
		if c != ' ' && c != '\t' {
			return false
		}
	}
	return true
}

// applySuppressions drops suppressed findings and reports bad suppressions.
func applySuppressions(f *ast.File, diags []source.Diagnostic) []source.Diagnostic {
	sups := parseSuppressions(f)
	if len(sups) == 0 {
		return diags
	}
	kept := diags[:0]
	for _, d := range diags {
		if !suppressed(sups, d) {
			kept = append(kept, d)
		}
	}
	for _, s := range sups {
		span := ast.SpanOf(s.comment)
		rng := f.Src.RangeOf(span)
		if len(s.codes) == 0 {
			kept = append(kept, source.Diagnostic{
				File: f.Src.Name, Range: rng, Severity: source.Warning, Code: "bad-suppression",
				Message: "the suppression names no code: write \"# lobster-ignore: code reason\"",
			})
			continue
		}
		for _, code := range s.codes {
			switch {
			case Lookup(code) == nil && !externalCode(code):
				msg := "unknown code " + quote(code) + " in a suppression"
				if near := Suggest(code, Codes()); near != "" {
					msg += "; did you mean " + quote(near) + "?"
				}
				kept = append(kept, source.Diagnostic{File: f.Src.Name, Range: rng, Severity: source.Warning, Code: "bad-suppression", Message: msg})
			case !s.used[code] && !externalCode(code):
				kept = append(kept, source.Diagnostic{
					File: f.Src.Name, Range: rng, Severity: source.Info, Code: "unused-suppression",
					Message: "the suppression of " + quote(code) + " matches no finding; remove it",
					Fixes:   []source.Fix{{Message: "Remove the suppression", Edits: []source.Edit{{Range: rng}}}},
				})
			}
		}
	}
	return kept
}

func suppressed(sups []*suppression, d source.Diagnostic) bool {
	hit := false
	for _, s := range sups {
		if !s.file && s.line != d.Range.Start.Line {
			continue
		}
		for _, c := range s.codes {
			if c == d.Code {
				s.used[c] = true
				hit = true
			}
		}
	}
	return hit
}

// externalCode reports whether code is one of shellcheck's, relayed by the
// shellcheck rule: "shellcheck/SC" and digits. Whether shellcheck runs
// depends on the machine, so its suppressions are never reported unused.
func externalCode(code string) bool {
	n, ok := strings.CutPrefix(code, "shellcheck/SC")
	if !ok || n == "" {
		return false
	}
	for _, c := range n {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Codes lists the codes of All, in order.
func Codes() []string {
	names := make([]string, 0, len(All))
	for _, a := range All {
		names = append(names, a.Name)
	}
	return names
}

// KnownCode reports whether lobster check can report code: a code of All,
// "shellcheck", or a code of shellcheck's relayed as "shellcheck/SC" and
// digits.
func KnownCode(code string) bool {
	return code == "shellcheck" || Lookup(code) != nil || externalCode(code)
}

func quote(s string) string { return "\"" + s + "\"" }
