package temporal

import (
	"context"
	"errors"
	"sort"
	"strings"
	"time"

	"github.com/lobsterdev/lobster/runtime/engine"
	"github.com/lobsterdev/lobster/runtime/state"
)

// Janitor is what lobster state list and prune do with the runs on
// Temporal: list the paused ones, and cancel those paused longer than
// --older-than (as a local prune removes their states). Temporal keeps
// nothing else for lobster to clean: the histories of ended runs go at
// the end of the namespace's retention.
func (e *Engine) Janitor() state.Janitor { return janitor{e} }

type janitor struct{ e *Engine }

func (j janitor) Paused(ctx context.Context, _ time.Time) ([]state.PausedRun, error) {
	listed, err := j.e.List(ctx)
	if err != nil {
		return nil, err
	}
	var out []state.PausedRun
	for _, l := range listed {
		s := l.Status
		if !s.Paused {
			continue
		}
		created, err := time.Parse(time.RFC3339, s.PausedAt)
		if err != nil {
			created = l.Started
		}
		waiting := "input"
		if s.Kind == engine.ApprovalGate {
			waiting = "approval"
		}
		runID := strings.TrimPrefix(l.WorkflowID, WorkflowIDPrefix)
		out = append(out, state.PausedRun{StateKey: TokenKey(runID, s.Gate), Kind: state.KindWorkflow, Waiting: waiting,
			Workflow: s.Path, Step: s.StepID, ApprovalID: s.ApprovalID, CreatedAt: created, Token: s.Token})
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].CreatedAt.Before(out[b].CreatedAt) })
	return out, nil
}

// Prune cancels the runs paused longer than opts.OlderThan; each is a
// removal of its workflow id.
func (j janitor) Prune(ctx context.Context, opts state.PruneOptions) ([]state.Removal, error) {
	if opts.OlderThan <= 0 {
		return nil, nil
	}
	paused, err := j.Paused(ctx, opts.Now)
	if err != nil {
		return nil, err
	}
	var removed []state.Removal
	var errs []error
	for _, p := range paused {
		if opts.Now.Sub(p.CreatedAt) <= opts.OlderThan {
			continue
		}
		runID, _, _ := ParseTokenKey(p.StateKey)
		r := state.Removal{File: WorkflowIDPrefix + runID, What: state.WhatPausedRun, Reason: "paused longer than " + opts.OlderThan.String()}
		if !opts.DryRun {
			if _, err := j.e.Resume(ctx, Resume{Token: p.Token, Cancel: true}); err != nil {
				var gone *state.GoneError
				if !errors.As(err, &gone) { // answered meanwhile
					errs = append(errs, err)
				}
				continue
			}
		}
		removed = append(removed, r)
	}
	return removed, errors.Join(errs...)
}
