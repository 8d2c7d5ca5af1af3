package check

import (
	"fmt"
	"strings"

	"golang.org/x/tools/txtar"
)

// DocsURL is where the generated reference (docs/diagnostics.md) is published;
// a code's entry is at DocsURL + "#" + code.
const DocsURL = "https://github.com/lobsterdev/lobster/blob/main/docs/diagnostics.md"

// Explain is the documentation of one code, as `lobster check --explain`
// prints it, or false for an unknown code.
func Explain(code string) (string, bool) {
	a := Lookup(code)
	if a == nil {
		return "", false
	}
	var b strings.Builder
	writeEntry(&b, a, false)
	return b.String(), true
}

// Markdown renders the reference of every code, in the order of analyzers:
// this is docs/diagnostics.md.
func Markdown(analyzers []*Analyzer) string {
	var b strings.Builder
	b.WriteString("# Diagnostics reference\n\n")
	b.WriteString("<!-- Generated from lang/check (go test ./lang/check -update); do not edit. -->\n\n")
	b.WriteString("Every finding of `lobster check` and of the language server has one of these codes. ")
	b.WriteString("`lobster check --explain CODE` prints an entry. Suppress a finding with ")
	b.WriteString("`# lobster-ignore: CODE reason` on its line or the line above, or for a whole file with ")
	b.WriteString("`# lobster-ignore-file: CODE reason`.\n\n")
	b.WriteString("| code | severity | what it catches |\n|---|---|---|\n")
	for _, a := range analyzers {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s |\n", a.Name, a.Name, a.Severity, a.Summary)
	}
	b.WriteString("\n")
	for _, a := range analyzers {
		writeEntry(&b, a, true)
	}
	return b.String()
}

func writeEntry(b *strings.Builder, a *Analyzer, markdown bool) {
	if markdown {
		fmt.Fprintf(b, "## %s\n\n", a.Name)
	} else {
		fmt.Fprintf(b, "%s\n\n", a.Name)
	}
	fmt.Fprintf(b, "Default severity: %s. %s\n\n", a.Severity, sentence(a.Summary))
	if a.Doc != "" {
		b.WriteString(strings.TrimSpace(a.Doc) + "\n\n")
	}
	switch {
	case strings.HasPrefix(a.Name, "config-"):
		b.WriteString("Reported on the project configuration file by its reader.\n\n")
	case a.Run == nil:
		b.WriteString("Reported by the parser.\n\n")
	}
	example := func(title, text string) {
		name, main, files := exampleFiles(text)
		if strings.TrimSpace(main) == "" {
			return
		}
		if name != "" {
			title += fmt.Sprintf(" (`%s`)", name)
		}
		fmt.Fprintf(b, "%s:\n\n```yaml\n%s\n```\n\n", title, strings.Trim(main, "\n"))
		for _, f := range files {
			fmt.Fprintf(b, "With `%s`:\n\n```yaml\n%s\n```\n\n", f.Name, strings.Trim(string(f.Data), "\n"))
		}
	}
	example("Reported", a.Bad)
	example("Instead", a.Good)
	if a.Fix != "" {
		fmt.Fprintf(b, "Fix: %s\n\n", sentence(a.Fix))
	}
}

func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// exampleFiles splits an analyzer's Bad or Good example into the workflow
// and the files it refers to. An example is a workflow (a whole file, or a
// list of steps) optionally followed by files in txtar form, each after a
// line "-- child.lobster --". An example that starts with such a line
// names its workflow file: the first file is the workflow, called name.
func exampleFiles(text string) (name, main string, files []txtar.File) {
	ar := txtar.Parse([]byte(text))
	main, files = string(ar.Comment), ar.Files
	if strings.TrimSpace(main) == "" && len(files) > 0 {
		name, main, files = files[0].Name, string(files[0].Data), files[1:]
	}
	return name, main, files
}
