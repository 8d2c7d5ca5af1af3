package temporal_test

import (
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	sdklog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/lobsterdev/lobster/runtime/temporal"
)

// TestReplay replays the recorded histories of runs on a Temporal dev
// server (make test-temporal RECORD=1 records them: a run through every
// step kind and policy, its sub-workflow and its approval's workflow)
// against the workflow code as it is now. A change that makes a recorded
// history take another path fails here: it needs a workflow.GetVersion
// branch or a new task queue (docs/design.md, Runs on Temporal).
func TestReplay(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "histories", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded histories in testdata/histories (%v): make test-temporal RECORD=1 records them", err)
	}
	r, err := worker.NewWorkflowReplayerWithOptions(worker.WorkflowReplayerOptions{DataConverter: temporal.DataConverter()})
	if err != nil {
		t.Fatal(err)
	}
	temporal.RegisterWorkflows(r)
	logger := sdklog.NewStructuredLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
			if err := r.ReplayWorkflowHistoryFromJSONFile(logger, f); err != nil {
				t.Error(err)
			}
		})
	}
}
