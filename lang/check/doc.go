// Package check is the checker of Lobster workflow files: a set of rules
// (analyzers), each reporting one stable diagnostic code, run over the tree
// from lang/parser.
//
// # Analyzers
//
// An [Analyzer] has a Name (its code), a Summary, documentation with a bad and
// a good example, a default severity and a Run function over a [Pass]. Each
// analyzer lives in its own file with its own test data under
// testdata/<code>/. [All] lists every code in one place; docs/diagnostics.md
// and `lobster check --explain` are generated from it.
//
// # Shared facts
//
// [Info] is computed once per file: the steps in order with their parents
// (parallel blocks, loops), the args, and every reference and shell variable
// with the field and context it stands in. [Info.Resolve] answers what an id
// names at a given place: a visible step, a later one, a sibling branch, a
// sub-step out of its loop, or nothing.
//
// # Severity
//
// Error is only for what certainly fails or certainly yields something other
// than what is written; what the runtime silently ignores, likely bugs and
// security footguns are warnings. `lobster run` refuses
// files with errors, so an error must never fire on a file that works as its
// author meant.
//
// # Suppressions
//
// `# lobster-ignore: code[, code] reason` on a finding's line or alone on the
// line above, and `# lobster-ignore-file: code reason` for a whole file.
package check
