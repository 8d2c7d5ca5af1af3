package check

import (
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/source"
)

// InvalidFlagValue reports flag values a command rejects or cannot use.
var InvalidFlagValue = &Analyzer{
	Name:     "invalid-flag-value",
	Severity: source.Error,
	Summary:  "a pipeline flag has a value its command rejects or silently replaces",
	Doc: `Flag values reach commands as text and are converted when the stage runs: head --n
and openclaw.agent --timeout must be non-negative numbers, exec --stdin one of raw, json and jsonl,
ask --schema a JSON object, --args-json valid JSON (an object with openclaw.invoke --each),
llm.invoke --artifacts-json an array and --metadata-json and --output-schema objects,
llm.invoke --provider one of openclaw, pi and http, openclaw.invoke --url an http(s) URL, and
workflows.run --name a known workflow. Some commands fail with their own message; others silently
use a default instead (approve --limit, email.triage --emit), which is not what the file says
either. A flag written without a value (followed by another flag, or last) is the boolean true,
which a value flag reads as the text "true", the number 1, or not at all. map --wrap and --unwrap
exclude each other. Values holding a ${arg} or $id.path reference are not checked.`,
	Bad:  "- id: top\n  pipeline: exec --json cat items.json | head --n ten",
	Good: "- id: top\n  pipeline: exec --json cat items.json | head --n 10",
	Run:  runInvalidFlagValue,
}

func runInvalidFlagValue(p *Pass) {
	plEachStage(p.Info, func(st *plStage) {
		if st.Cmd == nil {
			return
		}
		for i := range st.Flags {
			f := &st.Flags[i]
			if f.Def == nil || f.ValueRef || f.Def.Type == commands.Bool || f.Def.Unused {
				continue
			}
			if f.Value == nil {
				p.Reportf(ast.SpanOf(f.Flag), "%s", plBareValueMessage(st, f))
				continue
			}
			if msg := plCheckValue(st, f); msg != "" {
				p.Reportf(ast.SpanOf(f.Value), "%s", msg)
			}
		}
		for _, c := range st.Cmd.Conflicts {
			var last *plFlag
			n := 0
			for _, name := range c.Flags {
				if f := st.FlagNamed(name); f != nil && f.Given() && !f.ValueRef {
					n++
					if last == nil || f.Flag.Pos() > last.Flag.Pos() {
						last = f
					}
				}
			}
			if n == len(c.Flags) {
				p.Reportf(ast.SpanOf(last.Flag), "--%s cannot be combined with the other flags here; the run fails with %q",
					last.Def.Name, plMessage(c.Error, st.Name, ""))
			}
		}
	})
}

// plBareValueMessage explains a value flag written without a value.
func plBareValueMessage(st *plStage, f *plFlag) string {
	d := f.Def
	why := "it is the last word"
	if next := plNextArg(st, f.Flag); next != nil {
		why = "the next word is a flag"
	}
	var reads string
	switch {
	case d.IgnoresBare:
		reads = st.Name + " ignores it"
		if d.HasDefault {
			reads += " and uses " + plQuoteDefault(d)
		}
	case d.Type == commands.Number || d.Type == commands.Int:
		reads = st.Name + " reads it as the number 1"
	default:
		reads = st.Name + " reads it as the text \"true\""
	}
	return fmt.Sprintf("\"--%s\" has no value (%s), so it is the boolean true and %s; write --%s <value>", f.Flag.Name, why, reads, f.Flag.Name)
}

// plNextArg is the argument after a, or nil.
func plNextArg(st *plStage, a ast.Arg) ast.Arg {
	for i, b := range st.Stage.Args {
		if b == a && i+1 < len(st.Stage.Args) {
			return st.Stage.Args[i+1]
		}
	}
	return nil
}

// plQuoteDefault spells a flag's default for a message.
func plQuoteDefault(d *commands.Flag) string {
	if d.Type == commands.Number || d.Type == commands.Int {
		return d.Default
	}
	return fmt.Sprintf("%q", d.Default)
}

// plCheckValue checks a written value against its flag's type and returns
// the message for an invalid one, or "".
func plCheckValue(st *plStage, f *plFlag) string {
	d, v := f.Def, f.Value.Text
	flag := "--" + f.Flag.Name + " " + v
	fails := func(value string) string {
		return fmt.Sprintf("%q: the run fails with %q", flag, plMessage(d.Invalid, st.Name, value))
	}
	switch d.Type {
	case commands.Number, commands.Int:
		n, ok := js.Number(v)
		bad := ""
		switch {
		case !ok || math.IsInf(n, 0):
			bad = "is not a finite number"
		case d.Type == commands.Int && n != math.Trunc(n):
			bad = "is not an integer"
		case d.NonNegative && n < 0:
			bad = "is negative"
		}
		switch {
		case bad == "":
			return ""
		case d.Invalid != "":
			return fails(v)
		}
		return fmt.Sprintf("%q %s; %s does not reject it but cannot use it as written (%s)", flag, bad, st.Name, d.Description)
	case commands.Enum:
		got := v
		if d.Trim {
			got = js.Trim(got)
		}
		if d.FoldCase {
			got = js.ToLower(got)
		}
		for _, allowed := range d.Values {
			if got == allowed {
				return ""
			}
		}
		if d.Invalid != "" {
			return fails(got)
		}
		return fmt.Sprintf("%q is not %s; %s silently uses %q", flag, plOrList(d.Values), st.Name, d.Default)
	case commands.JSON:
		if v == "" {
			return "" // an empty value is skipped like an absent one
		}
		if !json.Valid([]byte(v)) {
			var x any
			err := json.Unmarshal([]byte(v), &x)
			return fmt.Sprintf("--%s is not valid JSON (%s); the run fails with %q", f.Flag.Name, plJSONError(err), plMessage(d.Invalid, st.Name, v))
		}
		if d.ShapeIf != "" {
			if g := st.FlagNamed(d.ShapeIf); g == nil || !g.Given() {
				return ""
			}
		}
		if !plHasShape(v, d.Shape) {
			return fmt.Sprintf("--%s is JSON but not %s; the run fails with %q", f.Flag.Name, plShapeName(d.Shape), plMessage(d.InvalidShape, st.Name, v))
		}
	case commands.String:
		if d.Format == "http-url" && !plHTTPURL(v) {
			return fails(v)
		}
	}
	return ""
}

// plOrList spells values as "a, b or c".
func plOrList(values []string) string {
	if len(values) == 1 {
		return values[0]
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// plHasShape reports whether valid JSON text has a shape: its first
// character tells an object or an array.
func plHasShape(text string, s commands.Shape) bool {
	t := strings.TrimLeft(text, " \t\n\r")
	switch s {
	case commands.Object:
		return strings.HasPrefix(t, "{")
	case commands.Array:
		return strings.HasPrefix(t, "[")
	}
	return true
}

func plShapeName(s commands.Shape) string {
	if s == commands.Array {
		return "an array"
	}
	return "an object"
}

// plJSONError shortens a JSON decoding error.
func plJSONError(err error) string {
	return strings.TrimPrefix(err.Error(), "json: ")
}

// plHTTPURL reports whether text is an absolute http or https URL, as the
// reference requires of openclaw.invoke --url.
func plHTTPURL(text string) bool {
	u, err := url.Parse(strings.TrimSpace(text))
	if err != nil {
		return false
	}
	s := strings.ToLower(u.Scheme)
	return (s == "http" || s == "https") && u.Host != ""
}
