package engine

import (
	"errors"
	"fmt"
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
		return nil, fmt.Errorf("workflow file %s: %s", path, bounded.Reason(err))
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
		return nil, fmt.Errorf("workflow file %s: %s", path, bounded.Reason(err))
	}
	return src, nil
}
