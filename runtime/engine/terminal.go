package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/validate"
)

// isYes says whether answer grants an interactive approval: the
// reference's /^y(es)?$/i, which folds ASCII letters only (no "ſ" for s).
func isYes(answer string) bool {
	lower := func(i int, c byte) bool { return answer[i]|0x20 == c }
	switch len(answer) {
	case 1:
		return lower(0, 'y')
	case 3:
		return lower(0, 'y') && lower(1, 'e') && lower(2, 's')
	}
	return false
}

// ErrNotApproved is the failure of a run whose approval was refused on
// the terminal, in the reference's words.
var ErrNotApproved = errors.New("Not approved")

// How much of a gate's request the terminal shows.
const (
	shownLines = 12 // of a preview
	shownItems = 10 // of an approval's items

	shownSchemaLines = 60 // of a response schema, indented
)

// ask answers a gate on the terminal. It first shows what is asked: for
// an approval the prompt, preview, items and who may approve, for an input
// the prompt, subject, response schema and defaults. An approval checks
// the approver (LOBSTER_APPROVAL_APPROVED_BY against the gate's identity
// policy) before it asks, then takes y or yes (anything else is the
// reference's fatal "Not approved"); an input reads one line of JSON and
// asks again until it parses and matches the schema. The end of input
// (Ctrl-D) cancels the run at the gate.
func (x *local) ask(ctx context.Context, t *Terminal, g *Gate) (*Decision, error) {
	w := &gateWriter{out: t.Out, width: t.width()}
	if g.Kind == ApprovalGate {
		approver := approverOf(x.getenv)
		w.describeApproval(g, approver)
		if err := g.Identity.enforce(g.StepID, approver); err != nil {
			return nil, err
		}
		fmt.Fprintf(t.Out, "%s [y/N] ", source.Printable(jsString(get(g.Request, "prompt"))))
		answer, err := x.readLine(ctx, t)
		if errors.Is(err, io.EOF) {
			fmt.Fprintln(t.Out)
			return &Decision{Cancel: true, Response: jsvalue.Undefined}, nil
		}
		if err != nil {
			return nil, err
		}
		if !isYes(strings.TrimSpace(answer)) {
			return nil, ErrNotApproved
		}
		yes := true
		return &Decision{Approve: &yes, Approver: approver, Response: jsvalue.Undefined}, nil
	}
	w.describeInput(g)
	fmt.Fprintf(t.Out, "%s\n", source.Printable(jsString(get(g.Request, "prompt"))))
	for {
		fmt.Fprint(t.Out, "Enter JSON response: ")
		line, err := x.readLine(ctx, t)
		if errors.Is(err, io.EOF) {
			fmt.Fprintln(t.Out)
			return &Decision{Cancel: true, Response: jsvalue.Undefined}, nil
		}
		if err != nil {
			return nil, err
		}
		response, err := jsvalue.Parse([]byte(strings.TrimSpace(line)))
		if err != nil {
			w.say("  Not JSON: " + jsonProblem(err) + ". Try again, or Ctrl-D to cancel the run.")
			continue
		}
		err = validate.Value(g.Schema, response)
		var failure *validate.Failure
		switch {
		case errors.As(err, &failure):
			w.say("  Does not match the schema at " + failure.Path + ": " + failure.Message + ". Try again, or Ctrl-D to cancel the run.")
			continue
		case err != nil:
			// A schema that cannot be checked: no answer will do.
			return nil, checkResponse(g.StepID, g.Schema, response)
		}
		return &Decision{Response: response}, nil
	}
}

func (x *local) getenv(name string) string { return Getenv(x.opts.Env, name) }

