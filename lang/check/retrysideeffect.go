package check

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// RetrySideEffect reports retry on steps with irreversible side effects.
var RetrySideEffect = &Analyzer{
	Name:     "retry-side-effect",
	Severity: source.Warning,
	Summary:  "retry on a step that sends messages or changes remote state",
	Doc: "A retry re-runs the whole step after a failure, even when the failing attempt already did part " +
		"of its work: shell commands are always retryable, even after side effects, so a " +
		"message can be sent twice and a remote change applied twice. A step is not retried once a " +
		"pipeline stage sent a request that may have taken effect: `gog.gmail.send` has sent a mail, " +
		"`openclaw.invoke` / `clawd.invoke` dispatched a tool call, `openclaw.agent` started a turn (also " +
		"inside loops, parallel branches and child workflows), so there retry only covers failures " +
		"before that request. " +
		"For shell text the rule is a heuristic: `curl` with a POST, PUT, PATCH or DELETE request or a " +
		"request body, `gh` commands that create, merge, comment or edit, `git push`, package " +
		"publishing, `gog gmail send`, `openclaw message send` and mail senders. A parallel step's retry " +
		"re-runs every branch, and a for_each loop's retry (applied by 2026.9.13) re-runs every item. Make the side effect idempotent, move it to its own step without retry, " +
		"or keep the retry on the steps before it.",
	Bad:  "- id: notify\n  run: curl -X POST --data @payload.json \"$WEBHOOK_URL\"\n  retry:\n    max: 3",
	Good: "- id: build_payload\n  run: ./build-payload.sh > payload.json\n  retry:\n    max: 3\n- id: notify\n  run: curl -X POST --data @payload.json \"$WEBHOOK_URL\"",
	Run:  runRetrySideEffect,
}

type polEffect struct {
	keys []string // the pattern can only match text holding one of these
	rx   func() *regexp.Regexp
	what string
}

// polShellEffects are shell commands with side effects that a second run
// repeats.
var polShellEffects = []polEffect{
	{[]string{"curl"}, lazyRE(`\bcurl\b[^|;&\n]*?(?:\s-X\s*|\s--request[= ]\s*)['"]?(?:POST|PUT|PATCH|DELETE)\b`), "changes remote state"},
	{[]string{"curl"}, lazyRE(`\bcurl\b[^|;&\n]*?\s(?:-d|--data(?:-raw|-binary|-urlencode)?|-F|--form|--json)(?:[\s=]|$)`), "sends data to a server"},
	{[]string{"wget"}, lazyRE(`\bwget\b[^|;&\n]*?\s--(?:post-data|post-file|method[= ]['"]?(?:POST|PUT|PATCH|DELETE)\b)`), "changes remote state"},
	{[]string{"gh"}, lazyRE(`\bgh\s+(?:pr|issue)\s+(?:create|merge|comment|close|reopen|edit|review|delete|lock)\b`), "changes GitHub state"},
	{[]string{"gh"}, lazyRE(`\bgh\s+release\s+(?:create|upload|delete|edit)\b`), "changes GitHub state"},
	{[]string{"gh"}, lazyRE(`\bgh\s+api\b[^|;&\n]*?(?:\s-X\s*|\s--method[= ]\s*)['"]?(?:POST|PUT|PATCH|DELETE)\b`), "changes GitHub state"},
	{[]string{"push"}, lazyRE(`\bgit\s+push\b`), "pushes to a remote"},
	{[]string{"publish", "push", "upload"}, lazyRE(`\b(?:npm|pnpm|yarn|cargo)\s+publish\b|\bdocker\s+push\b|\btwine\s+upload\b`), "publishes a package"},
	{[]string{"gmail", "mail"}, lazyRE(`\bgog\s+gmail\s+send\b|\bsendmail\b|\bmailx\b`), "sends email"},
	{[]string{"message"}, lazyRE(`\bopenclaw\s+message\s+send\b`), "sends a message"},
	{[]string{".invoke"}, lazyRE(`\b(?:openclaw|clawd)\.invoke\b[^|;&\n]*?--action(?:=|\s+)['"]?(?:send|post|create|delete|remove|update|edit|merge|publish|write|reply|react|dispatch|push|put|patch|upload|comment|close)`), "changes state through an OpenClaw tool"},
}

