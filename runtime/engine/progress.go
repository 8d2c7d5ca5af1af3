package engine

// A StepPhase is what happened to a step, for Options.OnStep.
type StepPhase int

const (
	StepStarted  StepPhase = iota // the step is about to run (its condition held)
	StepSkipped                   // its condition was false: it did not run
	StepFinished                  // it ran; Err says whether it failed
	StepPaused                    // the run pauses at the step's gate (approval or input)
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
	}
	return "unknown"
}

// A StepEvent reports one top-level step of a run to Options.OnStep:
// progress displays (a terminal's, an MCP client's) follow a run by them.
type StepEvent struct {
	Phase StepPhase
	Index int    // the step's index among the workflow's top-level steps
	Total int    // the number of top-level steps
	ID    string // the step's id
	Err   error  // for StepFinished: the step's failure, nil when it succeeded
}

// event reports a step to the run's OnStep, when there is one.
func (r *runner) event(phase StepPhase, idx, total int, id string, err error) {
	if r.opts.OnStep != nil {
		r.opts.OnStep(StepEvent{Phase: phase, Index: idx, Total: total, ID: id, Err: err})
	}
}
