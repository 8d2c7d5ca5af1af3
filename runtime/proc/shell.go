package proc

import (
	"path/filepath"
	"strings"

	"github.com/lobsterdev/lobster/lang/js"
)

// Shell is the program and arguments that run line as a shell command, as
// the reference chooses them: LOBSTER_SHELL from env
// when set, with arguments that suit its kind; else ComSpec on Windows;
// else /bin/sh -lc (a login shell; $SHELL is ignored). getenv reads the
// step's merged environment; goos is runtime.GOOS.
func Shell(line string, getenv func(string) string, goos string) (name string, args []string) {
	if name := js.Trim(getenv("LOBSTER_SHELL")); name != "" {
		base := js.ToLower(name)
		switch {
		case hasAnySuffix(base, "powershell", "powershell.exe", "pwsh", "pwsh.exe"):
			return name, []string{"-NoProfile", "-Command", line}
		case hasAnySuffix(base, "cmd", "cmd.exe") || goos == "windows":
			return name, []string{"/d", "/s", "/c", line}
		}
		return name, []string{"-lc", line}
	}
	if goos == "windows" {
		name := strings.TrimSpace(getenv("ComSpec"))
		if name == "" {
			name = strings.TrimSpace(getenv("COMSPEC"))
		}
		if name == "" {
			name = "cmd.exe"
		}
		return name, []string{"/d", "/s", "/c", line}
	}
	return filepath.FromSlash("/bin/sh"), []string{"-lc", line}
}

func hasAnySuffix(s string, suffixes ...string) bool {
	for _, suffix := range suffixes {
		if strings.HasSuffix(s, suffix) {
			return true
		}
	}
	return false
}
