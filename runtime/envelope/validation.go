package envelope

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/source"
)

// Validation is the envelope of a run refused because the checker found
// errs: a validation_error whose message sums them up, one per line, and
// whose diagnostics are errs as `lobster check --format json` writes them.
func Validation(errs []source.Diagnostic) *jsvalue.Object {
	var b strings.Builder
	fmt.Fprintf(&b, "the workflow has %d error(s); nothing ran", len(errs))
	for _, d := range errs {
		fmt.Fprintf(&b, "\n%s:%d:%d: %s [%s]", d.File, d.Range.Start.Line, d.Range.Start.Col, d.Message, d.Code)
	}
	return Failure(ValidationError, b.String(), "diagnostics", diagnosticValues(errs))
}

// diagnosticValues are diags as JSON values.
func diagnosticValues(diags []source.Diagnostic) any {
	data, err := json.Marshal(diags)
	if err != nil {
		return []any{}
	}
	v, err := jsvalue.Parse(data)
	if err != nil {
		return []any{}
	}
	return v
}
