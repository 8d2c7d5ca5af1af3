package state

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// processAlive says whether process pid exists; known is false when that
// cannot be told.
func processAlive(pid int) (alive, known bool) {
	err := syscall.Kill(pid, 0)
	switch {
	case err == nil, errors.Is(err, syscall.EPERM):
		return true, true
	case errors.Is(err, syscall.ESRCH):
		return false, true
	}
	return false, false
}

// processStart is the start time of process pid in clock ticks since boot
// (field 22 of /proc/<pid>/stat), or "" when it cannot be read. With the
// pid it identifies a process even after the pid is reused.
func processStart(pid int) string {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	// The command name (field 2) may hold spaces and parentheses: count
	// fields from the last ")".
	rest := string(data)
	if i := strings.LastIndexByte(rest, ')'); i >= 0 {
		rest = rest[i+1:]
	}
	fields := strings.Fields(rest)
	if len(fields) < 20 {
		return ""
	}
	return fields[19] // field 22 overall: fields 3.. start at index 0
}
