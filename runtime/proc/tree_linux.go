package proc

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TreeEnv is the environment variable that marks the processes of a
// running command: its value lists the ids of the trees a process belongs
// to (an outer lobster's first), and every descendant inherits it unless it
// clears its environment. It is how a stop finds the descendants that left
// the command's process group and were adopted by this process.
const TreeEnv = "LOBSTER_PROCESS_TREE"

// clockTicks is USER_HZ, the unit of process start times in /proc.
const clockTicks = 100

// The registry of running trees, shared by every Run of the process.
var reg struct {
	sync.Mutex
	once      sync.Once
	subreaper bool
	leaders   map[int]bool   // started leaders whose Wait has not returned
	trees     map[*tree]bool // running trees, and finished ones that may overlap them
	kick      chan struct{}  // asks the reaper for a pass
	foreign   map[int]time.Time
}

// A tree is a started command: its leader, the process group the leader
// leads, and every process adopted by this one that descends from it.
type tree struct {
	id     string
	leader int
	pgid   int
	start  uint64 // the leader's start, in clock ticks since boot
	end    uint64 // when Run finished with it; 0 while running
	reaped atomic.Bool
}

// enableSubreaper makes this process a child subreaper (orphaned
// descendants are re-parented to it, not to init, so that a stop can still
// find them) and starts the reaper of those that exit. Where that is not
// possible, stops reach only descendants whose parents are alive.
func enableSubreaper() {
	reg.once.Do(func() {
		reg.leaders = map[int]bool{}
		reg.trees = map[*tree]bool{}
		reg.foreign = map[int]time.Time{}
		reg.kick = make(chan struct{}, 1)
		if unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != nil {
			return
		}
		reg.subreaper = true
		chld := make(chan os.Signal, 1)
		signal.Notify(chld, syscall.SIGCHLD)
		go reapLoop(chld)
	})
}

// startTree starts cmd with env plus its tree's mark, and registers it.
func startTree(cmd *exec.Cmd, env []string) (*tree, error) {
	enableSubreaper()
	t := &tree{id: newTreeID()}
	cmd.Env = withMark(env, t.id)
	reg.Lock()
	defer reg.Unlock()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	t.leader, t.pgid = cmd.Process.Pid, cmd.Process.Pid
	if st, ok := readStat(t.leader); ok {
		t.start = st.start
	} else {
		t.start = nowTicks()
	}
	reg.leaders[t.leader] = true
	reg.trees[t] = true
	return t, nil
}

// leaderDone records that the leader was waited for: its pid may now be
// reused, and the reaper may look past it.
func (t *tree) leaderDone() {
	reg.Lock()
	delete(reg.leaders, t.leader)
	t.reaped.Store(true)
	reg.Unlock()
	kickReaper()
}

// finish ends the tree's Run. The tree stays known while it may overlap a
// running one, to keep that one from adopting its unmarked orphans.
func (t *tree) finish() {
	reg.Lock()
	defer reg.Unlock()
	t.end = nowTicks() + 1
	oldest := uint64(1<<64 - 1)
	for u := range reg.trees {
		if u.end == 0 && u.start < oldest {
			oldest = u.start
		}
	}
	for u := range reg.trees {
		if u.end != 0 && u.end < oldest {
			delete(reg.trees, u)
		}
	}
}

// signal sends sig to the tree's process group and to each of its
// processes, and says how many processes it found running.
func (t *tree) signal(sig sigType) int {
	if !t.reaped.Load() {
		_ = syscall.Kill(-t.pgid, sig)
	}
	pids := t.members()
	for _, pid := range pids {
		_ = syscall.Kill(pid, sig)
	}
	return len(pids)
}

// gone says whether nothing of the tree runs any more, its leader waited
// for.
func (t *tree) gone() bool {
	return t.reaped.Load() && len(t.members()) == 0
}

// killBound bounds the rounds of SIGKILL a stop sends: a process that
// cannot die (stuck in the kernel) does not hold the stop longer.
const killBound = 500 * time.Millisecond

// kill sends SIGKILL to every process of the tree, again and again until
// a round finds none running: a process killed while it forks leaves
// children that the next round finds.
func (t *tree) kill() {
	deadline := time.Now().Add(killBound)
	for pause := time.Millisecond; ; pause = min(2*pause, 20*time.Millisecond) {
		if t.signal(syscall.SIGKILL) == 0 || time.Now().After(deadline) {
			return
		}
		time.Sleep(pause)
	}
}

// members lists the running processes of the tree: its leader, the
// members of its process group, the adopted processes it owns, and all
// their descendants.
func (t *tree) members() []int {
	procs := scanProcs()
	self, ownGroup := os.Getpid(), syscall.Getpgrp()
	children := map[int][]int{}
	var todo []int
	reg.Lock()
	for _, p := range procs {
		if p.state == 'Z' || p.state == 'X' || p.pid == self {
			continue
		}
		children[p.ppid] = append(children[p.ppid], p.pid)
		switch {
		case p.pid == t.leader && !t.reaped.Load() && p.start == t.start,
			p.pgid == t.pgid,
			p.ppid == self && !reg.leaders[p.pid] && t.owns(p, ownGroup):
			todo = append(todo, p.pid)
		}
	}
	reg.Unlock()
	seen := map[int]bool{}
	var out []int
	for len(todo) > 0 {
		pid := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		out = append(out, pid)
		todo = append(todo, children[pid]...)
	}
	return out
}

