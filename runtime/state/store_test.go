package state

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	// The crash test runs this binary as a writer and kills it mid-write.
	if path := os.Getenv("STATE_TEST_WRITER"); path != "" {
		writeUntil(path, os.Getenv("STATE_TEST_CRASH_AT"))
	}
	if arg := os.Getenv("STATE_TEST_CLAIM"); arg != "" {
		claimOnce(arg)
	}
	os.Exit(m.Run())
}

// writeFile writes a fixture file (mode 0600); a failure stops the test.
func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// mkdir makes a fixture directory and its parents (mode 0700); a failure
// stops the test.
func mkdir(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(path, 0o700); err != nil {
		t.Fatal(err)
	}
}

func newStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "nested", "state"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// leftovers lists the files in dir other than want: temporary files and
// lock directories must not outlive an operation.
func leftovers(t *testing.T, dir string, want ...string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var extra []string
	for _, e := range entries {
		if !contains(want, e.Name()) {
			extra = append(extra, e.Name())
		}
	}
	return extra
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestOpenCreatesPrivateDirectory(t *testing.T) {
	s := newStore(t)
	st, err := os.Stat(s.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o700 {
		t.Errorf("state directory mode = %v, want 0700", st.Mode().Perm())
	}
	if _, err := Open(s.Dir); err != nil {
		t.Errorf("opening an existing directory again: %v", err)
	}
	file := filepath.Join(s.Dir, "file")
	writeFile(t, file, nil)
	if _, err := Open(file); !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("Open(a file) = %v, want ENOTDIR", err)
	}
}

func TestDefaultDir(t *testing.T) {
	env := map[string]string{"LOBSTER_STATE_DIR": "  rel/dir "}
	got, err := DefaultDir(func(k string) string { return env[k] })
	wd, _ := os.Getwd()
	if err != nil || got != filepath.Join(wd, "rel", "dir") {
		t.Errorf("DefaultDir = %q, %v; want rel/dir under the working directory", got, err)
	}
	t.Setenv("HOME", "/home/someone")
	got, err = DefaultDir(func(string) string { return " " })
	if err != nil || got != "/home/someone/.lobster/state" {
		t.Errorf("DefaultDir without LOBSTER_STATE_DIR = %q, %v", got, err)
	}
}

func TestWriteReadDelete(t *testing.T) {
	s, ctx := newStore(t), context.Background()
	value := map[string]any{"a": 1.0, "html": "<b>&</b>"}
	if err := s.Write(ctx, "Demo Key", value); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(s.Dir, "demo_key.json"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"a\": 1,\n  \"html\": \"<b>&</b>\"\n}\n"; string(data) != want {
		t.Errorf("file = %q, want the reference's format %q", data, want)
	}
	var got map[string]any
	if found, err := s.Read(ctx, "demo_key", &got); !found || err != nil || got["html"] != "<b>&</b>" {
		t.Errorf("Read = %v, %v, %v", got, found, err)
	}
	if err := s.Delete(ctx, "demo_key"); err != nil {
		t.Fatal(err)
	}
	if found, err := s.Read(ctx, "demo_key", &got); found || err != nil {
		t.Errorf("Read after Delete = found %v, %v", found, err)
	}
	if err := s.Delete(ctx, "demo_key"); err != nil {
		t.Errorf("deleting a missing key: %v", err)
	}
	if extra := leftovers(t, s.Dir); extra != nil {
		t.Errorf("left behind: %v", extra)
	}
}

func TestReadCorruptStateIsAnError(t *testing.T) {
	s := newStore(t)
	writeFile(t, filepath.Join(s.Dir, "k.json"), []byte("{\"half"))
	var v any
	found, err := s.Read(context.Background(), "k", &v)
	if !found || err == nil {
		t.Errorf("Read(corrupt) = found %v, err %v; want the JSON error", found, err)
	}
}

func TestReadWithoutLockPermission(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	s := newStore(t)
	if err := s.Write(context.Background(), "k", 7); err != nil {
		t.Fatal(err)
	}
	os.Chmod(s.Dir, 0o500)
	defer os.Chmod(s.Dir, 0o700)
	var v int
	if found, err := s.Read(context.Background(), "k", &v); !found || err != nil || v != 7 {
		t.Errorf("Read in a read-only directory = %v, %v, %v; want 7", v, found, err)
	}
}

func TestWriteFileAtomicModes(t *testing.T) {
	dir := t.TempDir()
	fresh := filepath.Join(dir, "fresh.json")
	if err := WriteFileAtomic(fresh, []byte("1\n")); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(dir, "kept.json")
	writeFile(t, kept, []byte("0\n"))
	os.Chmod(kept, 0o640)
	if err := WriteFileAtomic(kept, []byte("1\n")); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]fs.FileMode{fresh: 0o600, kept: 0o640} {
		st, err := os.Stat(path)
		if err != nil || st.Mode().Perm() != want {
			t.Errorf("%s: mode %v, %v; want %v", filepath.Base(path), st.Mode().Perm(), err, want)
		}
	}
	if extra := leftovers(t, dir, "fresh.json", "kept.json"); extra != nil {
		t.Errorf("left behind: %v", extra)
	}
}

func TestWriteFileAtomicOverDirectory(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	mkdir(t, target)
	if err := WriteFileAtomic(target, []byte("x")); err == nil {
		t.Error("writing over a directory succeeded")
	}
	if extra := leftovers(t, dir, "target"); extra != nil {
		t.Errorf("left behind: %v", extra)
	}
}

func TestWriteFileAtomicRenameFailureKeepsOld(t *testing.T) {
	// A target whose directory entry cannot be replaced: a non-empty
	// directory of the same name makes the rename fail after the
	// temporary file is written.
	dir := t.TempDir()
	target := filepath.Join(dir, "t")
	mkdir(t, filepath.Join(target, "child"))
	err := WriteFileAtomic(target, []byte("new"))
	if err == nil {
		t.Fatal("rename over a non-empty directory succeeded")
	}
	if extra := leftovers(t, dir, "t"); extra != nil {
		t.Errorf("left behind: %v", extra)
	}
}

func TestCreateExclusive(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "approval_0a1b2c3d.json")
	if err := CreateExclusive(path, []byte("first\n")); err != nil {
		t.Fatal(err)
	}
	if err := CreateExclusive(path, []byte("second\n")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second CreateExclusive = %v, want ErrExist", err)
	}
	data, _ := os.ReadFile(path)
	st, _ := os.Stat(path)
	if string(data) != "first\n" || st.Mode().Perm() != 0o600 {
		t.Errorf("after two creates: %q mode %v; want the first content, 0600", data, st.Mode().Perm())
	}
	if extra := leftovers(t, dir, filepath.Base(path)); extra != nil {
		t.Errorf("left behind: %v", extra)
	}
}

