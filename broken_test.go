package lobster_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/internal/corpustest"
	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// The broken-variant measurement: how well the checker recovers from a YAML
// error. Each variant is a file with one edit that a person makes by
// accident (a quote deleted, an indentation shifted, a colon dropped, a tab
// typed). The edits are chosen by text patterns, not by the parser, so that
// the measurement does not depend on the code it measures. A variant counts
// only when the edit breaks the YAML (the parser reports a new yaml-*
// error); an edit that leaves valid YAML makes another, valid file.
//
// A finding of a variant is an independent true positive when
//   - it is a yaml-* error that the unbroken file has too (same code and
//     message at the corresponding place), or the first new yaml-* error
//     (the report of the edit itself: one per cause), or
//   - the unbroken file has the same finding (same code, same message) at the
//     corresponding place, and it does not start on an edited line.
//
// "The corresponding place" maps an offset of the variant through the edit:
// offsets before it are unchanged, offsets after it shift by the edit's
// length. Every other finding is a cascade: a second report of the broken
// line, or a finding about what recovery made of the broken region (keys
// moved to another level, a scalar cut short, a reference lost with the
// text around it). The target is none.

// brokenEdit is one accidental edit.
type brokenEdit struct {
	kind   string
	at     int    // offset in the original
	del    int    // bytes removed at at
	insert string // text inserted at at
}

func (e brokenEdit) apply(src []byte) []byte {
	out := append([]byte(nil), src[:e.at]...)
	out = append(out, e.insert...)
	return append(out, src[e.at+e.del:]...)
}

// toOriginal maps an offset of the variant to the original, or -1 inside
// the edit.
func (e brokenEdit) toOriginal(o int) int {
	switch {
	case o < e.at:
		return o
	case o >= e.at+len(e.insert):
		return o - len(e.insert) + e.del
	}
	return -1
}

var (
	// a line that starts a block mapping key, possibly after "- ".
	keyLine = regexp.MustCompile(`(?m)^( *)(- )?([A-Za-z_][A-Za-z0-9_.-]*):( |$)`)
	// a key line whose value starts with a quote.
	quotedValue = regexp.MustCompile(`(?m)^ *(?:- )?[A-Za-z_][A-Za-z0-9_.-]*: (["'])[^\n]*$`)
)

// brokenEdits lists the edits of a file: per kind, up to perKind sites
// spread evenly over the file.
func brokenEdits(src []byte, perKind int) []brokenEdit {
	var byKind = map[string][]brokenEdit{}
	add := func(e brokenEdit) { byKind[e.kind] = append(byKind[e.kind], e) }
	for _, m := range keyLine.FindAllSubmatchIndex(src, -1) {
		lineStart, indentEnd := m[0], m[3]
		keyStart := m[6]
		colon := m[7]
		if m[4] >= 0 {
			keyStart = m[5]
		}
		add(brokenEdit{kind: "drop-colon", at: colon, del: 1})
		if indentEnd > lineStart || m[4] >= 0 {
			add(brokenEdit{kind: "indent+1", at: lineStart, insert: " "})
			add(brokenEdit{kind: "tab", at: keyStart, insert: "\t"})
		}
		if indentEnd-lineStart >= 2 {
			add(brokenEdit{kind: "dedent-2", at: lineStart, del: 2})
		}
	}
	for _, m := range quotedValue.FindAllSubmatchIndex(src, -1) {
		open := m[2]
		add(brokenEdit{kind: "quote-open", at: open, del: 1})
		end := m[1]
		if end > 0 && src[end-1] == '\r' {
			end--
		}
		if end-1 > open && src[end-1] == src[open] {
			add(brokenEdit{kind: "quote-close", at: end - 1, del: 1})
		}
	}
	var out []brokenEdit
	for _, kind := range []string{"quote-open", "quote-close", "indent+1", "dedent-2", "drop-colon", "tab"} {
		sites := byKind[kind]
		n := min(perKind, len(sites))
		for k := 0; k < n; k++ {
			out = append(out, sites[(2*k+1)*len(sites)/(2*n)])
		}
	}
	return out
}

