package main

import "github.com/lobsterdev/lobster/lang/check"

// explain returns the documentation of a diagnostic code, for
// "lobster check --explain CODE", and whether the code exists.
func explain(code string) (string, bool) { return check.Explain(code) }
