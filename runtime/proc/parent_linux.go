package proc

import "syscall"

// dieWithParent asks for SIGKILL when the thread that starts the process
// exits; the Go runtime does not end its threads while the program runs
// (no goroutine of lobster locks one), so in effect when this process does.
func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
