package parser

import "github.com/lobsterdev/lobster/lang/source"

// loadCodes are the codes of the parser's errors that stand for the
// reference's load-time failures: its YAML or JSON parser rejects the text,
// or its validation of the loaded value fails.
// The reference refuses such a file whatever the command: no run, no
// dry-run, no graph.
//
// Not among them: yaml-merge-key (the reference reads "<<" as an ordinary
// key and loads the file), condition-syntax and pipeline-parse-error (the
// reference fails only when a run reaches the step), and every code of the
// checker's rules.
var loadCodes = map[string]bool{
	"yaml-syntax": true, "yaml-duplicate-key": true, "yaml-multi-document": true,
	"yaml-undefined-alias": true, "json-extension-not-json": true, "not-a-workflow": true,
	"missing-id": true, "duplicate-id": true, "missing-execution": true, "conflicting-execution": true,
	"loop-field-not-allowed": true, "wrong-type": true, "invalid-value": true,
	"invalid-response-schema": true, "limit-exceeded": true,
	// The parser failed: its tree cannot be trusted to plan from.
	"internal-error": true,
}

// IsLoadError reports whether a diagnostic of [Parse] is one for which the
// reference refuses to load the file: an error whose code is a YAML or
// JSON syntax error, a limit, or a failure of the reference's load-time
// validation. Previews (plan, graph, dry-run) stop on these and on nothing
// else.
func IsLoadError(d source.Diagnostic) bool {
	return d.Severity == source.Error && loadCodes[d.Code]
}

// IsLoadCode reports whether an error of this code is a load error: the
// reference rejects the file.
func IsLoadCode(code string) bool { return loadCodes[code] }

// LoadErrors returns the diagnostics of diags for which [IsLoadError]
// holds, in their order; nil when the reference loads the file.
func LoadErrors(diags []source.Diagnostic) []source.Diagnostic {
	var out []source.Diagnostic
	for _, d := range diags {
		if IsLoadError(d) {
			out = append(out, d)
		}
	}
	return out
}
