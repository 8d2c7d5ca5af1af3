package check_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lobsterdev/lobster/lang/check"
	"github.com/lobsterdev/lobster/lang/parser"
)

// TestRecovery checks what is reported on files with YAML errors: the
// error once, and no finding that depends on the broken text.
func TestRecovery(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string // line:code
	}{
		{
			name: "a key cut from a step",
			src:  "args:\n  x: {default: a}\nsteps:\n  - id: a\n    run echo ${x}\n  - id: b\n    run: echo '${x}'\n",
			// Not: step "a" does nothing, unused... ; b's finding stays.
			want: []string{"5:yaml-syntax", "7:arg-spliced-into-shell"},
		},
		{
			name: "an over-indented line, then a mis-indented step",
			src:  "steps:\n   - id: a\n    run: echo\n\n  - id: b\n    run: echo\n",
			want: []string{"3:yaml-syntax"},
		},
		{
			name: "text after the document",
			src:  "# notes\nhello\n- a\nb: c\nd: e\n",
			want: []string{"4:yaml-syntax"},
		},
		{
			name: "several documents",
			src:  "apiVersion: v1\nkind: Pod\n---\nkind: Service\n",
			want: []string{"3:yaml-multi-document"},
		},
		{
			name: "a list at the top",
			src:  "- id: a\n  run: echo\n  foo: 1\n",
			want: []string{"1:not-a-workflow"},
		},
		{
			name: "a step lost with the broken text",
			src:  "steps:\n  - id: a\n    run: echo\n  - id: b\n    run echo\n  - id: c\n    run: echo $b.stdout\n",
			want: []string{"5:yaml-syntax"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, diags := parser.Parse("t.lobster", []byte(tc.src))
			var got []string
			for _, d := range check.Run(f, diags, check.Rules) {
				if d.Severity <= 3 { // errors, warnings and infos
					got = append(got, fmt.Sprintf("%d:%s", d.Range.Start.Line, d.Code))
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("got  %v\nwant %v", got, tc.want)
			}
		})
	}
}
