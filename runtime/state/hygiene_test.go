package state

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// put writes a file of the store, aged by age.
func put(t *testing.T, s *Store, name, text string, age time.Duration) {
	t.Helper()
	path := filepath.Join(s.Dir, name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	then := time.Now().Add(-age)
	os.Chtimes(path, then, then)
}

func index(key string) string {
	return `{"stateKey":"` + key + `","createdAt":"2026-12-01T00:00:00.000Z"}` + "\n"
}

func workflowState(created time.Time, gate string) string {
	return fmt.Sprintf(`{"filePath":"/w/deploy.lobster","resumeAtIndex":1,"steps":{},"args":{},%s,"createdAt":%q}`, gate, ISOTime(created))
}

func TestPausedLists(t *testing.T) {
	s := newStore(t)
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	approval, input := testKey(WorkflowPrefix), testKey(WorkflowPrefix)
	pipeApproval, pipeInput := testKey(PipelinePrefix), testKey(PipelinePrefix)
	put(t, s, approval+".json", workflowState(now.Add(-3*time.Hour), `"approvalStepId":"deploy"`), 0)
	put(t, s, "approval_0a1b2c3d.json", index(approval), 0)
	put(t, s, input+".json", workflowState(now.Add(-time.Hour), `"inputStepId":"count"`), 0)
	stages := `"pipeline":[{"name":"exec","args":{},"raw":"exec --json x"},{"name":"approve","args":{},"raw":"approve --prompt ok?"},{"name":"ask","args":{},"raw":"ask --prompt why"}]`
	put(t, s, pipeApproval+".json", `{`+stages+`,"resumeAtIndex":2,"haltType":"approval_request","createdAt":"`+ISOTime(now.Add(-2*time.Hour))+`"}`, 0)
	put(t, s, "approval_0a1b2c3e.json", index(pipeApproval), 0)
	put(t, s, pipeInput+".json", `{`+stages+`,"resumeAtIndex":2,"haltType":"input_request","resumeMode":"same_stage","createdAt":"`+ISOTime(now.Add(-time.Minute))+`"}`, 0)
	// Not paused runs: a spent state, a corrupt one, other files.
	put(t, s, testKey(WorkflowPrefix)+".json", `{"type":"lobster.consumed-resume-state.v1","consumedAt":"x","claimId":"y"}`, 0)
	put(t, s, testKey(WorkflowPrefix)+".json", `{"filePath":`, 0)
	put(t, s, "config.json", workflowState(now, `"approvalStepId":"x"`), 0)
	put(t, s, "approval_0a1b2c3f.json", index("config"), 0)

	runs, err := s.Paused(context.Background(), now)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range runs {
		got = append(got, strings.Join([]string{r.StateKey, r.Kind, r.Waiting, r.Step, r.Workflow, r.ApprovalID, now.Sub(r.CreatedAt).String()}, "|"))
		if tok, err := DecodeToken(r.Token); err != nil || tok.StateKey != r.StateKey || tok.Kind != r.Kind {
			t.Errorf("%s: token %q decodes to %+v, %v", r.StateKey, r.Token, tok, err)
		}
	}
	want := []string{
		approval + "|workflow-file|approval|deploy|/w/deploy.lobster|0a1b2c3d|3h0m0s",
		pipeApproval + "|pipeline-resume|approval|stage 2 (approve)|exec --json x | approve --prompt ok? | ask --prompt why|0a1b2c3e|2h0m0s",
		input + "|workflow-file|input|count|/w/deploy.lobster||1h0m0s",
		pipeInput + "|pipeline-resume|input|stage 3 (ask)|exec --json x | approve --prompt ok? | ask --prompt why||1m0s",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Paused:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	empty := &Store{Dir: filepath.Join(t.TempDir(), "none")}
	if runs, err := empty.Paused(context.Background(), now); err != nil || len(runs) != 0 {
		t.Errorf("a missing directory: %v, %v", runs, err)
	}
}

// A pruneCase is a file of the store and whether Prune removes it.
type pruneCase struct {
	name, text string
	age        time.Duration
	gone       bool
}

func TestPruneRemovesLeftoversOnly(t *testing.T) {
	s := newStore(t)
	now := time.Now()
	paused, spentDead, spentLive, spentOld, spentRecent := testKey(WorkflowPrefix), testKey(WorkflowPrefix), testKey(PipelinePrefix), testKey(WorkflowPrefix), testKey(WorkflowPrefix)
	stone := func(owner string, claimed time.Time) string {
		return fmt.Sprintf(`{"type":"lobster.consumed-resume-state.v1","consumedAt":%q,"claimId":"c"%s}`, ISOTime(claimed), owner)
	}
	self := fmt.Sprintf(`,"owner":"%d:%s"`, os.Getpid(), processStart(os.Getpid()))
	dead := fmt.Sprintf(`,"owner":"%d:"`, deadPID(t))
	cases := []pruneCase{
		{paused + ".json", workflowState(now.Add(-400*24*time.Hour), `"approvalStepId":"a"`), 0, false},
		{"approval_00000001.json", index(paused), 0, false},
		{spentDead + ".json", stone(dead, now), 0, true},
		{"approval_00000002.json", index(spentDead), 0, true},
		{spentLive + ".json", stone(self, now.Add(-48*time.Hour)), 0, false},
		{"approval_00000003.json", index(spentLive), 0, false},
		{spentOld + ".json", stone("", now.Add(-25*time.Hour)), 0, true},
		{spentRecent + ".json", stone("", now.Add(-time.Hour)), 0, false},
		{"approval_00000004.json", index(testKey(WorkflowPrefix)), 0, true}, // its state is gone
		{"approval_00000005.json", index("config"), 0, true},
		{"approval_00000006.json", "{", 0, true},
		{"." + paused + ".json.0123456789ab.tmp", "{", 11 * time.Minute, true},
		{".approval_00000007.json.0123456789ab.tmp", "{", 11 * time.Minute, true},
		{"." + paused + ".json.0123456789ac.tmp", "{", time.Minute, false}, // a write under way
		// Never ours to remove: state.set values, look-alikes.
		{"config.json", `{"a":1}`, 400 * 24 * time.Hour, false},
		{".config.tmp", "x", time.Hour, false},
		{"approval_notanid.json", index("config"), 0, false},
		{"workflow_resume_x.json", stone(dead, now), 0, false},
	}
	for _, c := range cases {
		put(t, s, c.name, c.text, c.age)
	}
	staleLock := filepath.Join(s.Dir, spentDead+".json.lock")
	fakeLock(t, filepath.Join(s.Dir, spentDead+".json"), fmt.Sprintf("%d::abc\n", deadPID(t)), 0)
	liveLock := fakeLock(t, filepath.Join(s.Dir, "config.json"), fmt.Sprintf("%d:%s:abc\n", os.Getpid(), processStart(os.Getpid())), 0)
	oldRelease := filepath.Join(s.Dir, "config.json.lock.release-1-0123456789ab")
	mkdir(t, oldRelease)
	then := now.Add(-time.Hour)
	os.Chtimes(oldRelease, then, then)

	report := func(removed []Removal) []string {
		var names []string
		for _, r := range removed {
			names = append(names, r.File)
		}
		slices.Sort(names)
		return names
	}
	var want []string
	for _, c := range cases {
		if c.gone {
			want = append(want, c.name)
		}
	}
	want = append(want, filepath.Base(staleLock), filepath.Base(oldRelease))
	slices.Sort(want)

	dry, err := s.Prune(context.Background(), PruneOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := report(dry); !slices.Equal(got, want) {
		t.Errorf("dry run would remove\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range cases {
		if _, err := os.Stat(filepath.Join(s.Dir, c.name)); err != nil {
			t.Errorf("the dry run removed %s", c.name)
		}
	}
	removed, err := s.Prune(context.Background(), PruneOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := report(removed); !slices.Equal(got, want) {
		t.Errorf("removed\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, c := range cases {
		_, err := os.Stat(filepath.Join(s.Dir, c.name))
		if gone := errors.Is(err, os.ErrNotExist); gone != c.gone {
			t.Errorf("%s: removed %v, want %v", c.name, gone, c.gone)
		}
	}
	for path, want := range map[string]bool{staleLock: true, liveLock: false, oldRelease: true} {
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) != want {
			t.Errorf("%s: removed %v, want %v", filepath.Base(path), !want, want)
		}
	}
	// Nothing is left to remove.
	if again, err := s.Prune(context.Background(), PruneOptions{}); err != nil || len(again) != 0 {
		t.Errorf("a second prune: %v, %v", again, err)
	}
}

func TestPruneOlderThan(t *testing.T) {
	s := newStore(t)
	now := time.Now()
	old, young, corrupt, corruptYoung := testKey(WorkflowPrefix), testKey(PipelinePrefix), testKey(WorkflowPrefix), testKey(WorkflowPrefix)
	put(t, s, old+".json", workflowState(now.Add(-8*24*time.Hour), `"approvalStepId":"a"`), 0)
	put(t, s, "approval_00000001.json", index(old), 0)
	put(t, s, young+".json", `{"pipeline":[],"resumeAtIndex":1,"haltType":"approval_request","createdAt":"`+ISOTime(now.Add(-6*24*time.Hour))+`"}`, 0)
	put(t, s, "approval_00000002.json", index(young), 0)
	put(t, s, corrupt+".json", `{"filePath`, 8*24*time.Hour)
	put(t, s, corruptYoung+".json", `{"filePath`, time.Hour)
	removed, err := s.Prune(context.Background(), PruneOptions{OlderThan: 7 * 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range removed {
		got = append(got, r.File+": "+r.What)
	}
	slices.Sort(got)
	want := []string{"approval_00000001.json: approval id", corrupt + ".json: paused run", old + ".json: paused run"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("removed %q, want %q", got, want)
	}
	if runs, _ := s.Paused(context.Background(), now); len(runs) != 1 || runs[0].StateKey != young || runs[0].ApprovalID != "00000002" {
		t.Errorf("left: %+v", runs)
	}
}

// TestPruneNeverRacesAClaim: a prune of an expired paused run and a resume
// that loaded it and claims it, at once: either the resume claims it (the
// tombstone of a live claim stays) or the prune removes it (the claim
// finds nothing), never both, whatever the interleaving.
func TestPruneNeverRacesAClaim(t *testing.T) {
	ctx := context.Background()
	claimed, pruned := 0, 0
	for round := range 40 {
		s, key := pausedRun(t)
		path, _ := s.Path(key)
		loaded, err := s.LoadResume(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var claim *Claim
		var claimErr error
		var removed []Removal
		wg.Go(func() {
			if round%2 == 0 {
				time.Sleep(time.Duration(round%5) * time.Millisecond)
			}
			claim, claimErr = s.ClaimResume(ctx, key, loaded)
		})
		wg.Go(func() {
			removed, _ = s.Prune(ctx, PruneOptions{OlderThan: time.Nanosecond})
		})
		wg.Wait()
		_, statErr := os.Stat(path)
		switch {
		case claimErr == nil && claim != nil:
			claimed++
			if statErr != nil || len(removed) != 0 {
				t.Fatalf("round %d: claimed, and the prune removed %v", round, removed)
			}
		case errors.Is(claimErr, ErrResumeNotFound):
			pruned++
			if statErr == nil || len(removed) != 1 {
				t.Fatalf("round %d: the claim failed, the state is still there (%v)", round, removed)
			}
		default:
			t.Fatalf("round %d: claim %v", round, claimErr)
		}
	}
	t.Logf("%d claims won, %d prunes", claimed, pruned)
}

func TestClaimNamesItsOwner(t *testing.T) {
	s, key := pausedRun(t)
	ctx := context.Background()
	loaded, err := s.LoadResume(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ClaimResume(ctx, key, loaded); err != nil {
		t.Fatal(err)
	}
	path, _ := s.Path(key)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(`"owner": "%d:%s"`, os.Getpid(), processStart(os.Getpid())); !strings.Contains(string(data), want) {
		t.Errorf("tombstone %s, want it to name %s", data, want)
	}
	if removed, err := s.Prune(ctx, PruneOptions{OlderThan: time.Nanosecond}); err != nil || len(removed) != 0 {
		t.Errorf("a live claim's tombstone was pruned: %v, %v", removed, err)
	}
}
