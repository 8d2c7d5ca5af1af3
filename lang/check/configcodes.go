package check

import "github.com/lobsterdev/lobster/lang/source"

// The codes of the project configuration's own diagnostics (lang/config):
// listed for their documentation; they have no Run.
var configCodes = []*Analyzer{
	{
		Name: "config-unknown-key", Severity: source.Warning,
		Summary: "the project configuration (.lobsterrc.yaml) has a key lobster does not read",
		Doc:     "The key is ignored, so what it was meant to say does not apply; the nearest known key is suggested. The keys are listed in the configuration's JSON Schema (`lobster schema --config`).",
		Bad:     "rule:\n  unknown-key: off",
		Good:    "rules:\n  unknown-key: off",
	},
	{
		Name: "config-invalid", Severity: source.Error,
		Summary: "a value of the project configuration (.lobsterrc.yaml) cannot be used",
		Doc:     "A wrong type, an unknown code or severity, a load error named in rules or ignore (the reference rejects such a file whatever the configuration says), a glob that does not parse, a host command that redefines a built-in one, a flag type that does not exist. The entry is left out; the rest of the configuration applies.",
		Bad:     "rules:\n  missing-id: off",
		Good:    "rules:\n  unknown-key: off",
	},
}
