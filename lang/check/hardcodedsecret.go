package check

import (
	"fmt"
	"math"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/lang/source"
)

// HardcodedSecret reports token-shaped literals in the file.
var HardcodedSecret = &Analyzer{
	Name:     "hardcoded-secret",
	Severity: source.Warning,
	Summary:  "a literal looks like a hard-coded secret",
	Doc: `Workflow files are committed and shared. The rule looks at env values, args defaults,
workflow_args values, run/command text and pipeline text for:

- well-known token shapes: OpenAI-style "sk-…", GitHub "ghp_…"/"github_pat_…", Slack "xoxb-…",
  GitLab "glpat-…", Google "AIza…", AWS access key ids "AKIA…";
- the value of --token, --api-key, --password or --secret, and of an "Authorization: Bearer"
  header, when it is a literal;
- a long, varied literal assigned to a name ending in TOKEN, KEY, SECRET or PASSWORD (an env
  entry, an arg, or NAME=value in shell text).

Values that read a variable ("$OPENCLAW_TOKEN", "${token}") and obvious placeholders
("<your-token>", "changeme", "xxxx") are not reported. Read secrets from the environment, which
every step inherits, or pass them at run time.`,
	Bad:  "env:\n  OPENCLAW_TOKEN: 9f2b7c41d0e84a6f8c3e5a1b2d7f6e90\nsteps:\n  - id: call\n    pipeline: openclaw.invoke --tool message --action send",
	Good: "# export OPENCLAW_TOKEN before running\nsteps:\n  - id: call\n    pipeline: openclaw.invoke --tool message --action send",
	Run:  runHardcodedSecret,
}

type aeSecretPass struct {
	p    *Pass
	seen map[int]bool
}

func runHardcodedSecret(p *Pass) {
	x := &aeSecretPass{p: p, seen: map[int]bool{}}
	// Args defaults.
	for _, fd := range p.Info.Args {
		def, ok := fd.Value.(*ast.ArgDef)
		if !ok || def.Default == nil {
			continue
		}
		s, ok := def.Default.Value.(*ast.Scalar)
		if !ok || s.Kind != ast.String {
			continue
		}
		x.scanText(s)
		if aeSecretName(fd.Name()) && aeSecretValue(s.Text, aeIsPasswordName(fd.Name())) {
			x.report(ast.SpanOf(s), fmt.Sprintf("the default of arg %q looks like a hard-coded secret; pass it at run time (--args-json) or read it from the environment", fd.Name()))
		}
	}
	// Env and workflow_args values.
	templates := func(f *ast.Field) {
		m, ok := fieldValue(f).(*ast.TemplateMap)
		if !ok {
			return
		}
		for _, e := range m.Fields {
			t, ok := e.Value.(*ast.Template)
			if !ok || t.Scalar == nil {
				continue
			}
			x.scanText(t.Scalar)
			if len(t.Refs) == 0 && aeSecretName(e.Name()) && aeSecretValue(t.Scalar.Text, aeIsPasswordName(e.Name())) {
				x.report(ast.SpanOf(t), fmt.Sprintf("%q looks like a hard-coded secret; read it from the environment", e.Name()))
			}
		}
	}
	if w := p.File.Workflow; w != nil {
		templates(w.Env)
	}
	for _, si := range p.Info.Steps {
		templates(si.Step.Env)
		templates(si.Step.WorkflowArgs)
		for _, f := range []*ast.Field{si.Step.Run, si.Step.Command, si.Step.Pipeline} {
			s := ast.StringOf(fieldValue(f))
			if s == nil {
				continue
			}
			x.scanText(s)
			x.scanShell(s)
		}
	}
}

func (x *aeSecretPass) report(sp source.Span, msg string) {
	if x.seen[sp.Start] {
		return
	}
	x.seen[sp.Start] = true
	x.p.Reportf(sp, "%s", msg)
}

