// Command clawd.invoke calls the OpenClaw tool API from a shell, as the
// reference's program of the same name does: its arguments become one
// pipeline invocation of lobster's clawd.invoke command.
//
// Usage:
//
//	clawd.invoke --tool TOOL --action ACTION [--args-json JSON] [--url URL] [--token TOKEN] [--dry-run]
//
// It exits with lobster's exit code: 0 on success, 1 when the call fails,
// 2 when the arguments do not parse. The URL and token come from --url and
// --token or OPENCLAW_URL (CLAWD_URL) and OPENCLAW_TOKEN (CLAWD_TOKEN);
// "lobster help clawd.invoke" describes the command. lobster must be installed next
// to it (go install ./cmd/... does that) or on PATH.
package main

import (
	"os"

	"github.com/lobsterdev/lobster/internal/shim"
)

func main() {
	os.Exit(shim.Main("clawd.invoke", os.Args[1:], os.Stderr))
}
