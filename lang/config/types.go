package config

// The types below are the format of the project configuration file: the
// decoder reads the file into them (with their json names), and the JSON
// Schema is generated from them, with their doc comments as descriptions
// (Schema reads this file, embedded, with go/parser). Write the comments
// for the people who read them in an editor's hover.

// File is the project configuration of lobster (.lobsterrc.yaml): how lobster check, run, plan, graph and the language server treat the workflow files in this directory and below it. The nearest such file above a workflow file applies to it.
type File struct {
	// Severity of findings by diagnostic code: error, warning, info, hint, or off (the rule reports nothing). "shellcheck" sets every shellcheck finding, "shellcheck/SC2086" one of them. The reference's load errors (yaml-syntax, missing-id…) cannot be changed: the reference rejects such a file whatever the configuration says.
	Rules map[string]string `json:"rules,omitempty" jsonschema:"title=Rule severities"`
	// Codes to ignore in some files: a glob (with ** for any number of directories), relative to the directory of this file, mapped to the codes ignored in the workflow files it matches ("*" for every code). Load errors are never ignored.
	Ignore map[string][]string `json:"ignore,omitempty" jsonschema:"title=Ignored codes by path"`
	// Pipeline commands that the host running the workflows registers (OpenClaw and other hosts add their own commands to the registry), by name. A pipeline stage naming one is checked against its flags instead of being reported as an unknown command. lobster run cannot run them: a run fails when it reaches one, as the reference's command line does.
	Commands map[string]*Command `json:"commands,omitempty" jsonschema:"title=Host pipeline commands"`
	// Environment variables the host sets for every step (for example a token it injects): shell text that reads one is not reported as reading a variable nobody sets.
	Env []string `json:"env,omitempty" jsonschema:"title=Host environment variables"`
	// How shellcheck is run on the shell text of run and command.
	Shellcheck *Shellcheck `json:"shellcheck,omitempty"`
	// Where runs started with lobster run --engine temporal go, and which of their steps run on which workers.
	Temporal *Temporal `json:"temporal,omitempty"`
}

// Temporal is how runs of these workflows go on Temporal.
type Temporal struct {
	// The task queue of the runs: the workers of this queue run their workflows and the steps no route sends elsewhere. lobster run --task-queue overrides it. Default: lobster.
	TaskQueue string `json:"task_queue,omitempty"`
	// Routes pin steps to the workers of a task queue (the machines with the credentials or the GPUs they need). The first route whose pattern matches a step's id applies.
	Routes []*Route `json:"routes,omitempty"`
	// How long, in milliseconds, a step's worker may stay silent before the step counts as lost (a worker reports four times within it while a step runs); a lost step fails, or is retried as its retry says. Raise it for workers on busy machines. Default: 10000.
	HeartbeatMs int `json:"heartbeat_ms,omitempty" jsonschema:"minimum=2000"`
}

// Route sends the commands of some steps to a task queue.
type Route struct {
	// Step id patterns (* any run of characters, ? one, [a-z] a class) of top-level steps, loop sub-steps and parallel branches.
	Steps []string `json:"steps" jsonschema:"required,minItems=1"`
	// The task queue their commands go to: only workers started with lobster worker --task-queue QUEUE take them.
	TaskQueue string `json:"task_queue" jsonschema:"required,minLength=1"`
}

// Command is a pipeline command of the host.
type Command struct {
	// What the command does, for hover and completion.
	Description string `json:"description,omitempty"`
	// The flags the command reads (--name value, --name=value or a bare --name), by name without the dashes. A flag that is not listed is reported as unknown.
	Flags map[string]*Flag `json:"flags,omitempty"`
	// The positional arguments the command reads, in order. Without this key any positional is accepted; with an empty list, none is.
	Args []*Arg `json:"args,omitempty"`
	// The side-effect class of the command: none (computes on its input), read (reads files or remote state), write (writes local state), external (runs programs or calls remote services; the default) or irreversible (cannot be taken back, like sending a message). Approval checks use it.
	SideEffects string `json:"side_effects,omitempty" jsonschema:"enum=none,enum=read,enum=write,enum=external,enum=irreversible,default=external"`
	// Whether the command outputs JSON values (objects, arrays) rather than lines of text.
	JSON bool `json:"json,omitempty"`
}

// Flag is a flag of a host command.
type Flag struct {
	// The type of the flag's value: string (the default), bool (a switch), int, number, json (JSON text) or enum (one of values).
	Type string `json:"type,omitempty" jsonschema:"enum=string,enum=bool,enum=int,enum=number,enum=json,enum=enum,default=string"`
	// The command fails without this flag.
	Required bool `json:"required,omitempty"`
	// The allowed values of an enum flag.
	Values []string `json:"values,omitempty"`
	// What the flag does, for hover and completion.
	Description string `json:"description,omitempty"`
}

// Arg is a positional argument of a host command.
type Arg struct {
	// The argument's name, for hover and completion.
	Name string `json:"name" jsonschema:"required,minLength=1"`
	// The command fails without it.
	Required bool `json:"required,omitempty"`
	// It takes every remaining positional argument (only the last may).
	Variadic bool `json:"variadic,omitempty"`
	// What the argument is, for hover.
	Description string `json:"description,omitempty"`
}

// Shellcheck is how shellcheck is run on the shell text of run and command.
type Shellcheck struct {
	// false never runs shellcheck on these files; true (the default) runs it when it is installed and not turned off on the command line (--shellcheck). The program cannot be named here: a configuration file in a cloned repository must not choose what runs.
	Enabled *bool `json:"enabled,omitempty"`
	// More shellcheck codes not to report, as SC2086 or 2086.
	Exclude []string `json:"exclude,omitempty"`
	// The shell the host runs steps with, when their env sets no LOBSTER_SHELL: sh (the runtime's /bin/sh, the default), bash, dash or ksh.
	Shell string `json:"shell,omitempty" jsonschema:"enum=sh,enum=bash,enum=dash,enum=ksh,default=sh"`
}
