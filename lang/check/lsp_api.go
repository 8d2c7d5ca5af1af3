package check

// This file exports, for the language server, facts the rules already
// compute, so that the server does not reimplement them.

// SubWorkflowFile is the file a workflow: step runs, resolved as the rules
// resolve it: ${arg} replaced by the file's arg defaults, a relative path
// against the directory of callerPath (the calling file's path; "" when it
// is not on disk). It reports false when the path is not known before the
// run (a step reference, an arg without a default) or s is no workflow: step.
func (in *Info) SubWorkflowFile(s *StepInfo, callerPath string) (string, bool) {
	for _, c := range subCalls(in, callerPath) {
		if c.Step == s {
			return c.File, true
		}
	}
	return "", false
}

// ArgDefaultText is the text that ${name} is replaced with when the arg
// keeps its default (numbers and booleans as JavaScript prints them, null as
// "null"). It reports false when the arg is not declared, has no default, or
// its default is a list or mapping.
func (in *Info) ArgDefaultText(name string) (string, bool) {
	return argDefault(in, name)
}