func TestConcurrentWritesNeverTorn(t *testing.T) {
	s, ctx := newStore(t), context.Background()
	values := make([]string, 20)
	for i := range values {
		values[i] = strings.Repeat(fmt.Sprint(i%10), 100_000+i)
	}
	var wg sync.WaitGroup
	for _, v := range values {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.Write(ctx, "big", v); err != nil {
				t.Error(err)
			}
		}()
	}
	readErrs := make(chan error, 200)
	for range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var got string
			found, err := s.Read(ctx, "big", &got)
			if err == nil && found && !contains(values, got) {
				err = fmt.Errorf("read a value no one wrote (%d bytes)", len(got))
			}
			if err != nil {
				readErrs <- err
			}
		}()
	}
	wg.Wait()
	close(readErrs)
	for err := range readErrs {
		t.Error(err)
	}
	if extra := leftovers(t, s.Dir, "big.json"); extra != nil {
		t.Errorf("left behind: %v", extra)
	}
}

func TestLockExcludes(t *testing.T) {
	s, ctx := newStore(t), context.Background()
	if err := s.Write(ctx, "n", 0); err != nil {
		t.Fatal(err)
	}
	path, _ := s.Path("n")
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 25 {
				lock, err := LockFile(ctx, path)
				if err != nil {
					t.Error(err)
					return
				}
				var n int
				data, _ := os.ReadFile(path)
				fmt.Sscan(string(data), &n)
				WriteFileAtomic(path, fmt.Appendf(nil, "%d\n", n+1))
				lock.Unlock()
			}
		}()
	}
	wg.Wait()
	var n int
	s.Read(ctx, "n", &n)
	if n != 100 {
		t.Errorf("100 locked increments gave %d", n)
	}
}

// fakeLock creates a lock directory for path as if held by owner, aged by
// age.
func fakeLock(t *testing.T, path, owner string, age time.Duration) string {
	t.Helper()
	dir := path + ".lock"
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	then := time.Now().Add(-age)
	if owner != "" {
		writeFile(t, filepath.Join(dir, "owner"), []byte(owner))
		os.Chtimes(filepath.Join(dir, "owner"), then, then)
	}
	os.Chtimes(dir, then, then)
	return dir
}

func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true command:", err)
	}
	return cmd.Process.Pid
}

