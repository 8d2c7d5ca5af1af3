package check

import (
	"net/url"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// OpenclawTokenRemoteURL reports openclaw.invoke / clawd.invoke calls to a
// non-local URL without an explicit --token.
var OpenclawTokenRemoteURL = &Analyzer{
	Name:     "openclaw-token-remote-url",
	Severity: source.Warning,
	Summary:  "openclaw.invoke calls a non-local --url without --token, which fails when OPENCLAW_TOKEN is set",
	Doc: `openclaw.invoke and clawd.invoke take their bearer token from --token, else from
OPENCLAW_TOKEN or CLAWD_TOKEN in the environment. To keep that token from leaking, they refuse to
send an environment token to a host other than localhost, 127.0.0.1 or ::1, and the call fails
with "refuses to send OPENCLAW_TOKEN/CLAWD_TOKEN to non-local --url; pass --token explicitly for
remote endpoints". The rule looks at a literal --url (and at a literal OPENCLAW_URL or
CLAWD_URL in the env the step sees, when there is no --url), in pipeline stages and in
run/command text.`,
	Bad:  "steps:\n  - id: notify\n    pipeline: openclaw.invoke --url https://claw.example.com --tool message --action send",
	Good: "steps:\n  - id: notify\n    pipeline: openclaw.invoke --url https://claw.example.com --token \"$REMOTE_CLAW_TOKEN\" --tool message --action send",
	Run:  runOpenclawTokenRemoteURL,
}

const aeTokenGuardMsg = "if OPENCLAW_TOKEN or CLAWD_TOKEN is set, %s refuses to send it to the non-local --url %q and the call fails (\"refuses to send OPENCLAW_TOKEN/CLAWD_TOKEN to non-local --url\"); pass --token explicitly for remote endpoints"

func runOpenclawTokenRemoteURL(p *Pass) {
	for _, si := range p.Info.Steps {
		if pl, ok := fieldValue(si.Step.Pipeline).(*ast.Pipeline); ok {
			for _, st := range pl.Stages {
				if st.Name == nil || st.Name.Text != "openclaw.invoke" && st.Name.Text != "clawd.invoke" {
					continue
				}
				var urlFlag *ast.Flag
				token := false
				for _, a := range st.Args {
					if f, ok := a.(*ast.Flag); ok {
						switch f.Name {
						case "url":
							urlFlag = f
						case "token":
							token = true
						}
					}
				}
				if token {
					continue
				}
				if urlFlag != nil {
					if urlFlag.Value == nil || strings.Contains(p.Text(ast.SpanOf(urlFlag.Value)), "$") {
						continue
					}
					if aeRemoteURL(urlFlag.Value.Text) {
						p.Reportf(ast.SpanOf(urlFlag.Value), aeTokenGuardMsg, st.Name.Text, urlFlag.Value.Text)
					}
					continue
				}
				aeEnvURL(p, si, ast.SpanOf(st.Name), st.Name.Text)
			}
		}
		for _, f := range []*ast.Field{si.Step.Run, si.Step.Command} {
			sh, ok := fieldValue(f).(*ast.Shell)
			if !ok || sh.Scalar == nil || !strings.Contains(sh.Scalar.Text, ".invoke") {
				continue
			}
			aeShellInvokes(p, si, sh.Scalar)
		}
	}
}

// aeEnvURL reports a call without --url when the env the step sees sets a
// literal remote OPENCLAW_URL or CLAWD_URL.
func aeEnvURL(p *Pass, si *StepInfo, at source.Span, cmd string) {
	for _, name := range [...]string{"OPENCLAW_URL", "CLAWD_URL"} {
		t := aeVisibleEnvValue(p.Info, si, name)
		if t == nil {
			continue
		}
		if len(t.Refs) == 0 && !strings.Contains(t.Scalar.Text, "$") && aeRemoteURL(t.Scalar.Text) {
			d := p.Finding(at, aeTokenGuardMsg, cmd, strings.TrimSpace(t.Scalar.Text))
			d.Related = []source.Related{p.Related(ast.SpanOf(t), name+" is set here")}
			p.Report(d)
		}
		return // OPENCLAW_URL wins over CLAWD_URL
	}
}

// aeVisibleEnvValue is the string value of an env entry the step sees (the
// most specific block wins), or nil.
func aeVisibleEnvValue(in *Info, si *StepInfo, name string) *ast.Template {
	get := func(f *ast.Field) (*ast.Template, bool) {
		m, ok := fieldValue(f).(*ast.TemplateMap)
		if !ok {
			return nil, false
		}
		e := m.Lookup(name)
		if e == nil {
			return nil, false
		}
		t, _ := e.Value.(*ast.Template)
		return t, true
	}
	for s := si; s != nil; s = s.Parent {
		if t, ok := get(s.Step.Env); ok {
			return t
		}
	}
	if w := in.File.Workflow; w != nil {
		if t, ok := get(w.Env); ok {
			return t
		}
	}
	return nil
}

// aeShellInvokes finds openclaw.invoke / clawd.invoke commands in shell text
// (the shims) and checks their --url and --token on the same command.
func aeShellInvokes(p *Pass, si *StepInfo, s *ast.Scalar) {
	text := s.Text
	for _, cmd := range [...]string{"openclaw.invoke", "clawd.invoke"} {
		for k := 0; ; {
			d := strings.Index(text[k:], cmd)
			if d < 0 {
				break
			}
			at := k + d
			k = at + len(cmd)
			if at > 0 && (aeTokenByte(text[at-1]) || text[at-1] == '.') || k < len(text) && aeTokenByte(text[k]) {
				continue
			}
			// The command runs to the end of the line (continuations
			// joined), a pipe or a command separator.
			end := k
			for end < len(text) {
				c := text[end]
				if c == '\n' && (end == 0 || text[end-1] != '\\') || c == '|' || c == ';' || c == '&' {
					break
				}
				end++
			}
			seg := text[k:end]
			if aeHasOption(seg, "--token") {
				continue
			}
			ui, uj, ok := aeOptionValue(seg, "--url")
			if !ok {
				aeEnvURL(p, si, s.Map.Span(at, k), cmd)
				continue
			}
			u := seg[ui:uj]
			if strings.ContainsAny(u, "$`") || !aeRemoteURL(u) {
				continue
			}
			p.Reportf(s.Map.Span(k+ui, k+uj), aeTokenGuardMsg, cmd, u)
		}
	}
}

// aeHasOption reports whether a command segment has the option.
func aeHasOption(seg, opt string) bool {
	_, _, ok := aeOptionValue(seg, opt)
	if ok {
		return true
	}
	for k := 0; ; {
		d := strings.Index(seg[k:], opt)
		if d < 0 {
			return false
		}
		at := k + d
		k = at + len(opt)
		if (at == 0 || seg[at-1] == ' ' || seg[at-1] == '\t' || seg[at-1] == '\n') && (k == len(seg) || !aeTokenByte(seg[k])) {
			return true
		}
	}
}

// aeOptionValue finds "opt value" or "opt=value" in a command segment and
// returns the value's range without quotes.
func aeOptionValue(seg, opt string) (int, int, bool) {
	for k := 0; ; {
		d := strings.Index(seg[k:], opt)
		if d < 0 {
			return 0, 0, false
		}
		at := k + d
		k = at + len(opt)
		if at > 0 && seg[at-1] != ' ' && seg[at-1] != '\t' && seg[at-1] != '\n' || k >= len(seg) || seg[k] != '=' && seg[k] != ' ' && seg[k] != '\t' {
			continue
		}
		i := k + 1
		for i < len(seg) && (seg[i] == ' ' || seg[i] == '\t') {
			i++
		}
		if i < len(seg) && (seg[i] == '"' || seg[i] == '\'') {
			end := strings.IndexByte(seg[i+1:], seg[i])
			if end < 0 {
				return 0, 0, false
			}
			return i + 1, i + 1 + end, true
		}
		j := i
		for j < len(seg) && !strings.ContainsRune(" \t\n\\", rune(seg[j])) {
			j++
		}
		if j == i {
			return 0, 0, false
		}
		return i, j, true
	}
}

// aeRemoteURL reports whether a literal http(s) URL names a host other than
// localhost, 127.0.0.1 or ::1.
func aeRemoteURL(raw string) bool {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme != "http" && u.Scheme != "https" {
		return false
	}
	switch h := u.Hostname(); h {
	case "", "localhost", "127.0.0.1", "::1":
		return false
	}
	return true
}