// polMutatingAction matches openclaw.invoke actions that change state.
var polMutatingAction = lazyRE(`^(?i:send|post|create|delete|remove|update|edit|merge|publish|write|reply|react|dispatch|push|put|patch|upload|comment|close)`)

// polSideEffect is one side effect found in a step.
type polSideEffect struct {
	span   source.Span
	text   string // the command as written
	what   string // what it does
	noMore bool   // the runtime does not retry after it (gog.gmail.send)
	invoke bool   // an openclaw.invoke / clawd.invoke pipeline stage
}

// polShellEffect finds the first side-effecting command in shell text.
func polShellEffect(s *ast.Scalar) (polSideEffect, bool) {
	// Join continuation lines without moving offsets.
	text := strings.ReplaceAll(s.Text, "\\\n", "  ")
	best := -1
	var found polSideEffect
	for _, e := range polShellEffects {
		if !polContainsAny(text, e.keys) {
			continue
		}
		m := e.rx().FindStringIndex(text)
		if m == nil || best >= 0 && m[0] >= best {
			continue
		}
		best = m[0]
		cmd := strings.Join(strings.Fields(text[m[0]:m[1]]), " ")
		found = polSideEffect{span: s.Map.Span(m[0], m[1]), text: polShorten(cmd, 60), what: e.what}
	}
	return found, best >= 0
}

// polStepEffect finds the first side effect of a step's own command.
func polStepEffect(s *ast.Step) (polSideEffect, bool) {
	if sh := polShell(s); sh != nil {
		return polShellEffect(sh.Scalar)
	}
	hasExec := false
	for _, st := range polStages(s) {
		dry := polStageFlag(st, "dry-run", "dryRun")
		if dry != nil && (dry.Value == nil || !polIsFalseWord(dry.Value.Text)) {
			continue
		}
		switch st.Name.Text {
		case "gog.gmail.send":
			return polSideEffect{span: ast.SpanOf(st.Name), text: "gog.gmail.send", what: "sends email", noMore: true}, true
		case "openclaw.invoke", "clawd.invoke":
			if a := polStageFlag(st, "action"); a != nil && a.Value != nil && polMutatingAction().MatchString(a.Value.Text) {
				return polSideEffect{span: ast.SpanOf(st), text: st.Name.Text + " --action " + a.Value.Text, what: "changes state through an OpenClaw tool", invoke: true}, true
			}
		case "exec":
			hasExec = true
		}
	}
	if hasExec {
		if pl, ok := s.Pipeline.Value.(*ast.Pipeline); ok {
			return polShellEffect(pl.Scalar)
		}
	}
	return polSideEffect{}, false
}

func runRetrySideEffect(p *Pass) {
	for _, si := range p.Info.Top {
		r := polRetry(si.Step)
		if r == nil || si.ID == "" {
			continue
		}
		if n, ok := polNum(r.Max); !ok || n < 2 {
			continue
		}
		e, ok := polStepEffect(si.Step)
		who := fmt.Sprintf("%q", si.ID)
		if !ok && (si.Step.Parallel != nil || si.IsLoop()) {
			for _, b := range si.Children {
				if e, ok = polStepEffect(b.Step); ok {
					if si.IsLoop() {
						who = fmt.Sprintf("sub-step %q of loop %q (retry re-runs every item)", b.ID, si.ID)
					} else {
						who = fmt.Sprintf("branch %q of %q (retry re-runs every branch)", b.ID, si.ID)
					}
					break
				}
			}
		}
		if !ok {
			continue
		}
		var d source.Diagnostic
		switch {
		case e.noMore:
			d = p.Finding(si.Step.Retry.Key.Span, "%s %s with %s; the runtime never retries after a send, so retry only covers failures before the first email is sent", who, e.what, e.text)
		case e.invoke:
			d = p.Finding(si.Step.Retry.Key.Span, "%s runs %q, which %s; the runtime never retries after the call was dispatched, so retry only covers failures before it", who, e.text, e.what)
		default:
			d = p.Finding(si.Step.Retry.Key.Span, "%s runs %q, which %s; a retry after a partial failure can do it twice (shell steps are retried even after side effects)", who, e.text, e.what)
		}
		d.Related = []source.Related{p.Related(e.span, "the side effect is here")}
		p.Report(d)
	}
}

func polContainsAny(s string, keys []string) bool {
	for _, k := range keys {
		if strings.Contains(s, k) {
			return true
		}
	}
	return false
}