func TestLockReclaimsStaleHolders(t *testing.T) {
	tests := []struct {
		name  string
		owner func(t *testing.T) string
		age   time.Duration
	}{
		{"dead process", func(t *testing.T) string { return fmt.Sprintf("%d::abc\n", deadPID(t)) }, 0},
		{"reused pid", func(t *testing.T) string { return fmt.Sprintf("%d:1:abc\n", os.Getpid()) }, 0},
		{"malformed owner, old lock", func(*testing.T) string { return "garbage" }, time.Minute},
		{"no owner file, old lock", func(*testing.T) string { return "" }, time.Minute},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "reused pid" && processStart(os.Getpid()) == "" {
				t.Skip("process start times are unknown here")
			}
			path := filepath.Join(t.TempDir(), "k.json")
			fakeLock(t, path, tt.owner(t), tt.age)
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			lock, err := LockFile(ctx, path)
			if err != nil {
				t.Fatalf("stale lock not reclaimed: %v", err)
			}
			if err := lock.Unlock(); err != nil {
				t.Fatal(err)
			}
			if extra := leftovers(t, filepath.Dir(path)); extra != nil {
				t.Errorf("left behind: %v", extra)
			}
		})
	}
}

func TestLockWaitsForLiveHolder(t *testing.T) {
	tests := []struct{ name, owner string }{
		// Our own pid with no start time: alive, identity unknown, fresh.
		{"live, start unknown", fmt.Sprintf("%d::abc\n", os.Getpid())},
		{"live, same start", fmt.Sprintf("%d:%s:abc\n", os.Getpid(), processStart(os.Getpid()))},
		{"malformed owner, fresh lock", "garbage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "k.json")
			dir := fakeLock(t, path, tt.owner, 2*time.Second)
			ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
			defer cancel()
			if lock, err := LockFile(ctx, path); !errors.Is(err, context.DeadlineExceeded) {
				if lock != nil {
					lock.Unlock()
				}
				t.Fatalf("LockFile over a live holder = %v, want to wait until the deadline", err)
			}
			if text, _ := os.ReadFile(filepath.Join(dir, "owner")); string(text) != tt.owner {
				t.Errorf("the live holder's owner file changed to %q", text)
			}
		})
	}
}

func TestUnlockLeavesAReclaimedLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k.json")
	lock, err := LockFile(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	// Another process took the lock over, taking us for dead.
	other := "1:2:theirs\n"
	writeFile(t, filepath.Join(lock.dir, "owner"), []byte(other))
	lock.Unlock()
	if text, err := os.ReadFile(filepath.Join(lock.dir, "owner")); err != nil || string(text) != other {
		t.Errorf("Unlock removed a lock that is no longer ours: %q, %v", text, err)
	}
}

func TestReclaimSkipsReplacedLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k.json")
	dir := fakeLock(t, path, "garbage", time.Minute)
	// Another reclaimer is at work: this one must leave the lock alone.
	mkdir(t, filepath.Join(dir, ".reclaiming"))
	if reclaim(dir) {
		t.Error("reclaimed a lock another reclaimer holds")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Errorf("the lock is gone: %v", err)
	}
}

// writeUntil is the crash test's writer: it replaces path with a new value
// and, at the crash point named, says so on standard output and waits to
// be killed. A write that never reaches the point ends the process.
func writeUntil(path, point string) {
	testCrashPoint = func(p string) {
		if p == point {
			fmt.Println(p)
			select {}
		}
	}
	data, _ := Encode(map[string]string{"v": strings.Repeat("b", 200_000)})
	if err := WriteFileAtomic(path, data); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// TestCrashMidWriteKeepsAReadableState kills a writer at each point of a
// write: the state read afterwards is the old value up to the rename and
// the new one after, never a mix or nothing.
func TestCrashMidWriteKeepsAReadableState(t *testing.T) {
	s := newStore(t)
	path, _ := s.Path("resume")
	for _, tt := range []struct{ point, want string }{
		{"created", "a"}, {"written", "a"}, {"synced", "a"}, {"renamed", "b"},
	} {
		first := map[string]string{"v": strings.Repeat("a", 200_000)}
		if err := s.Write(context.Background(), "resume", first); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "STATE_TEST_WRITER="+path, "STATE_TEST_CRASH_AT="+tt.point)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, _ := bufio.NewReader(out).ReadString('\n')
		cmd.Process.Kill()
		cmd.Wait()
		if line != tt.point+"\n" {
			t.Fatalf("the writer did not stop at %q (it said %q)", tt.point, line)
		}
		var got map[string]string
		found, err := s.Read(context.Background(), "resume", &got)
		if err != nil || !found {
			t.Fatalf("killed at %q: state after a crash: found %v, %v", tt.point, found, err)
		}
		if v := got["v"]; v != strings.Repeat(tt.want, 200_000) {
			t.Errorf("killed at %q: a value of %d bytes starting %.10q, want %q repeated", tt.point, len(v), v, tt.want)
		}
	}
}
