package state

import (
	"errors"
	"strings"
	"testing"
)

// testKey is a fresh state key with prefix, as lobster draws them.
func testKey(prefix string) string {
	h := RandomHex(16)
	return prefix + h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

func TestResumeKind(t *testing.T) {
	const id = "0b6a4c1e-8f7e-4c1a-9d52-3f0e7c1a2b3c"
	for key, want := range map[string]string{
		"workflow_resume_" + id: KindWorkflow,
		"workflow-resume_" + id: KindWorkflow,
		"pipeline_resume_" + id: KindPipeline,
		// Not resume states: other files of the directory.
		"approval_0a1b2c3d":                         "",
		"workflow_resume_" + id + ".json.lock":      "",
		".workflow_resume_" + id + ".json.0a1b.tmp": "",
		"workflow_resume_" + id + ".lock":           "",
		"config":                                    "",
		"pipeline-resume_" + id:                     "",
		"WORKFLOW_RESUME_" + id:                     "",
		// Malformed: the file name would be the same, the key is not.
		"workflow_resume_" + strings.ToUpper(id):              "",
		"workflow_resume_" + id[:35]:                          "",
		"workflow_resume_" + id + "0":                         "",
		"workflow_resume_" + strings.ReplaceAll(id, "-", "_"): "",
		"workflow_resume_../" + id[3:]:                        "",
		"workflow_resume_" + strings.Repeat("a", 5000):        "",
		"": "",
	} {
		if got := ResumeKind(key); got != want {
			t.Errorf("ResumeKind(%.60q) = %q, want %q", key, got, want)
		}
	}
	if got := ResumeKind(testKey(PipelinePrefix)); got != KindPipeline {
		t.Errorf("testKey gives %q", got)
	}
}

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