// brokenResult is the measurement of one variant.
type brokenResult struct {
	name    string // file:line kind
	broken  bool   // the edit broke the YAML
	total   int    // findings of the variant
	cascade []source.Diagnostic
	kept    int // findings of the unbroken file still reported
	orig    int // findings of the unbroken file off the edited line
	lost    map[string]int
}

// sameWording undoes the one change of wording that a YAML error makes in
// an otherwise identical finding: the reference rejects a broken file, so
// a message no longer says that it ignores a key.
func sameWording(msg string) string {
	msg = strings.Replace(msg, "; Lobster does not read it", "; the reference ignores it", 1)
	if strings.Contains(msg, "is not read on a parallel branch (") && !strings.Contains(msg, "; the reference ignores it: ") {
		if i := strings.Index(msg, "): "); i >= 0 {
			msg = msg[:i] + "); the reference ignores it: " + msg[i+3:]
		}
	}
	return msg
}

func checkSource(name string, src []byte, opts check.Options) []source.Diagnostic {
	f, diags := parser.Parse(name, src)
	return check.RunWith(f, diags, check.Rules, opts)
}

func isYAMLCode(code string) bool { return strings.HasPrefix(code, "yaml-") }

// measureVariant checks one variant against the unbroken file's findings.
func measureVariant(name string, src []byte, orig []source.Diagnostic, e brokenEdit, opts check.Options) brokenResult {
	variant := e.apply(src)
	res := brokenResult{}
	line := 1 + strings.Count(string(src[:e.at]), "\n")
	res.name = fmt.Sprintf("%s:%d %s", name, line, e.kind)
	diags := checkSource(name, variant, opts)
	vf := source.NewFile(name, variant)
	// The edited lines of the variant: the line of the edit (an edit that
	// removes a line break joins two lines into it).
	editLine := vf.Pos(e.at).Line
	type key struct {
		code, msg string
		off       int
	}
	have := map[key]int{}
	for _, d := range orig {
		have[key{d.Code, sameWording(d.Message), d.Range.Start.Offset}]++
	}
	newYAML := 0
	for _, d := range diags {
		res.total++
		o := e.toOriginal(d.Range.Start.Offset)
		k := key{d.Code, sameWording(d.Message), o}
		if o >= 0 && have[k] > 0 && (d.Range.Start.Line != editLine || isYAMLCode(d.Code)) {
			have[k]--
			res.kept++
			continue
		}
		if isYAMLCode(d.Code) && d.Severity == source.Error {
			newYAML++
			if newYAML == 1 {
				continue
			}
		}
		res.cascade = append(res.cascade, d)
	}
	res.broken = newYAML > 0
	res.lost = map[string]int{}
	for _, d := range orig {
		if d.Range.Start.Line != line {
			res.orig++
		}
	}
	for k, n := range have {
		if n > 0 {
			res.lost[k.code] += n
		}
	}
	return res
}

