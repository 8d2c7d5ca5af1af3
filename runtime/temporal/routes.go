package temporal

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"github.com/goccy/go-yaml"
)

// A Route pins the commands of the steps it matches to a task queue, where
// only the workers started for that queue (the ones with the credentials,
// the GPUs) take them.
type Route struct {
	Steps     []string `yaml:"steps"` // step id patterns (path.Match): top-level steps, loop sub-steps, branches
	TaskQueue string   `yaml:"task_queue"`
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

// ConfigName is the project configuration file that routes steps: looked
// for in the workflow file's directory, then each directory above it.
const ConfigName = ".lobster.yaml"

// Project is what the project configuration says about Temporal.
type Project struct {
	TaskQueue string  `yaml:"task_queue"`
	Routes    []Route `yaml:"routes"`
	Path      string  `yaml:"-"` // the file it was read from; "" when there is none
}

// FindProject reads the project configuration nearest to dir (the
// directory of the workflow file), if there is one.
func FindProject(dir string) (*Project, error) {
	for {
		file := filepath.Join(dir, ConfigName)
		data, err := os.ReadFile(file)
		if err == nil {
			return parseProject(file, data)
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return &Project{}, nil
		}
		dir = parent
	}
}

func parseProject(file string, data []byte) (*Project, error) {
	var doc struct {
		Temporal Project `yaml:"temporal"`
	}
	if err := yaml.UnmarshalWithOptions(data, &doc, yaml.Strict()); err != nil {
		return nil, fmt.Errorf("%s: %s", file, yaml.FormatError(err, false, true))
	}
	p := doc.Temporal
	p.Path = file
	for i, r := range p.Routes {
		if r.TaskQueue == "" || len(r.Steps) == 0 {
			return nil, fmt.Errorf("%s: temporal.routes[%d] needs steps and task_queue", file, i)
		}
		for _, s := range r.Steps {
			if _, err := path.Match(s, ""); err != nil {
				return nil, fmt.Errorf("%s: temporal.routes[%d]: bad step pattern %q", file, i, s)
			}
		}
	}
	return &p, nil
}
