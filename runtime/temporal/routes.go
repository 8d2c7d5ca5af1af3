package temporal

import (
	"path"
	"path/filepath"

	"github.com/lobsterdev/lobster/lang/config"
)

// A Route pins the commands of the steps it matches to a task queue, where
// only the workers started for that queue (the ones with the credentials,
// the GPUs) take them. Routes come from the temporal section of the
// project configuration (.lobsterrc.yaml).
type Route struct {
	Steps     []string // step id patterns (path.Match): top-level steps, loop sub-steps, branches
	TaskQueue string
}

// Matches says whether the route takes the commands of step id.
func (r Route) Matches(id string) bool {
	for _, p := range r.Steps {
		if ok, _ := path.Match(p, id); ok {
			return true
		}
	}
	return false
}

// projectSettings is what the project configuration of a workflow file
// says of its runs on Temporal.
type projectSettings struct {
	queue       string // the runs' task queue, "" for none
	routes      []Route
	heartbeatMs int64 // how long a step's worker may stay silent, 0 for the default
}

// project reads the project configuration of the workflow file at path.
// Its problems were shown when the file was checked; what it could read
// applies.
func project(file string) projectSettings {
	p := config.Find(filepath.Dir(file))
	if p == "" {
		return projectSettings{}
	}
	t := config.Load(p).File.Temporal
	if t == nil {
		return projectSettings{}
	}
	ps := projectSettings{queue: t.TaskQueue, heartbeatMs: int64(t.HeartbeatMs)}
	for _, r := range t.Routes {
		ps.routes = append(ps.routes, Route{Steps: r.Steps, TaskQueue: r.TaskQueue})
	}
	return ps
}
