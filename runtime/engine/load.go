package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/parser"
)

// ReadWorkflow reads the workflow file at path as lobster run, plan and
// graph do: with the reference's checks and messages, as a clean error
// instead of the reference's crash. A file over the size limit is an error
// that wraps bounded.ErrTooLarge (parser.LimitDiagnostic makes it the
// limit-exceeded finding).
func ReadWorkflow(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("workflow file %s: %s", path, reason(err))
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New("Workflow path is not a file")
	}
	if !parser.IsWorkflowName(path) {
		return nil, errors.New("Workflow file must end in .lobster, .yaml, .yml, or .json")
	}
	src, err := parser.ReadFile(path)
	if errors.Is(err, bounded.ErrTooLarge) {
		return nil, err // for parser.LimitDiagnostic: a finding, as for a file read whole
	}
	if err != nil {
		return nil, fmt.Errorf("workflow file %s: %s", path, reason(err))
	}
	return src, nil
}

// reason is the text of err without the operation and path that
// *fs.PathError adds ("no such file or directory", not "stat x: no such…").
func reason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
