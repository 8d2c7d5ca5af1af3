// Package version is the version of the lobster programs, the same for
// lobster, lobster-lsp and the shims: one line a script can compare.
//
//   - A release build sets it: go build -ldflags "-X
//     github.com/lobsterdev/lobster/internal/version.version=v1.2.3".
//   - Otherwise it is the main module's version from the build
//     information: the tag for go install …@v1.2.3, or the pseudo-version
//     Go stamps a build from a clean checkout with
//     (v0.0.0-20260913120000-abcdef123456).
//   - A build from a checkout with uncommitted changes is not any
//     version: it is devel+REVISION.dirty, REVISION the commit's first 12
//     hexadecimal digits.
//   - Without either (go run, go test, -buildvcs=false) it is devel, with
//     the revision when one is known.
package version

import (
	"runtime/debug"
	"strings"
)

// version is set at link time by a release build.
var version string

// String is the version.
func String() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return fromBuildInfo(bi)
}

func fromBuildInfo(bi *debug.BuildInfo) string {
	var revision string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	v := bi.Main.Version
	if strings.HasSuffix(v, "+dirty") {
		modified = true
	}
	if v != "" && v != "(devel)" && !modified {
		return v
	}
	if len(revision) > 12 {
		revision = revision[:12]
	}
	switch {
	case revision == "":
		return "devel"
	case modified:
		return "devel+" + revision + ".dirty"
	}
	return "devel+" + revision
}
