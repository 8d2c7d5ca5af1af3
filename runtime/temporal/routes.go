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

// project is what the project configuration of the workflow file at
// path says of runs on Temporal: their task queue ("" for none) and
// routes. Its problems were shown when the file was checked; the routes
// it could read apply.
func project(file string) (queue string, routes []Route) {
	p := config.Find(filepath.Dir(file))
	if p == "" {
		return "", nil
	}
	t := config.Load(p).File.Temporal
	if t == nil {
		return "", nil
	}
	for _, r := range t.Routes {
		routes = append(routes, Route{Steps: r.Steps, TaskQueue: r.TaskQueue})
	}
	return t.TaskQueue, routes
}
