package check

import (
	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// IDShadowsShellVar reports step ids equal to a common environment variable
// or to a name set in an env block.
var IDShadowsShellVar = &Analyzer{
	Name:     "id-shadows-shell-var",
	Severity: source.Info,
	Summary:  "a step id has the name of a shell variable, so \"$NAME.word\" in shell text becomes a step reference",
	Doc: "Lobster replaces every `$id.path` whose id has a result, before the shell runs, even " +
		"where the author meant a shell variable followed by a dot: with a step `HOME`, " +
		"`cp x \"$HOME.bak\"` copies to the step's (empty) `bak` field instead of `/home/me.bak`. Ids " +
		"equal to a well-known variable (`HOME`, `PATH`, `USER`, `TMPDIR`, …) or to a name set in an " +
		"`env` block of the file are reported.",
	Bad:  "- id: HOME\n  run: ./find-home.sh",
	Good: "- id: find_home\n  run: ./find-home.sh",
	Run:  runIDShadowsShellVar,
}

func runIDShadowsShellVar(p *Pass) {
	for _, si := range p.Info.Steps {
		if si.ID == "" || si.Step.ID == nil {
			continue
		}
		switch {
		case wellKnownEnv[si.ID]:
			p.Reportf(ast.SpanOf(si.Step.ID.Value), "step id %q matches a shell variable; %q in shell text will be replaced by this step's field", si.ID, "$"+si.ID+".<word>")
		case p.Info.EnvNames()[si.ID]:
			p.Reportf(ast.SpanOf(si.Step.ID.Value), "step id %q matches a name set in env; %q in shell text will be replaced by this step's field", si.ID, "$"+si.ID+".<word>")
		}
	}
}
