package version

import (
	"runtime/debug"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "abcdef1234567890abcdef1234567890abcdef12"}}
	dirty := append(rev, debug.BuildSetting{Key: "vcs.modified", Value: "true"})
	clean := append(rev, debug.BuildSetting{Key: "vcs.modified", Value: "false"})
	for _, tt := range []struct {
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"v1.2.3", nil, "v1.2.3"}, // go install …@v1.2.3
		{"v0.0.0-20260913120000-abcdef123456", clean, "v0.0.0-20260913120000-abcdef123456"},
		{"v0.0.0-20260913120000-abcdef123456+dirty", dirty, "devel+abcdef123456.dirty"},
		{"v1.2.4-0.20260913120000-abcdef123456+dirty", rev, "devel+abcdef123456.dirty"},
		{"(devel)", dirty, "devel+abcdef123456.dirty"},
		{"(devel)", clean, "devel+abcdef123456"},
		{"(devel)", nil, "devel"}, // go run, go test
		{"", nil, "devel"},
	} {
		bi := &debug.BuildInfo{Main: debug.Module{Version: tt.version}, Settings: tt.settings}
		if got := fromBuildInfo(bi); got != tt.want {
			t.Errorf("%s %v: %s, want %s", tt.version, tt.settings, got, tt.want)
		}
	}
}

func TestLinkTime(t *testing.T) {
	defer func(v string) { version = v }(version)
	version = "v9.9.9"
	if got := String(); got != "v9.9.9" {
		t.Errorf("String() = %s with the link-time version set", got)
	}
}
