package engine

import "time"

// A StepPhase is what happened to a step, for Options.OnStep.
type StepPhase int

const (
	StepStarted  StepPhase = iota // the step is about to run (its condition held)
	StepSkipped                   // its condition was false: it did not run
	StepFinished                  // it ran; Err says whether it failed
	StepPaused                    // the run pauses at the step's gate (approval or input)
	// StepRetrying: an attempt of the step failed (Err) and attempt
	// Attempt+1 of MaxAttempts starts after Delay.
	StepRetrying
	// StepWaiting: the step reached its gate (Gate) and the run stops
	// there for a decision: either it waits for one (a terminal asks, then
	// the step goes on), or StepPaused follows and the run ends.
	StepWaiting
)

func (p StepPhase) String() string {
	switch p {
	case StepStarted:
		return "started"
	case StepSkipped:
		return "skipped"
	case StepFinished:
		return "finished"
	case StepPaused:
		return "paused"
	case StepRetrying:
		return "retrying"
	case StepWaiting:
		return "waiting"
	}
	return "unknown"
}

// A StepEvent reports one top-level step of a run to Options.OnStep:
// progress displays (a terminal's, an MCP client's) follow a run by them.
// A display should ignore phases it does not know.
type StepEvent struct {
	Phase StepPhase
	Index int    // the step's index among the workflow's top-level steps
	Total int    // the number of top-level steps
	ID    string // the step's id
	// Err is, for StepFinished, the step's failure (nil when it
	// succeeded); for StepRetrying, the failed attempt's.
	Err error

	// For StepRetrying: the attempt that failed (1 for the first), the
	// number the step's retry allows, and the wait before the next.
	Attempt, MaxAttempts int
	Delay                time.Duration

	// Gate is the kind of gate of StepWaiting and StepPaused:
	// ApprovalGate, InputGate or PipelineGate.
	Gate string
}

// event reports a step to the run's OnStep, when there is one, and makes
// it the current step of later retry and gate events.
func (r *runner) event(phase StepPhase, idx, total int, id string, err error) {
	r.current = StepEvent{Index: idx, Total: total, ID: id}
	r.emit(StepEvent{Phase: phase, Index: idx, Total: total, ID: id, Err: err})
}

func (r *runner) emit(e StepEvent) {
	if r.opts.OnStep != nil {
		r.opts.OnStep(e)
	}
}

// retried reports a retry of the current step (see Call.OnRetry).
func (r *runner) retried(n, max int, err error, delay time.Duration) {
	e := r.current
	e.Phase, e.Err, e.Attempt, e.MaxAttempts, e.Delay = StepRetrying, err, n, max, delay
	r.emit(e)
}

// atGate reports that the current step stops at gate g (StepWaiting), or
// that the run pauses there (StepPaused).
func (r *runner) atGate(phase StepPhase, g *Gate) {
	e := r.current
	e.Phase, e.Gate = phase, g.Kind
	r.emit(e)
}
