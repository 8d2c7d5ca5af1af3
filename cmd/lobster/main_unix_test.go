//go:build unix

package main

import (
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/lobsterdev/lobster/internal/proctest"
)

func init() { scriptCmds["gone"] = cmdGone }

// cmdGone implements "gone PIDFILE": the process whose pid PIDFILE holds
// (written within 5 s) has stopped within 2 s; a survivor is killed and
// fails the script.
func cmdGone(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: gone PIDFILE")
	}
	pid := proctest.WaitPID(ts.MkAbs(args[0]))
	if pid == 0 {
		ts.Fatalf("gone: no pid in %s", args[0])
	}
	if !proctest.Gone(pid) {
		ts.Fatalf("process %d survived", pid)
	}
}
