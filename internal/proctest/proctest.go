//go:build unix

// Package proctest helps tests that check that processes are gone.
package proctest

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// StubbornTree is a shell script that starts a grandchild ignoring SIGTERM,
// writes its pid to pidFile (atomically) and waits for it.
func StubbornTree(pidFile string) string {
	return "(trap '' TERM; while :; do sleep 1; done) & echo $! > " + pidFile + ".tmp; mv " + pidFile + ".tmp " + pidFile + "; wait"
}

// WaitPID waits up to 5 s for pidFile to name a process and returns its pid,
// or 0.
func WaitPID(pidFile string) int {
	for range 500 {
		if data, err := os.ReadFile(pidFile); err == nil {
			pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0
}

// Alive says whether pid runs; a zombie awaiting its reaper does not.
func Alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	return len(fields) > 0 && fields[0] != "Z"
}

// Gone waits up to 2 s for pid to stop running and reports whether it did;
// a survivor is killed so that it does not outlive the test.
func Gone(pid int) bool {
	deadline := time.Now().Add(2 * time.Second)
	for Alive(pid) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if Alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		return false
	}
	return true
}
