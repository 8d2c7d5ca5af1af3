//go:build unix

package state

import (
	"context"
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestFIFOsNeverBlock: a named pipe put in the place of a resume state, an
// approval index or a lock's owner file is refused at once by every reader
// (it would block a plain read forever).
func TestFIFOsNeverBlock(t *testing.T) {
	s := newStore(t)
	key := testKey(WorkflowPrefix)
	path, _ := s.Path(key)
	lockedKey := testKey(PipelinePrefix)
	lockedPath, _ := s.Path(lockedKey)
	mkdir(t, lockedPath+".lock")
	for _, fifo := range []string{path, filepath.Join(s.Dir, "approval_0a1b2c3d.json"), filepath.Join(lockedPath+".lock", "owner")} {
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Skip("no FIFOs here:", err)
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		ctx := context.Background()
		if _, err := s.LoadResume(ctx, key); err == nil {
			t.Error("LoadResume of a FIFO succeeded")
		}
		if _, err := s.LookupApproval("0a1b2c3d"); err == nil {
			t.Error("LookupApproval of a FIFO succeeded")
		}
		// A lock whose owner cannot be read is a fresh lock of unknown
		// holder: the wait ends with the context.
		ctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		defer cancel()
		if _, err := s.LoadResume(ctx, lockedKey); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("LoadResume under a lock with a FIFO owner = %v", err)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a reader blocked on a FIFO")
	}
}
