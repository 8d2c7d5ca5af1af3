package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/config"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// displayPath is how a configuration file is named in output: relative to
// the working directory when it is below it, else as it is.
func displayPath(p string) string {
	wd, err := os.Getwd()
	if err != nil {
		return p
	}
	rel, err := filepath.Rel(wd, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return p
	}
	return filepath.ToSlash(rel)
}

// configDiagnostics are the diagnostics of configurations under their
// display names, with their files for the text output.
func configDiagnostics(cfgs []*config.Config) ([]source.Diagnostic, map[string]*source.File) {
	var diags []source.Diagnostic
	files := map[string]*source.File{}
	for _, c := range cfgs {
		if c == nil || len(c.Diags) == 0 {
			continue
		}
		name := displayPath(c.Path)
		files[name] = c.Src
		for _, d := range c.Diags {
			d.File = name
			diags = append(diags, d)
		}
	}
	return diags, files
}

// projectConfig is the project configuration of the workflow file at path
// for run, plan and graph, or nil; its errors and warnings go to w.
func projectConfig(path string, w io.Writer) *config.Config {
	p := config.Find(filepath.Dir(path))
	if p == "" {
		return nil
	}
	c := config.Load(p)
	diags, files := configDiagnostics([]*config.Config{c})
	var shown []source.Diagnostic
	for _, d := range diags {
		if d.Severity <= source.Warning {
			shown = append(shown, d)
		}
	}
	if len(shown) > 0 {
		source.WriteText(w, files, shown, false)
	}
	return c
}

// analyzeConfigured is lobster check's analyzer: the parser and the
// checker with the shellcheck program bin ("" for none) and the project
// configuration of each file, found by finder.
func analyzeConfigured(bin string, finder *config.Finder) analyzer {
	return func(name string, src []byte) (*source.File, []source.Diagnostic) {
		if config.IsConfigName(name) {
			// A configuration file named as a path: its own findings.
			c := config.Parse(name, src)
			return c.Src, c.Diags
		}
		cfg := finder.For(name)
		file, diags := parser.Parse(name, src)
		diags, _ = cfg.Check(context.Background(), file, diags, check.Options{Path: file.Src.Name, Shellcheck: bin})
		return file.Src, diags
	}
}

// checkIgnoreCodes checks the codes of run --ignore: codes the checker
// reports, and no load error (the reference rejects such a file: there is
// no run to let through).
func checkIgnoreCodes(codes []string) error {
	for _, code := range codes {
		switch {
		case parser.IsLoadCode(code):
			return fmt.Errorf("--ignore %s: a load error cannot be ignored: the reference rejects such a file", code)
		case check.KnownCode(code):
		default:
			msg := fmt.Sprintf("--ignore %s: unknown code", code)
			if near := check.Suggest(code, check.Codes()); near != "" {
				msg += fmt.Sprintf("; did you mean %q?", near)
			}
			return errors.New(msg)
		}
	}
	return nil
}

// demoteIgnored turns the errors of the codes of run --ignore into
// warnings that say so: shown, but no reason to refuse the run.
func demoteIgnored(diags []source.Diagnostic, ignore []string) []source.Diagnostic {
	if len(ignore) == 0 {
		return diags
	}
	set := map[string]bool{}
	for _, c := range ignore {
		set[c] = true
	}
	for i, d := range diags {
		if d.Severity != source.Error || parser.IsLoadError(d) {
			continue
		}
		if set[d.Code] || strings.HasPrefix(d.Code, "shellcheck/") && set["shellcheck"] {
			diags[i].Severity = source.Warning
			diags[i].Message += " (not stopping this run: --ignore " + d.Code + ")"
		}
	}
	return diags
}

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
