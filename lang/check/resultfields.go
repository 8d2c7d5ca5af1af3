package check

import "slices"

// ResultFields are the fields of a step result that $id.<field> can reach.
var ResultFields = []string{"id", "stdout", "json", "approved", "approvedBy", "initiatedBy", "subject", "response", "skipped", "error", "errorMessage"}

// resultFieldDocs say what each result field holds.
var resultFieldDocs = map[string]string{
	"id":           "the step's id",
	"stdout":       "the step's output as a string (a shell's stdout untrimmed, trailing newline included)",
	"json":         "the output parsed as JSON (`undefined` when it is not JSON); paths walk into it: `.json.items.0.name`",
	"approved":     "`true` once the approval gate was approved (a rejection stops the run before anything is stored)",
	"approvedBy":   "who approved the gate (`LOBSTER_APPROVAL_APPROVED_BY`)",
	"initiatedBy":  "who started the run, for an approval gate",
	"subject":      "the subject an input step showed",
	"response":     "the validated response of an input step",
	"skipped":      "`true` when the step's condition was false",
	"error":        "`true` when the step failed under `on_error: continue` or `skip_rest`",
	"errorMessage": "the failure's message under `on_error: continue` or `skip_rest`",
}

// IsResultField reports whether name is a step result field.
func IsResultField(name string) bool { return slices.Contains(ResultFields, name) }

// ResultFieldDoc says what a result field holds, or "" for a name that is
// not one.
func ResultFieldDoc(name string) string { return resultFieldDocs[name] }

// Produces reports whether the step's result can have the result field
// name; field-not-produced and approved-on-non-gate report a reference to
// one it cannot have.
func (si *StepInfo) Produces(name string) bool {
	s := si.Step
	switch name {
	case "id":
		return true
	case "response", "subject":
		return s.Input != nil
	case "approved", "approvedBy", "initiatedBy":
		return refIsGate(si)
	case "error", "errorMessage":
		return refCanStoreError(si)
	case "stdout", "json":
		if s.Input != nil && !refHasExecution(s) {
			return false // an input step: {id, subject, response}
		}
		return !(refIsNoneStep(si) && s.Approval != nil && !refHasStdin(s))
	case "skipped":
		return s.When != nil || s.Condition != nil
	}
	return false
}