// owns says whether p, adopted by this process, descends from the tree:
// it carries the tree's mark, or, with no mark at all (it cleared its
// environment), it started while this tree and no other was running. The
// caller holds reg.
func (t *tree) owns(p procStat, ownGroup int) bool {
	if mark, ok := readMark(p.pid); ok {
		for _, id := range strings.Fields(mark) {
			if id == t.id {
				return true
			}
		}
		return false
	}
	if p.pgid == ownGroup || p.start < t.start {
		return false
	}
	for u := range reg.trees {
		if u != t && u.start <= p.start && (u.end == 0 || p.start <= u.end) {
			return false
		}
	}
	return true
}

// kickReaper asks for a reaping pass.
func kickReaper() {
	if !reg.subreaper {
		return
	}
	select {
	case reg.kick <- struct{}{}:
	default:
	}
}

// reapLoop reaps adopted descendants as they exit.
func reapLoop(chld <-chan os.Signal) {
	retry := time.NewTimer(time.Hour)
	retry.Stop()
	for {
		select {
		case <-chld:
		case <-reg.kick:
		case <-retry.C:
		}
		if reapOrphans() {
			retry.Reset(100 * time.Millisecond)
		}
	}
}

// foreignWait is how long an exited child that this package did not adopt
// (one that other code started, in this process's own group) is left for
// its owner to wait for before the reaper takes it.
const foreignWait = 5 * time.Second

// reapOrphans waits for the exited children of this process that are
// neither leaders (Run waits for those) nor, for foreignWait, children
// that other code started, which stay in this process's group. It reports
// whether it stopped at such a child and must look again later.
func reapOrphans() (again bool) {
	reg.Lock()
	defer reg.Unlock()
	ownGroup := syscall.Getpgrp()
	for {
		pid, err := peekExited()
		if err != nil || pid <= 0 || reg.leaders[pid] {
			return false
		}
		if st, ok := readStat(pid); ok && st.pgid == ownGroup {
			since, seen := reg.foreign[pid]
			if !seen {
				reg.foreign[pid] = time.Now()
				return true
			}
			if time.Since(since) < foreignWait {
				return true
			}
		}
		delete(reg.foreign, pid)
		var ws unix.WaitStatus
		if _, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil); err != nil {
			return false
		}
	}
}

// peekExited is the pid of an exited child, left waitable, or 0.
func peekExited() (int, error) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_ALL, 0, &info, unix.WEXITED|unix.WNOHANG|unix.WNOWAIT, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, err
		}
		return siginfoPID(&info), nil
	}
}

// siginfoPID is si_pid: it follows si_signo, si_errno and si_code, at the
// alignment of the union they precede (a pointer's). unix.Siginfo leaves
// that union as unnamed bytes, so it is read through unsafe: a matter of
// decoding, not of speed.
func siginfoPID(info *unix.Siginfo) int {
	raw := (*[unsafe.Sizeof(unix.Siginfo{})]byte)(unsafe.Pointer(info))
	off := 12
	if unsafe.Sizeof(uintptr(0)) == 8 {
		off = 16
	}
	return int(int32(binary.NativeEndian.Uint32(raw[off:])))
}

// A procStat is what a stop needs of /proc/<pid>/stat.
type procStat struct {
	pid, ppid, pgid int
	state           byte
	start           uint64
}

// scanProcs reads the stat of every process.
func scanProcs() []procStat {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	procs := make([]procStat, 0, len(names))
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok {
			procs = append(procs, st)
		}
	}
	return procs
}

// readStat reads /proc/<pid>/stat. The command name (field 2) may hold
// spaces and parentheses: fields are counted from the last ")".
func readStat(pid int) (procStat, bool) {
	var buf [1024]byte
	fd, err := syscall.Open("/proc/"+strconv.Itoa(pid)+"/stat", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return procStat{}, false
	}
	n, err := syscall.Read(fd, buf[:])
	syscall.Close(fd)
	if err != nil || n <= 0 {
		return procStat{}, false
	}
	data := buf[:n]
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return procStat{}, false
	}
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 20 || len(fields[0]) != 1 {
		return procStat{}, false
	}
	ppid, _ := strconv.Atoi(fields[1])
	pgid, _ := strconv.Atoi(fields[2])
	start, _ := strconv.ParseUint(fields[19], 10, 64)
	return procStat{pid: pid, ppid: ppid, pgid: pgid, state: fields[0][0], start: start}, true
}

// maxEnviron bounds the environment read to find a mark.
const maxEnviron = 4 << 20

// readMark is the value of TreeEnv in the environment pid started with;
// ok is false when that environment has none or cannot be read.
func readMark(pid int) (mark string, ok bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return "", false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxEnviron))
	if err != nil {
		return "", false
	}
	for entry := range bytes.SplitSeq(data, []byte{0}) {
		if v, found := bytes.CutPrefix(entry, []byte(TreeEnv+"=")); found {
			return string(v), true
		}
	}
	return "", false
}

// withMark is env with this tree's id added to TreeEnv.
func withMark(env []string, id string) []string {
	out := make([]string, 0, len(env)+1)
	mark := id
	for _, kv := range env {
		if v, found := strings.CutPrefix(kv, TreeEnv+"="); found {
			if v = strings.TrimSpace(v); v != "" {
				mark = v + " " + id
			}
			continue
		}
		out = append(out, kv)
	}
	return append(out, TreeEnv+"="+mark)
}

func newTreeID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// nowTicks is the time since boot in the clock ticks of process start
// times.
func nowTicks() uint64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts) != nil {
		return 0
	}
	return uint64(ts.Nano()) / (uint64(time.Second) / clockTicks)
}