// runBrokenVariants measures every variant of every file and returns the
// report.
func runBrokenVariants(t *testing.T, files []string, perKind int, opts check.Options) (string, int) {
	var results []brokenResult
	notBroken := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(path)
		o := opts
		o.Path = path
		orig := checkSource(name, src, o)
		for _, e := range brokenEdits(src, perKind) {
			r := measureVariant(name, src, orig, e, o)
			if !r.broken {
				notBroken++
				continue
			}
			results = append(results, r)
		}
	}
	sort.SliceStable(results, func(i, j int) bool { return results[i].name < results[j].name })
	var b strings.Builder
	cascades, dirty, kept, orig := 0, 0, 0, 0
	lost := map[string]int{}
	for _, r := range results {
		for c, n := range r.lost {
			lost[c] += n
		}
		cascades += len(r.cascade)
		if len(r.cascade) > 0 {
			dirty++
		}
		kept += r.kept
		orig += r.orig
	}
	fmt.Fprintf(&b, "variants: %d broken (%d edits left valid YAML and are not counted)\n", len(results), notBroken)
	fmt.Fprintf(&b, "cascade findings: %d, in %d variants\n", cascades, dirty)
	fmt.Fprintf(&b, "findings of the unbroken files kept: %d of %d off the edited lines\n", kept, orig)
	codes := make([]string, 0, len(lost))
	for c := range lost {
		codes = append(codes, c)
	}
	sort.Slice(codes, func(i, j int) bool {
		return lost[codes[i]] > lost[codes[j]] || lost[codes[i]] == lost[codes[j]] && codes[i] < codes[j]
	})
	b.WriteString("not reported on the broken variants, by code:")
	for _, c := range codes {
		fmt.Fprintf(&b, " %s %d", c, lost[c])
	}
	b.WriteString("\n\n")
	for _, r := range results {
		fmt.Fprintf(&b, "%s: %d findings, %d cascade\n", r.name, r.total, len(r.cascade))
		for _, d := range r.cascade {
			fmt.Fprintf(&b, "\t%d:%d %s %s: %s\n", d.Range.Start.Line, d.Range.Start.Col, d.Severity, d.Code, firstLine(d.Message))
		}
	}
	return b.String(), cascades
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// logReport logs the summary of a measurement, the whole report with -v,
// and the variants that have cascades always.
func logReport(t *testing.T, report string) {
	head, body, _ := strings.Cut(report, "\n\n")
	t.Log("\n" + head)
	if testing.Verbose() {
		t.Log("\n" + body)
		return
	}
	var dirty []string
	for _, v := range strings.Split(body, "\n") {
		if strings.HasPrefix(v, "\t") || strings.HasSuffix(v, " cascade") && !strings.HasSuffix(v, " 0 cascade") {
			dirty = append(dirty, v)
		}
	}
	if len(dirty) > 0 {
		t.Log("\n" + strings.Join(dirty, "\n"))
	}
}

func brokenOptions() check.Options {
	return check.Options{Shellcheck: os.Getenv("LOBSTER_BROKEN_SHELLCHECK")}
}

// TestBrokenVariantsCorpus measures recovery on broken variants of the
// real-world files in ../shared/corpus (go test -run BrokenVariants -v .
// prints the report of every variant; LOBSTER_BROKEN_SHELLCHECK=shellcheck
// runs shellcheck too, which takes minutes).
func TestBrokenVariantsCorpus(t *testing.T) {
	var inputs []string
	for _, f := range corpustest.Files(t, "the broken-variant measurement on real files") {
		if parser.IsWorkflowName(f) {
			inputs = append(inputs, f)
		}
	}
	report, cascades := runBrokenVariants(t, inputs, 3, brokenOptions())
	logReport(t, report)
	if cascades > 0 {
		t.Errorf("%d cascade findings on broken variants of the corpus (the cascades are listed above)", cascades)
	}
}

// TestBrokenVariantsSynthetic is the same measurement on files of the
// repository (the examples and the checker's test data), so that it runs
// without the corpus.
func TestBrokenVariantsSynthetic(t *testing.T) {
	var inputs []string
	for _, pattern := range []string{"examples/*", "lang/check/testdata/*/*", "testdata/broken/*"} {
		files, _ := filepath.Glob(pattern)
		for _, f := range files {
			if parser.IsWorkflowName(f) && !strings.HasSuffix(f, ".json") {
				inputs = append(inputs, f)
			}
		}
	}
	if len(inputs) < 100 {
		t.Fatalf("only %d synthetic inputs", len(inputs))
	}
	report, cascades := runBrokenVariants(t, inputs, 1, brokenOptions())
	logReport(t, report)
	if cascades > 0 {
		t.Errorf("%d cascade findings on broken variants of the repository's files (the cascades are listed above)", cascades)
	}
}
