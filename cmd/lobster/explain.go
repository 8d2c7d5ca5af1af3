package main

// explain returns the documentation of the diagnostic code, for
// "lobster check --explain CODE", and whether there is any.
//
// There is no documentation yet: the rule documentation (docs/diagnostics.md,
// generated from the checker's analyzers) will be wired in here.
func explain(code string) (string, bool) {
	return "", false
}
