package state

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Timings of the lock protocol, the reference's.
const (
	lockRetry     = 10 * time.Millisecond  // between attempts on a held lock
	lockHeartbeat = 250 * time.Millisecond // how often a holder touches its owner file
	lockStaleAge  = 30 * time.Second       // a lock this old with no provable owner is stale
)

// A Lock is a held per-file lock; Unlock releases it.
//
// The lock on file F is the directory F.lock: creating it is the
// acquisition. Its owner file names the holder as "<pid>:<process start
// time>:<nonce>" and is touched while the lock is held, so that a waiter can
// tell a live holder from a crashed one and take over a dead holder's lock.
type Lock struct {
	dir   string // the lock directory
	owner string // the owner file's text, ours
	stop  chan struct{}
	done  sync.WaitGroup
}

// LockFile acquires the lock on path, waiting while another live holder has
// it, until ctx ends.
func LockFile(ctx context.Context, path string) (*Lock, error) {
	dir := path + ".lock"
	for {
		err := os.Mkdir(dir, 0o700)
		if err == nil {
			return hold(dir)
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if stale(dir) && reclaim(dir) {
			continue
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("wait for the lock on %s: %w", filepath.Base(path), context.Cause(ctx))
		case <-time.After(lockRetry):
		}
	}
}

// hold writes the owner file of the freshly created lock directory and
// starts the heartbeat.
func hold(dir string) (*Lock, error) {
	l := &Lock{
		dir:   dir,
		owner: fmt.Sprintf("%d:%s:%s\n", os.Getpid(), processStart(os.Getpid()), RandomHex(6)),
		stop:  make(chan struct{}),
	}
	if err := os.WriteFile(filepath.Join(dir, "owner"), []byte(l.owner), newFileMode); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	l.done.Add(1)
	go l.heartbeat()
	return l, nil
}

func (l *Lock) heartbeat() {
	defer l.done.Done()
	t := time.NewTicker(lockHeartbeat)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case now := <-t.C:
			_ = os.Chtimes(filepath.Join(l.dir, "owner"), now, now)
		}
	}
}

// Unlock releases the lock if it is still ours: a lock reclaimed by a
// waiter that took us for dead is left to its new holder.
func (l *Lock) Unlock() error {
	close(l.stop)
	l.done.Wait()
	text, err := readSmall(filepath.Join(l.dir, "owner"))
	if err != nil || string(text) != l.owner {
		return nil
	}
	return discard(l.dir)
}

// discard removes a lock directory by first renaming it away, so that the
// name is free at once even if the removal fails halfway.
func discard(dir string) error {
	away := fmt.Sprintf("%s.release-%d-%s", dir, os.Getpid(), RandomHex(6))
	if err := os.Rename(dir, away); err != nil {
		return err
	}
	return os.RemoveAll(away)
}

// stale says whether the holder of the lock directory is gone: its process
// is dead, or the process with its id started at another time (the id was
// reused), or, when neither can be told, the lock has not been touched for
// lockStaleAge.
func stale(dir string) bool {
	ownerPath := filepath.Join(dir, "owner")
	text, err := readSmall(ownerPath)
	pid, start, ok := parseOwner(string(text))
	if err != nil || !ok {
		st, err := os.Stat(dir)
		return err == nil && time.Since(st.ModTime()) >= lockStaleAge
	}
	switch alive, known := processAlive(pid); {
	case known && !alive:
		return true
	case start != "":
		if now := processStart(pid); now != "" {
			return now != start
		}
	}
	before, err := os.Stat(ownerPath)
	if err != nil || time.Since(before.ModTime()) < lockStaleAge {
		return false
	}
	time.Sleep(lockHeartbeat)
	after, err := os.Stat(ownerPath)
	return err == nil && after.ModTime().Equal(before.ModTime())
}

// parseOwner splits an owner file's "<pid>:<start>:<nonce>\n".
func parseOwner(text string) (pid int, start string, ok bool) {
	parts := strings.Split(strings.TrimSuffix(text, "\n"), ":")
	if len(parts) != 3 || parts[2] == "" {
		return 0, "", false
	}
	pid, err := strconv.Atoi(parts[0])
	if err != nil || pid <= 0 {
		return 0, "", false
	}
	return pid, parts[1], true
}

// reclaim removes a stale lock directory. Only one waiter may reclaim a
// lock (it creates .reclaiming inside), and it removes the directory only
// if it is still the one found stale, not a new holder's lock that replaced
// it meanwhile. It reports whether an acquisition is worth retrying now.
func reclaim(dir string) bool {
	before, err := os.Stat(dir)
	if err != nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	marker := filepath.Join(dir, ".reclaiming")
	if err := os.Mkdir(marker, 0o700); err != nil {
		return false
	}
	now, err := os.Stat(dir)
	if err != nil || !os.SameFile(before, now) {
		os.Remove(marker)
		return false
	}
	return discard(dir) == nil
}
