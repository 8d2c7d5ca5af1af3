package parser

import "testing"

func TestParsePipelineText(t *testing.T) {
	tests := []struct{ text, want string }{
		{`exec echo hi | where a=1 | pick id,subject`, `["exec" "echo" "hi"] ["where" "a=1"] ["pick" "id,subject"]`},
		{`exec echo 'a|b' | json`, `["exec" "echo" "a|b"] ["json"]`},
		{`a --x=1 --y 2 --z`, `["a" --x="1" --y "2" --z]`},
		{`a ''`, `["a" ""]`},
		{`a |`, `["a"]`},
		{"", "error:Empty pipeline"},
		{"| a", "error:Empty command stage"},
		{"a 'b", "error:Unclosed quote"},
	}
	for _, tt := range tests {
		p := ParsePipelineText(tt.text)
		if got := pipeDump(p); got != tt.want {
			t.Errorf("ParsePipelineText(%q) = %s, want %s", tt.text, got, tt.want)
		}
		if p.Err != nil && (p.Err.Span.Start < 0 || p.Err.Span.End > len(tt.text)) {
			t.Errorf("ParsePipelineText(%q): error span %v outside the text", tt.text, p.Err.Span)
		}
	}
}
