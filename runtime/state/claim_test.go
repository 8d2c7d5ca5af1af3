package state

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func pausedRun(t *testing.T) (*Store, string) {
	t.Helper()
	s := newStore(t)
	key := testKey(WorkflowPrefix)
	path, _ := s.Path(key)
	// Keys out of alphabetical order, as the reference writes them.
	text := "{\n  \"steps\": [],\n  \"resumeAtIndex\": 2,\n  \"filePath\": \"/w.lobster\",\n  \"args\": {}\n}\n"
	if err := WriteFileAtomic(path, []byte(text)); err != nil {
		t.Fatal(err)
	}
	return s, key
}

func TestClaimOnceThenSpent(t *testing.T) {
	s, key := pausedRun(t)
	ctx := context.Background()
	loaded, err := s.LoadResume(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ClaimResume(ctx, key, loaded); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LoadResume(ctx, key); !errors.Is(err, ErrResumeNotFound) {
		t.Errorf("loading a claimed state = %v, want ErrResumeNotFound", err)
	}
	if _, err := s.ClaimResume(ctx, key, loaded); !errors.Is(err, ErrResumeNotFound) {
		t.Errorf("claiming twice = %v, want ErrResumeNotFound", err)
	}
}

func TestClaimRestoreLeavesTokenUsable(t *testing.T) {
	s, key := pausedRun(t)
	ctx := context.Background()
	loaded, err := s.LoadResume(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	path, _ := s.Path(key)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	claim, err := s.ClaimResume(ctx, key, loaded)
	if err != nil {
		t.Fatal(err)
	}
	if err := claim.Restore(ctx); err != nil {
		t.Fatal(err)
	}
	again, err := s.LoadResume(ctx, key)
	if err != nil || !sameJSON(again, loaded) {
		t.Fatalf("after Restore: %s, %v; want the original state", again, err)
	}
	if restored, _ := os.ReadFile(path); string(restored) != string(before) {
		t.Errorf("Restore wrote\n%s\nwant the original text\n%s", restored, before)
	}
	second, err := s.ClaimResume(ctx, key, again)
	if err != nil {
		t.Fatal(err)
	}
	// The first claim is over: its Restore must not undo the second's.
	claim.Restore(ctx)
	if _, err := s.LoadResume(ctx, key); !errors.Is(err, ErrResumeNotFound) {
		t.Errorf("a stale Restore revived a state another resume claimed: %v", err)
	}
	if err := second.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if extra := leftovers(t, s.Dir); extra != nil {
		t.Errorf("left behind: %v", extra)
	}
}

func TestClaimRefusesChangedState(t *testing.T) {
	s, key := pausedRun(t)
	ctx := context.Background()
	loaded, err := s.LoadResume(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Write(ctx, key, map[string]any{"resumeAtIndex": 3.0}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ClaimResume(ctx, key, loaded); !errors.Is(err, ErrResumeNotFound) {
		t.Errorf("claiming a state that changed since loading = %v", err)
	}
}

func TestLoadResumeRefusals(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	array, corrupt := testKey(WorkflowPrefix), testKey(PipelinePrefix)
	if err := s.Write(ctx, array, []int{1}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LoadResume(ctx, testKey(WorkflowPrefix)); !errors.Is(err, ErrResumeNotFound) {
		t.Errorf("missing: %v", err)
	}
	if _, err := s.LoadResume(ctx, array); !errors.Is(err, ErrResumeNotFound) {
		t.Errorf("not an object: %v", err)
	}
	path, _ := s.Path(corrupt)
	writeFile(t, path, []byte("{"))
	if _, err := s.LoadResume(ctx, corrupt); err == nil || errors.Is(err, ErrResumeNotFound) {
		t.Errorf("corrupt state = %v, want the JSON error surfaced", err)
	}
}

// TestResumeKeysByKind: files of the state directory that are not resume
// states are neither loaded nor claimed as one, whatever they hold, and a
// key too long for a file name is refused before the file system is
// touched.
func TestResumeKeysByKind(t *testing.T) {
	s, key := pausedRun(t)
	ctx := context.Background()
	id, err := s.CreateApproval(key, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	object := []byte(`{"filePath":"/w.lobster","resumeAtIndex":1,"steps":[],"args":{}}` + "\n")
	for _, other := range []string{"config", "approval_0a1b2c3d"} {
		path, _ := s.Path(other)
		writeFile(t, path, object)
	}
	for _, other := range []string{
		"approval_" + id, // the index of the paused run
		"config", "approval_0a1b2c3d",
		key + ".json.lock", "." + key + ".json.0a1b2c3d4e5f.tmp",
		WorkflowPrefix + strings.Repeat("0", 300),
	} {
		if _, err := s.LoadResume(ctx, other); !errors.Is(err, ErrResumeNotFound) {
			t.Errorf("LoadResume(%.40q) = %v, want ErrResumeNotFound", other, err)
		}
		if _, err := s.ClaimResume(ctx, other, object); !errors.Is(err, ErrResumeNotFound) {
			t.Errorf("ClaimResume(%.40q) = %v, want ErrResumeNotFound", other, err)
		}
	}
	if got, err := s.LookupApproval(id); err != nil || got != key {
		t.Errorf("the paused run's approval id: %q, %v", got, err)
	}
	if _, err := s.LoadResume(ctx, key); err != nil {
		t.Errorf("the paused run: %v", err)
	}
	if extra := leftovers(t, s.Dir, filepath.Base(mustPath(t, s, key)), "approval_"+id+".json", "config.json", "approval_0a1b2c3d.json"); extra != nil {
		t.Errorf("left behind: %v", extra)
	}
}

func mustPath(t *testing.T, s *Store, key string) string {
	t.Helper()
	path, err := s.Path(key)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func TestConcurrentResumesOneClaim(t *testing.T) {
	s, key := pausedRun(t)
	ctx := context.Background()
	var won atomic.Int32
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			loaded, err := s.LoadResume(ctx, key)
			if err != nil {
				return // another resume already claimed it
			}
			if _, err := s.ClaimResume(ctx, key, loaded); err == nil {
				won.Add(1)
			} else if !errors.Is(err, ErrResumeNotFound) {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if won.Load() != 1 {
		t.Errorf("%d of 16 concurrent resumes claimed the state, want exactly 1", won.Load())
	}
}

func TestConcurrentResumesAcrossProcesses(t *testing.T) {
	s, key := pausedRun(t)
	const n = 6
	var wg sync.WaitGroup
	outputs := make([]string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), "STATE_TEST_CLAIM="+s.Dir+"\n"+key)
			out, _ := cmd.CombinedOutput()
			outputs[i] = strings.TrimSpace(string(out))
		}()
	}
	wg.Wait()
	claimed := 0
	for _, out := range outputs {
		switch out {
		case "claimed":
			claimed++
		case "not found":
		default:
			t.Errorf("a resuming process said %q", out)
		}
	}
	if claimed != 1 {
		t.Errorf("%d of %d resuming processes claimed the state, want exactly 1: %v", claimed, n, outputs)
	}
}

// claimOnce is the cross-process test's resume: it prints whether it got
// the claim.
func claimOnce(arg string) {
	dir, key, _ := strings.Cut(arg, "\n")
	s := &Store{Dir: dir}
	ctx := context.Background()
	loaded, err := s.LoadResume(ctx, key)
	if err == nil {
		_, err = s.ClaimResume(ctx, key, loaded)
	}
	switch {
	case err == nil:
		fmt.Println("claimed")
	case errors.Is(err, ErrResumeNotFound):
		fmt.Println("not found")
	default:
		fmt.Println(err)
	}
	os.Exit(0)
}
