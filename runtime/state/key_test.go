package state

import (
	"errors"
	"testing"
)

func TestFileName(t *testing.T) {
	// The reference's own table (state.test.ts), plus escapes and the
	// JavaScript lower-casing cases.
	tests := []struct{ key, want string }{
		{"_Demo KEY_", "demo_key.json"},
		{"___Demo KEY___", "demo_key.json"},
		{" Demo KEY ", "demo_key.json"},
		{"-Demo KEY-", "-demo_key-.json"},
		{".Demo KEY.", ".demo_key..json"},
		{"demo-key", "demo-key.json"},
		{"pipeline_resume_0b6a4c1e-8f7e-4c1a-9d52-3f0e7c1a2b3c", "pipeline_resume_0b6a4c1e-8f7e-4c1a-9d52-3f0e7c1a2b3c.json"},
		{"../../etc/passwd", ".._.._etc_passwd.json"},
		{`a\b/c`, "a_b_c.json"},
		{"Ünïcode", "n_code.json"},
		{"İstanbul", "i_stanbul.json"},
		{"\u212Aelvin", "kelvin.json"},
	}
	for _, tt := range tests {
		got, err := FileName(tt.key)
		if err != nil || got != tt.want {
			t.Errorf("FileName(%q) = %q, %v; want %q", tt.key, got, err, tt.want)
		}
	}
	for _, key := range []string{"", "_", "___", "é", "/"} {
		if got, err := FileName(key); !errors.Is(err, ErrBadKey) {
			t.Errorf("FileName(%q) = %q, %v; want ErrBadKey", key, got, err)
		}
	}
}
