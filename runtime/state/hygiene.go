package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// A PausedRun is a run waiting at a gate, as `lobster state list` shows it.
type PausedRun struct {
	StateKey   string    `json:"stateKey"`
	Kind       string    `json:"kind"`    // KindWorkflow or KindPipeline
	Waiting    string    `json:"waiting"` // "approval" or "input"
	Workflow   string    `json:"workflow"`
	Step       string    `json:"step"`
	ApprovalID string    `json:"approvalId,omitempty"`
	CreatedAt  time.Time `json:"createdAt"`
	Token      string    `json:"resumeToken"`
}

// PruneOptions say what Prune removes besides leftovers.
type PruneOptions struct {
	// OlderThan, when positive, also removes the paused runs created
	// longer ago than that (with their approval ids); zero keeps every
	// paused run.
	OlderThan time.Duration
	// DryRun reports what would be removed and removes nothing.
	DryRun bool
	// Now is the time ages are measured from.
	Now time.Time
}

// A Removal is a file Prune removed, or would remove in a dry run.
type Removal struct {
	File   string `json:"file"`
	What   string `json:"what"` // see the What* constants
	Reason string `json:"reason"`
}

// What a removed file was.
const (
	WhatPausedRun     = "paused run"
	WhatTombstone     = "spent resume state"
	WhatTempFile      = "temporary file"
	WhatApprovalIndex = "approval id"
	WhatLock          = "lock"
)

// A Janitor lists the runs paused in a store and prunes the store. *Store
// is the local state directory's; an engine that keeps its runs elsewhere
// provides its own, and `lobster state` works on whichever the engine
// gives it.
type Janitor interface {
	Paused(ctx context.Context, now time.Time) ([]PausedRun, error)
	Prune(ctx context.Context, opts PruneOptions) ([]Removal, error)
}

var _ Janitor = (*Store)(nil)

// leftoverAge is how old a temporary file or a lock's removal directory
// must be before Prune takes it for a leftover: their writers rename or
// remove them within milliseconds, seconds on a slow disk.
const leftoverAge = 10 * time.Minute

// unknownClaimAge is how old a tombstone whose claimer is not named (one
// the reference wrote) must be before Prune takes its resume for gone.
const unknownClaimAge = 24 * time.Hour

