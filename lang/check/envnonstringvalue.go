package check

import (
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// EnvNonStringValue reports env values that are not strings.
var EnvNonStringValue = &Analyzer{
	Name:     "env-non-string-value",
	Severity: source.Error,
	Summary:  "an env value is not a string and is silently dropped",
	Doc: `Only string env values are set; numbers, booleans, null, lists and mappings are dropped
without a word, so the variable keeps the value it has in the process environment, or
stays unset. YAML reads 3, true and an empty value as a number, a boolean and null: quote them.`,
	Bad:  "env:\n  RETRIES: 3\n  DEBUG: true\nsteps:\n  - id: build\n    run: make",
	Good: "env:\n  RETRIES: \"3\"\n  DEBUG: \"true\"\nsteps:\n  - id: build\n    run: make",
	Fix:  "quote a number, boolean or null (empty) value; lists and mappings need a choice",
	Run:  runEnvNonStringValue,
}

func runEnvNonStringValue(p *Pass) {
	for b := range aeEnvBlocks(p.Info) {
		m, ok := b.Field.Value.(*ast.TemplateMap)
		if !ok {
			continue
		}
		for _, e := range m.Fields {
			if _, ok := e.Value.(*ast.Template); ok {
				continue
			}
			name := e.Name()
			var d source.Diagnostic
			switch v := ast.Resolve(e.Value).(type) {
			case *ast.Scalar:
				switch v.Kind {
				case ast.String:
					continue
				case ast.Null:
					d = p.Finding(aeValueSpan(e), "env value of %q is null (empty); non-string env values are silently dropped, so this entry does not set %s. write \"\" for an empty value", name, name)
					if aeInField(e, e.Value) {
						sp := ast.SpanOf(e.Value)
						text := `""`
						if sp.Len() == 0 {
							text = ` ""`
						}
						d.Fixes = []source.Fix{{Message: "Write an empty string", Edits: []source.Edit{p.Edit(sp, text)}}}
					}
				default:
					written := strings.TrimSpace(p.Text(ast.SpanOf(v)))
					kind := "a number"
					if v.Kind == ast.Bool {
						kind = "a boolean"
					}
					quoted := aeYAMLQuote(written)
					d = p.Finding(ast.SpanOf(e.Value), "env value of %q is %s; non-string env values are silently dropped. quote it: %s", name, kind, quoted)
					if aeInField(e, e.Value) && !strings.ContainsAny(written, "\n\r") {
						d.Fixes = []source.Fix{{Message: fmt.Sprintf("Quote the value: %s", quoted), Edits: []source.Edit{p.Edit(ast.SpanOf(e.Value), quoted)}}}
					}
				}
			case *ast.Sequence:
				d = p.Finding(ast.SpanOf(e.Value), "env value of %q is a list; non-string env values are silently dropped. write the value as one string (for example JSON)", name)
			case nil:
				continue
			default:
				d = p.Finding(ast.SpanOf(e.Value), "env value of %q is a mapping; non-string env values are silently dropped. write the value as one string (for example JSON)", name)
			}
			p.Report(d)
		}
	}
}

// aeValueSpan is where to report a field's value: the value, or the key
// when the value is empty.
func aeValueSpan(f *ast.Field) source.Span {
	if sp := ast.SpanOf(f.Value); sp.Len() > 0 {
		return sp
	}
	return f.Key.Span
}

// aeYAMLQuote double-quotes a plain scalar's text (valid YAML and JSON).
func aeYAMLQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