// readLine reads one answer, within LOBSTER_APPROVAL_INPUT_TIMEOUT_MS when
// that is a positive number of milliseconds. The end of input before any
// text is io.EOF.
func (x *local) readLine(ctx context.Context, t *Terminal) (string, error) {
	type answer struct {
		line string
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		line, err := t.In.ReadString('\n')
		if line != "" {
			err = nil
		}
		got <- answer{strings.TrimRight(line, "\r\n"), err}
	}()
	var timeout <-chan time.Time
	ms, err := strconv.Atoi(strings.TrimSpace(x.getenv("LOBSTER_APPROVAL_INPUT_TIMEOUT_MS")))
	if err == nil && ms > 0 {
		timer := time.NewTimer(time.Duration(ms) * time.Millisecond)
		defer timer.Stop()
		timeout = timer.C
	}
	select {
	case a := <-got:
		if a.err != nil {
			return "", io.EOF
		}
		return a.line, nil
	case <-timeout:
		return "", fmt.Errorf("Timed out waiting for input (%dms)", ms)
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
}

// width is the width lines are cut to.
func (t *Terminal) width() int {
	if t.Width >= 20 {
		return t.Width
	}
	return 80
}

// gateWriter shows a gate's request on the terminal, each line cut to the
// terminal's width and every control character escaped, since the text
// may come from step output.
type gateWriter struct {
	out   io.Writer
	width int
}

// line writes a line of data, cut to the width.
func (w *gateWriter) line(s string) {
	fmt.Fprintln(w.out, cut(source.Printable(s), w.width))
}

// say writes a message in full.
func (w *gateWriter) say(s string) {
	fmt.Fprintln(w.out, source.Printable(s))
}

// block writes the lines of text indented by four spaces, at most max of
// them.
func (w *gateWriter) block(text string, max int) {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		if i == max {
			w.line(fmt.Sprintf("    … %d more lines", len(lines)-i))
			break
		}
		w.line("    " + l)
	}
}

func (w *gateWriter) describeApproval(g *Gate, approver string) {
	w.line("Approval needed: step " + g.StepID)
	if p, ok := get(g.Request, "preview").(string); ok && p != "" {
		w.line("  Preview:")
		w.block(p, shownLines)
	}
	if items, _ := get(g.Request, "items").([]any); len(items) > 0 {
		w.line(fmt.Sprintf("  Items (%d):", len(items)))
		for i, it := range items {
			if i == shownItems {
				w.line(fmt.Sprintf("    … %d more", len(items)-i))
				break
			}
			w.line("    " + jsvalue.Stringify(it, ""))
		}
	}
	w.say("  Approver: " + approverText(g.Identity, approver))
}

// approverText says who may approve under id, and who approves now.
func approverText(id Identity, approver string) string {
	var who string
	switch {
	case id.RequiredApprover != "" && id.RequireDifferentApprover && id.InitiatedBy != "":
		who = fmt.Sprintf("%s only, not %s (who started the run)", id.RequiredApprover, id.InitiatedBy)
	case id.RequiredApprover != "":
		who = id.RequiredApprover + " only"
	case id.RequireDifferentApprover && id.InitiatedBy != "":
		who = fmt.Sprintf("anyone but %s (who started the run)", id.InitiatedBy)
	case id.RequireDifferentApprover:
		who = "anyone who says who they are"
	default:
		who = "anyone at this terminal"
		if approver != "" {
			who += "; recorded as " + approver + " (LOBSTER_APPROVAL_APPROVED_BY)"
		}
		return who
	}
	if approver == "" {
		return who + "; LOBSTER_APPROVAL_APPROVED_BY, who you are, is not set"
	}
	return who + "; you are " + approver + " (LOBSTER_APPROVAL_APPROVED_BY)"
}

func (w *gateWriter) describeInput(g *Gate) {
	w.line("Input needed: step " + g.StepID)
	if s := get(g.Request, "subject"); s != nil && s != jsvalue.Undefined {
		text, ok := s.(string)
		if !ok {
			text = jsvalue.Stringify(s, "")
		}
		if strings.Contains(strings.TrimRight(text, "\n"), "\n") {
			w.line("  Subject:")
			w.block(text, shownLines)
		} else {
			w.line("  Subject: " + text)
		}
	}
	if g.Schema != jsvalue.Undefined {
		// The schema is what an answer must match: shown in full, on one
		// line when it fits.
		if one := "  Schema: " + jsvalue.Stringify(g.Schema, ""); ansi.StringWidth(one) <= w.width {
			w.line(one)
		} else {
			w.line("  Schema:")
			w.block(jsvalue.Stringify(g.Schema, "  "), shownSchemaLines)
		}
	}
	if d := get(g.Request, "defaults"); d != jsvalue.Undefined {
		w.line("  Defaults: " + jsvalue.Stringify(d, ""))
	}
	w.say("  Answer with one line of JSON; Ctrl-D cancels the run.")
}

// jsonProblem is a JSON parse error in words.
func jsonProblem(err error) string {
	msg := err.Error()
	if msg == "EOF" || msg == "unexpected EOF" {
		return "unexpected end of JSON input"
	}
	return msg
}

// cut shortens s to at most width columns, ending in "…" when it was
// wider.
func cut(s string, width int) string { return ansi.Truncate(s, width, "…") }

// jsString is String(v) for a prompt.
func jsString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if v == jsvalue.Undefined {
		return "undefined"
	}
	return jsvalue.Stringify(v, "")
}