// Paused lists the runs paused in the store, oldest first: every resume
// state (by its key's kind) that is still paused, with its approval id.
// A missing directory has none; unreadable states are left out.
func (s *Store) Paused(ctx context.Context, now time.Time) ([]PausedRun, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	ids := s.approvalIDs(entries)
	var runs []PausedRun
	for _, e := range entries {
		key, kind := resumeFile(e)
		if kind == "" {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		data, err := ReadFile(filepath.Join(s.Dir, e.Name()))
		if err != nil {
			continue
		}
		var v map[string]any
		if json.Unmarshal(data, &v) != nil || v == nil || v["type"] == tombstoneType {
			continue
		}
		run := describe(kind, v)
		run.StateKey, run.Kind = key, kind
		run.ApprovalID = ids[key]
		run.Token = Token{Kind: kind, StateKey: key}.Encode()
		if run.CreatedAt.IsZero() {
			if info, err := e.Info(); err == nil {
				run.CreatedAt = info.ModTime().UTC()
			}
		}
		runs = append(runs, run)
	}
	sort.Slice(runs, func(i, j int) bool {
		if !runs[i].CreatedAt.Equal(runs[j].CreatedAt) {
			return runs[i].CreatedAt.Before(runs[j].CreatedAt)
		}
		return runs[i].StateKey < runs[j].StateKey
	})
	return runs, nil
}

// resumeFile is the key and kind of the resume state a directory entry
// holds, or "" for any other entry.
func resumeFile(e fs.DirEntry) (key, kind string) {
	key, ok := strings.CutSuffix(e.Name(), ".json")
	if !ok || e.IsDir() {
		return "", ""
	}
	return key, ResumeKind(key)
}

// describe reads what a paused run waits for out of its state.
func describe(kind string, v map[string]any) PausedRun {
	var run PausedRun
	str := func(k string) string { s, _ := v[k].(string); return s }
	if t, err := time.Parse(time.RFC3339Nano, str("createdAt")); err == nil {
		run.CreatedAt = t.UTC()
	}
	if kind == KindWorkflow {
		run.Workflow = str("filePath")
		run.Waiting, run.Step = "approval", str("approvalStepId")
		if id := str("inputStepId"); id != "" {
			run.Waiting, run.Step = "input", id
		}
		return run
	}
	stages, _ := v["pipeline"].([]any)
	var raws []string
	for _, st := range stages {
		o, _ := st.(map[string]any)
		raw, _ := o["raw"].(string)
		raws = append(raws, raw)
	}
	run.Workflow = strings.Join(raws, " | ")
	at, _ := v["resumeAtIndex"].(float64)
	halted := int(at) - 1
	run.Waiting = "approval"
	if str("haltType") == "input_request" {
		run.Waiting = "input"
		if str("resumeMode") == "same_stage" {
			halted = int(at)
		}
	}
	if halted >= 0 && halted < len(stages) {
		o, _ := stages[halted].(map[string]any)
		name, _ := o["name"].(string)
		run.Step = "stage " + strconv.Itoa(halted+1) + " (" + name + ")"
	}
	return run
}

// approvalIDs maps the state keys that approval indexes name to their ids.
func (s *Store) approvalIDs(entries []fs.DirEntry) map[string]string {
	ids := map[string]string{}
	for _, e := range entries {
		id, ok := approvalFile(e)
		if !ok {
			continue
		}
		if key, err := s.LookupApproval(id); err == nil {
			ids[key] = id
		}
	}
	return ids
}

// approvalFile is the id of the approval index a directory entry holds.
func approvalFile(e fs.DirEntry) (id string, ok bool) {
	name := e.Name()
	id, ok = strings.CutPrefix(name, "approval_")
	if !ok || e.IsDir() {
		return "", false
	}
	id, ok = strings.CutSuffix(id, ".json")
	return id, ok && len(id) == approvalIDLen && sanitizeApprovalID(id) == id
}

// Prune removes what the store no longer needs, and never what a live run
// or resume uses:
//   - locks whose holder is gone (as a waiter takes them over);
//   - temporary files and lock removal directories older than 10 minutes
//     (their writers rename or remove them at once);
//   - spent resume states (tombstones) whose resume is no longer running:
//     the process that claimed them is gone, or, for a tombstone that does
//     not name it, after 24 hours;
//   - approval ids whose state is gone, spent (and removed), or not a
//     resume state at all;
//   - with opts.OlderThan, paused runs created longer ago, with their ids,
//     and resume states that cannot be read, by their modification time.
//
// A state is removed under its lock, after checking it is still what was
// judged: a resume that loaded it and claims it afterwards finds it gone
// ("not found"), never half of it. An interrupted prune leaves at worst an
// approval id without its state, which the next prune removes.
func (s *Store) Prune(ctx context.Context, opts PruneOptions) ([]Removal, error) {
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var removed []Removal
	note := func(name, what, reason string) {
		removed = append(removed, Removal{File: name, What: what, Reason: reason})
	}
	// Leftovers are judged by the clock, not by opts.Now: a margin that
	// keeps a live writer's files must not move with it.
	older := func(e fs.DirEntry, age time.Duration) bool {
		info, err := e.Info()
		return err == nil && time.Since(info.ModTime()) > age
	}
	// Locks and leftovers first: a stale lock would stop the states'
	// removal below.
	for _, e := range entries {
		name, path := e.Name(), filepath.Join(s.Dir, e.Name())
		switch {
		case e.IsDir() && strings.HasSuffix(name, ".lock"):
			if stale(path) && (opts.DryRun || reclaim(path)) {
				note(name, WhatLock, "its holder is gone")
			}
		case e.IsDir() && strings.Contains(name, ".lock.release-") && older(e, leftoverAge):
			if opts.DryRun || os.RemoveAll(path) == nil {
				note(name, WhatLock, "a released lock left behind")
			}
		case !e.IsDir() && isTempName(name) && older(e, leftoverAge):
			if opts.DryRun || removeFile(path) == nil {
				note(name, WhatTempFile, "an interrupted write left it behind")
			}
		}
	}
	// Resume states.
	gone := map[string]bool{} // keys whose state was removed
	for _, e := range entries {
		if err := ctx.Err(); err != nil {
			return removed, err
		}
		key, kind := resumeFile(e)
		if kind == "" {
			continue
		}
		path := filepath.Join(s.Dir, e.Name())
		data, err := ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			gone[key] = true
			continue
		}
		what, reason := s.judge(data, err, e, opts)
		if what == "" {
			continue
		}
		if !opts.DryRun {
			ok, err := s.removeIfUnchanged(ctx, key, snapshot{data, err})
			if err != nil {
				return removed, err
			}
			if !ok {
				continue
			}
		}
		gone[key] = true
		note(e.Name(), what, reason)
	}
	// Approval indexes, now that the states they name are settled.
	for _, e := range entries {
		id, ok := approvalFile(e)
		if !ok {
			continue
		}
		reason := s.staleApproval(id, gone)
		if reason == "" {
			continue
		}
		if opts.DryRun || removeFile(filepath.Join(s.Dir, e.Name())) == nil {
			note(e.Name(), WhatApprovalIndex, reason)
		}
	}
	if !opts.DryRun && len(removed) > 0 {
		if err := syncDir(s.Dir); err != nil {
			return removed, err
		}
	}
	return removed, nil
}

