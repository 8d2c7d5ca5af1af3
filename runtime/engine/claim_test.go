package engine

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lobsterdev/lobster/lang/parser"
	"github.com/lobsterdev/lobster/runtime/state"
)

// TestClaimOutlastsStepTimeout: a resume whose claim of the paused run's
// state takes longer than the next step's timeout (here its lock is held;
// on a loaded machine, a slow disk) still spends the state, as the
// reference does: the step times out and a replay finds nothing. The
// claim is the run's bookkeeping, not the step's work, so the step's
// timeout does not cut it short and leave the token usable.
func TestClaimOutlastsStepTimeout(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := dir + "/w.lobster"
	f, _ := parser.Parse(path, []byte("steps:\n  - id: gate\n    approval: go?\n  - id: effect\n    run: sleep 5\n    timeout_ms: 200\n"))
	store := &state.Store{Dir: dir + "/state"}
	opts := Options{Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}, FilePath: path, StateDir: store.Dir}
	_, key := runToApproval(t, f, opts)
	rs, err := LoadResume(ctx, store, key)
	if err != nil {
		t.Fatal(err)
	}
	statePath, err := store.Path(key)
	if err != nil {
		t.Fatal(err)
	}
	lock, err := state.LockFile(ctx, statePath)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(600 * time.Millisecond)
		lock.Unlock()
	}()
	rs.Approved = true
	opts.Resume = rs
	if _, err := Run(ctx, f, opts); err == nil || !strings.Contains(err.Error(), "Step 'effect' timed out after 200ms") {
		t.Fatalf("resume: %v, want the step's timeout", err)
	}
	if _, err := LoadResume(ctx, store, key); !errors.Is(err, errStateNotFound) {
		t.Errorf("replay: %v, want %v: the state was not spent", err, errStateNotFound)
	}
}
