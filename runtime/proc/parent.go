package proc

import "sync/atomic"

var withThisProcess atomic.Bool

// StopWithThisProcess makes the processes Run starts from now on die when
// this process dies, even of SIGKILL, where the system can (Linux:
// PR_SET_PDEATHSIG; elsewhere it does nothing). lobster worker calls it: a
// worker that is lost loses its steps' attempts, which the run makes again
// elsewhere, and an attempt must not go on running unseen beside the
// next. Only the process Run started gets the signal (a shell, or the one
// program the shell became); what it started in turn is orphaned, but no
// further command of the step's script runs.
func StopWithThisProcess() { withThisProcess.Store(true) }