// judge says whether the resume state data (read with readErr) goes, and
// why: "" keeps it.
func (s *Store) judge(data []byte, readErr error, e fs.DirEntry, opts PruneOptions) (what, reason string) {
	var v map[string]any
	if readErr != nil || json.Unmarshal(data, &v) != nil || v == nil {
		info, err := e.Info()
		if opts.OlderThan > 0 && err == nil && opts.Now.Sub(info.ModTime()) > opts.OlderThan {
			return WhatPausedRun, "unreadable, and older than " + opts.OlderThan.String()
		}
		return "", ""
	}
	if v["type"] == tombstoneType {
		var stone tombstone
		json.Unmarshal(data, &stone)
		if stone.Owner != "" {
			if ownerAlive(stone.Owner) {
				return "", ""
			}
			return WhatTombstone, "the resume that claimed it is no longer running"
		}
		claimed, err := time.Parse(time.RFC3339Nano, stone.ConsumedAt)
		if err != nil {
			if info, ierr := e.Info(); ierr == nil {
				claimed = info.ModTime()
			}
		}
		if time.Since(claimed) > unknownClaimAge {
			return WhatTombstone, "claimed more than 24 hours ago"
		}
		return "", ""
	}
	if opts.OlderThan <= 0 {
		return "", ""
	}
	created := describe(ResumeKind(strings.TrimSuffix(e.Name(), ".json")), v).CreatedAt
	if created.IsZero() {
		if info, err := e.Info(); err == nil {
			created = info.ModTime()
		}
	}
	if opts.Now.Sub(created) > opts.OlderThan {
		return WhatPausedRun, "paused longer than " + opts.OlderThan.String()
	}
	return "", ""
}

// A snapshot is a state file as Prune judged it: its content, or why it
// could not be read.
type snapshot struct {
	data []byte
	err  error
}

// same says whether the file still is what the snapshot saw: the same JSON
// value, the same unparsable bytes, or still unreadable.
func (s snapshot) same(data []byte, err error) bool {
	switch {
	case s.err != nil:
		return err != nil && !errors.Is(err, fs.ErrNotExist)
	case err != nil:
		return false
	case json.Valid(s.data):
		return sameJSON(data, s.data)
	default:
		return bytes.Equal(data, s.data)
	}
}

// lockWait bounds how long Prune waits for a state's lock: a lock held
// longer is a live run's, and its state is left for another time.
const lockWait = 2 * time.Second

// removeIfUnchanged deletes key's state under its lock if it is still what
// snap saw: a state that a resume claimed or replaced meanwhile stays, and
// so does one whose lock stays held.
func (s *Store) removeIfUnchanged(ctx context.Context, key string, snap snapshot) (bool, error) {
	lctx, cancel := context.WithTimeout(ctx, lockWait)
	defer cancel()
	removed := false
	err := s.locked(lctx, key, func(path string) error {
		if !snap.same(ReadFile(path)) {
			return nil
		}
		if err := removeFile(path); err != nil {
			return err
		}
		removed = true
		return nil
	})
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return false, nil
	}
	return removed, err
}

// staleApproval says why approval id's index is no longer needed, or "".
func (s *Store) staleApproval(id string, gone map[string]bool) string {
	data, err := ReadFile(s.approvalPath(id))
	var index approvalIndex
	if err != nil || json.Unmarshal(data, &index) != nil {
		return "unreadable"
	}
	if ResumeKind(index.StateKey) == "" {
		return "it names no resume state"
	}
	if gone[index.StateKey] {
		return "its run is gone"
	}
	path, _ := s.Path(index.StateKey)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return "its run is gone"
	}
	return ""
}

// isTempName says whether name is a temporary file of writeTemp:
// ".<base>.<12 hex>.tmp".
func isTempName(name string) bool {
	rest, ok := strings.CutSuffix(name, ".tmp")
	if !ok || !strings.HasPrefix(rest, ".") {
		return false
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 || len(rest)-i-1 != 12 {
		return false
	}
	hex := rest[i+1:]
	return sanitizeApprovalID(hex) == hex
}

// removeFile removes path; a file already gone is fine.
func removeFile(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// claimOwner names the process that claims a state: "<pid>:<start>", as
// lock owners are named.
func claimOwner() string {
	pid := os.Getpid()
	return strconv.Itoa(pid) + ":" + processStart(pid)
}

// ownerAlive says whether the process a claim owner names may still run.
func ownerAlive(owner string) bool {
	pidText, start, _ := strings.Cut(owner, ":")
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 {
		return false
	}
	switch alive, known := processAlive(pid); {
	case known && !alive:
		return false
	case start != "":
		if now := processStart(pid); now != "" {
			return now == start
		}
	}
	return true
}
