// Package engine executes workflow files from the checked AST. This file
// set holds the pieces that turn the AST and the run's inputs into runtime
// values: literal values, resolved args, and each step's environment.
package engine
