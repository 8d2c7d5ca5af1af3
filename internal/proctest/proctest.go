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

// WritePID is a shell snippet that writes the shell's own pid to pidFile
// atomically.
func WritePID(pidFile string) string {
	return "echo $$ > " + pidFile + ".tmp; mv " + pidFile + ".tmp " + pidFile
}

// Tagged lists the running processes whose environment holds
// PROCTEST_TAG=tag: what is left of a tree whose root was started with it.
func Tagged(tag string) []int {
	entries, _ := os.ReadDir("/proc")
	want := []byte("PROCTEST_TAG=" + tag + "\x00")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !Alive(pid) {
			continue
		}
		if bytes.HasPrefix(env, want) || bytes.Contains(env, append([]byte{0}, want...)) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// NoneTagged waits up to 2 s for the processes tagged tag to be gone and
// returns those that are not, after killing them so that they do not
// outlive the test.
func NoneTagged(tag string) []int {
	deadline := time.Now().Add(2 * time.Second)
	left := Tagged(tag)
	for len(left) > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		left = Tagged(tag)
	}
	for _, pid := range left {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	return left
}

// Zombies lists the children of this process that exited and were not
// reaped.
func Zombies() []int {
	entries, _ := os.ReadDir("/proc")
	self := strconv.Itoa(os.Getpid())
	var pids []int
	for _, e := range entries {
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		fields := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
		if len(fields) > 1 && fields[0] == "Z" && fields[1] == self {
			pid, _ := strconv.Atoi(e.Name())
			pids = append(pids, pid)
		}
	}
	return pids
}
