package pipeline

import (
	"context"
	"testing"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/parser"
)

// FuzzPredicate: where never panics, whatever the expression and item.
func FuzzPredicate(f *testing.F) {
	for _, s := range []string{"a=1", "a.b==x", "x===", "n>=0x10", "a<>b", "é==1", "a== \u2028", "a.0.length>1"} {
		f.Add(s, `{"a":{"b":[1,"x"]},"n":5}`)
	}
	f.Fuzz(func(t *testing.T, expr, item string) {
		v, err := jsvalue.Parse([]byte(item))
		if err != nil {
			v = item
		}
		if p, err := ParsePredicate(expr); err == nil {
			p.Match(v)
		}
	})
}

// FuzzTemplate: templates and filters never panic.
func FuzzTemplate(f *testing.F) {
	for _, s := range []string{"{{a | truncate -3}}", "{{a | round 200}}", "{{a | date 'YYYY'}}", "{{ . | split '' | join }}", "{{a | replace '' x}}", "{{x | default}}", "{{a|b|c}}"} {
		f.Add(s, `{"a":"héllo 😀","x":null}`)
	}
	f.Fuzz(func(t *testing.T, tmpl, item string) {
		v, err := jsvalue.Parse([]byte(item))
		if err != nil {
			v = item
		}
		RenderTemplate(tmpl, v)
		renderMini(tmpl, v)
	})
}

// FuzzJSON: the fast reader agrees with jsvalue.Parse, and the error
// wording never panics.
func FuzzJSON(f *testing.F) {
	for _, s := range []string{`[1,{"a":"\u00e9"}]`, `{"a":1,}`, `"\ud83d"`, "\"\xff\"", `-0.0e-0`, `[[[`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		want, werr := jsvalue.Parse([]byte(text))
		got, gerr := jsvalue.ParseText(text)
		if (werr == nil) != (gerr == nil) || werr == nil && compact(got) != compact(want) {
			t.Fatalf("%q: %v %v / %v %v", text, compact(got), gerr, compact(want), werr)
		}
		if werr != nil {
			jsonErrorMessage(text, werr)
		}
	})
}

// FuzzPipeline: any parsed pipeline of pure commands runs without a
// panic over any input.
func FuzzPipeline(f *testing.F) {
	for _, s := range []string{"where a=1 | sort --key a | dedupe | head --n 2", "map --wrap x k={{a}} | pick x,k | groupBy --key k", "template '{{a|upper}}' | table", "sort --desc | json"} {
		f.Add(s, `[{"a":1},{"a":"x"},null,[1],"s"]`)
	}
	pure := map[string]bool{"where": true, "sort": true, "dedupe": true, "head": true, "map": true, "pick": true, "groupBy": true, "template": true, "table": true, "json": true}
	f.Fuzz(func(t *testing.T, text, input string) {
		p := parser.ParsePipelineText(text)
		if p.Err != nil {
			return
		}
		for _, st := range p.Stages {
			if !pure[st.Name.Text] {
				return
			}
		}
		v, err := jsvalue.Parse([]byte(input))
		items, ok := v.([]any)
		if err != nil || !ok {
			items = []any{input}
		}
		env := &Env{Mode: Human, Stdout: discard{}}
		RunWith(context.Background(), StagesOf(p.Stages, text), items, env, Options{})
	})
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
