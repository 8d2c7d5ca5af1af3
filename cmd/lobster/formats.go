package main

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// informationURI is the home page of lobster, for the SARIF log.
const informationURI = "https://github.com/lobsterdev/lobster"

// sarifTool describes lobster and every code of check.All for the SARIF
// log; relative file names are based on the working directory.
func sarifTool() source.SARIFTool {
	rules := make([]source.SARIFRule, len(check.All))
	for i, a := range check.All {
		help, _ := check.Explain(a.Name)
		rules[i] = source.SARIFRule{
			ID:       a.Name,
			Name:     ruleName(a.Name),
			Summary:  capitalize(a.Summary),
			Doc:      a.Doc,
			Help:     help,
			HelpURI:  check.DocsURL + "#" + a.Name,
			Severity: a.Severity,
		}
	}
	tool := source.SARIFTool{
		Name:           "lobster",
		Version:        version(),
		InformationURI: informationURI,
		Rules:          rules,
	}
	if wd, err := os.Getwd(); err == nil {
		p := filepath.ToSlash(wd)
		if !strings.HasPrefix(p, "/") {
			p = "/" + p // C:/x → /C:/x
		}
		if !strings.HasSuffix(p, "/") {
			p += "/"
		}
		tool.RootURI = (&url.URL{Scheme: "file", Path: p}).String()
	}
	return tool
}

// ruleName is the SARIF rule name of a code: "unknown-step-ref" is
// "UnknownStepRef".
func ruleName(code string) string {
	var b strings.Builder
	for _, part := range strings.Split(code, "-") {
		b.WriteString(capitalize(part))
	}
	return b.String()
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// withRelatedFiles adds to files the text of the other files that related
// locations point into (best effort, read from disk), so that the SARIF and
// GitHub outputs can count their columns in code points.
func withRelatedFiles(files map[string]*source.File, diags []source.Diagnostic) map[string]*source.File {
	tried := map[string]bool{}
	for _, d := range diags {
		for _, r := range d.Related {
			if r.File == "" || files[r.File] != nil || tried[r.File] {
				continue
			}
			tried[r.File] = true
			if data, err := parser.ReadFile(filepath.FromSlash(r.File)); err == nil {
				files[r.File] = source.NewFile(r.File, data)
			}
		}
	}
	return files
}