// aeTokenShapes are well-known token prefixes, the bytes their body may
// hold, and its minimum length.
var aeTokenShapes = []struct {
	prefix, kind string
	body         func(c byte) bool
	min, exact   int
}{
	{"sk-", "API key", aeTokenByte, 20, 0},
	{"ghp_", "GitHub token", aeAlnum, 30, 0},
	{"gho_", "GitHub token", aeAlnum, 30, 0},
	{"ghu_", "GitHub token", aeAlnum, 30, 0},
	{"ghs_", "GitHub token", aeAlnum, 30, 0},
	{"ghr_", "GitHub token", aeAlnum, 30, 0},
	{"github_pat_", "GitHub token", parser.IsWordByte, 20, 0},
	{"xoxb-", "Slack token", aeTokenByte, 10, 0},
	{"xoxp-", "Slack token", aeTokenByte, 10, 0},
	{"xoxa-", "Slack token", aeTokenByte, 10, 0},
	{"xoxr-", "Slack token", aeTokenByte, 10, 0},
	{"xoxs-", "Slack token", aeTokenByte, 10, 0},
	{"xapp-", "Slack token", aeTokenByte, 10, 0},
	{"glpat-", "GitLab token", aeTokenByte, 20, 0},
	{"AIza", "Google API key", aeTokenByte, 35, 35},
	{"AKIA", "AWS access key id", aeUpperAlnum, 16, 16},
	{"ASIA", "AWS access key id", aeUpperAlnum, 16, 16},
}

// aeMinTokenLen is the length of the shortest token aeTokenShapes match.
const aeMinTokenLen = 15

// aeSecretStart marks the first bytes of aeTokenShapes' prefixes.
var aeSecretStart = func() (t [256]bool) {
	for _, c := range "sgxA" {
		t[c] = true
	}
	return t
}()

func aeAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
func aeUpperAlnum(c byte) bool { return 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' }

// scanText reports well-known token shapes in a scalar's text.
func (x *aeSecretPass) scanText(s *ast.Scalar) {
	text := s.Text
	if len(text) < aeMinTokenLen {
		return
	}
	for i := 0; i <= len(text)-aeMinTokenLen; i++ {
		c := text[i]
		if !aeSecretStart[c] || i > 0 && aeTokenByte(text[i-1]) {
			continue
		}
		for _, shape := range aeTokenShapes {
			if shape.prefix[0] != c || !strings.HasPrefix(text[i:], shape.prefix) {
				continue
			}
			j := i + len(shape.prefix)
			for j < len(text) && shape.body(text[j]) {
				j++
			}
			n := j - i - len(shape.prefix)
			if n < shape.min || shape.exact > 0 && n != shape.exact || j < len(text) && aeTokenByte(text[j]) {
				break
			}
			body := text[i+len(shape.prefix) : j]
			if aePlaceholder(body) || aeEntropy(body) < 3 || !aeHasDigit(body) {
				break
			}
			x.report(s.Map.Span(i, j), fmt.Sprintf("%q looks like a hard-coded %s; anyone who can read the workflow file can use it. read it from the environment instead",
				text[i:i+len(shape.prefix)+min(4, n)]+"…", shape.kind))
			i = j
			break
		}
	}
}

// aeSecretFlags are options whose value is a credential.
var aeSecretFlags = []string{"--token", "--api-key", "--apikey", "--password", "--secret", "--access-token", "--auth-token"}

// scanShell reports literal credentials in shell or pipeline text: option
// values, bearer headers and NAME=value assignments.
func (x *aeSecretPass) scanShell(s *ast.Scalar) {
	text := s.Text
	value := func(i int) (int, int) {
		j := i
		if j < len(text) && (text[j] == '"' || text[j] == '\'') {
			end := strings.IndexByte(text[j+1:], text[j])
			if end < 0 {
				return i, i
			}
			return j + 1, j + 1 + end
		}
		for j < len(text) && !strings.ContainsRune(" \t\n;|&)<>\"'", rune(text[j])) {
			j++
		}
		return i, j
	}
	for k := 0; ; {
		d := strings.Index(text[k:], "--")
		if d < 0 {
			break
		}
		at := k + d
		k = at + 2
		if at > 0 && aeTokenByte(text[at-1]) {
			continue
		}
		for _, flag := range aeSecretFlags {
			end := at + len(flag)
			if !strings.HasPrefix(text[at:], flag) || end >= len(text) || text[end] != '=' && text[end] != ' ' && text[end] != '\t' {
				continue
			}
			i, j := value(end + 1)
			if v := text[i:j]; aeSecretValue(v, true) {
				x.report(s.Map.Span(i, j), fmt.Sprintf("the value of %s looks like a hard-coded secret; read it from the environment instead (for example \"$OPENCLAW_TOKEN\")", flag))
			}
			break
		}
	}
	for k := 0; ; {
		d := strings.Index(text[k:], "Bearer ")
		if d < 0 {
			break
		}
		i, j := value(k + d + len("Bearer "))
		k += d + len("Bearer ")
		if j-i >= 16 {
			if v := text[i:j]; aeSecretValue(v, false) {
				x.report(s.Map.Span(i, j), "the bearer token looks like a hard-coded secret; read it from the environment instead")
			}
		}
	}
	for k := 0; ; {
		d := strings.IndexByte(text[k:], '=')
		if d < 0 {
			break
		}
		eq := k + d
		k = eq + 1
		st := eq
		for st > 0 && parser.IsWordByte(text[st-1]) {
			st--
		}
		name := text[st:eq]
		if name == "" || !aeSecretName(name) || st > 0 && (text[st-1] == '-' || text[st-1] == '$') {
			continue
		}
		i, j := value(eq + 1)
		if v := text[i:j]; aeSecretValue(v, aeIsPasswordName(name)) {
			x.report(s.Map.Span(i, j), fmt.Sprintf("%q looks like a hard-coded secret; read it from the environment", name))
		}
	}
}

// aeSecretName reports whether a name holds a credential: it ends in TOKEN,
// KEY, SECRET or PASSWORD (any case).
func aeSecretName(name string) bool {
	if len(name) < 3 {
		return false
	}
	switch name[len(name)-1] {
	case 'N', 'n', 'Y', 'y', 'T', 't', 'D', 'd':
	default:
		return false
	}
	up := strings.ToUpper(name)
	for _, suf := range [...]string{"TOKEN", "KEY", "SECRET", "PASSWORD", "PASSWD", "APIKEY"} {
		if strings.HasSuffix(up, suf) {
			if suf == "KEY" && (strings.HasSuffix(up, "_ID_KEY") || strings.HasSuffix(up, "SORT_KEY") || strings.HasSuffix(up, "PRIMARY_KEY") ||
				strings.HasSuffix(up, "STATE_KEY") || strings.HasSuffix(up, "ITEM_KEY") || strings.HasSuffix(up, "SESSION_KEY") || strings.HasSuffix(up, "CACHE_KEY") ||
				strings.HasSuffix(up, "PARTITION_KEY") || strings.HasSuffix(up, "IDEMPOTENCY_KEY") || strings.HasSuffix(up, "PUBLIC_KEY") || up == "KEY") {
				return false
			}
			return true
		}
	}
	return false
}

func aeIsPasswordName(name string) bool {
	up := strings.ToUpper(name)
	return strings.HasSuffix(up, "PASSWORD") || strings.HasSuffix(up, "PASSWD")
}

// aeSecretValue reports whether a literal looks like a real credential: no
// variable or reference, no placeholder, long and varied enough. short
// accepts shorter values (passwords, the value of --token), which need no
// length to be secrets.
func aeSecretValue(v string, short bool) bool {
	v = strings.TrimSpace(v)
	if strings.ContainsAny(v, "$ \t\n<>{}`*") || aePlaceholder(v) {
		return false
	}
	classes := 0
	var lower, upper, digit, other bool
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case 'a' <= c && c <= 'z':
			lower = true
		case 'A' <= c && c <= 'Z':
			upper = true
		case '0' <= c && c <= '9':
			digit = true
		default:
			other = true
		}
	}
	for _, b := range [...]bool{lower, upper, digit, other} {
		if b {
			classes++
		}
	}
	if short {
		return len(v) >= 8 && classes >= 2
	}
	return len(v) >= 16 && classes >= 2 && digit && aeEntropy(v) >= 3.2
}

// aePlaceholder reports whether a value is an obvious placeholder.
func aePlaceholder(v string) bool {
	low := strings.ToLower(v)
	for _, w := range [...]string{"xxxx", "your", "change", "example", "placeholder", "dummy", "sample", "redacted", "replace", "fake", "todo", "insert", "0000", "1234", "...", "…"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// aeEntropy is the Shannon entropy of a text in bits per byte.
func aeEntropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

func aeHasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }
