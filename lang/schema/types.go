package schema

// The types below describe the workflow format for the JSON Schema: their
// doc comments become the schema's descriptions (Generate reads this file,
// embedded, with go/parser), so write them for the people who read them in
// an editor's hover.

// Workflow is a Lobster workflow file (.lobster, YAML 1.2 or JSON): arguments, environment and steps that run in file order. Other keys are allowed: the runtime ignores them, and lobster check reports them.
type Workflow struct {
	// The workflow's name. Informational: the runtime does not use it.
	Name string `json:"name,omitempty"`
	// What the workflow does. Documentation only: the runtime ignores it.
	Description string `json:"description,omitempty"`
	// The workflow's version. Documentation only: the runtime ignores it.
	Version any `json:"version,omitempty" jsonschema:"oneof_type=string;number"`
	// Who wrote the workflow. Documentation only: the runtime ignores it.
	Author string `json:"author,omitempty"`
	// The arguments of the workflow, by name. ${name} in run, command, pipeline, env values, cwd, workflow, workflow_args, stdin and for_each is replaced by the argument's value; each argument is also in the environment as LOBSTER_ARG_<NAME>, and all of them as JSON in LOBSTER_ARGS_JSON. Values come from --args-json (or a parent's workflow_args) over the defaults; names that are not declared are accepted too.
	Args map[string]*Arg `json:"args,omitempty"`
	// Environment variables for every step, by name. Values are strings: ${arg} and $step.path references are replaced (for each step, with the results so far), $VAR is not expanded, and values that are not strings are silently dropped. A step's own env wins over these.
	Env map[string]string `json:"env,omitempty"`
	// The default working directory of every step (a step's own cwd wins). Only ${arg} is replaced here, not $step.path; a relative path is resolved against the directory lobster runs in, not the workflow file's.
	Cwd string `json:"cwd,omitempty"`
	// The steps, run in file order. A step's result is available to later steps as $id.stdout, $id.json, $id.approved and so on.
	Steps []*Step `json:"steps" jsonschema:"required,minItems=1"`
	// A guard on the money spent on language models (llm.invoke and friends) during the run, checked after each step.
	CostLimit *CostLimit `json:"cost_limit,omitempty"`
}

// Arg is the definition of one workflow argument. An argument has a value only when its definition has a default (default: null counts) or a value is passed; there are no types and no required check.
type Arg struct {
	// The value of the argument when none is passed. A string is spliced into text as is; a number, boolean, list or mapping is converted to text (lists as 1,2; mappings as [object Object]), so pass structured values through LOBSTER_ARGS_JSON.
	Default any `json:"default,omitempty"`
	// What the argument is for. Documentation only: the runtime never shows it.
	Description string `json:"description,omitempty"`
}

// CostLimit stops or warns when the money spent on language models during the run exceeds a limit.
type CostLimit struct {
	// The limit in US dollars: a number, 0 or more.
	MaxUSD float64 `json:"max_usd" jsonschema:"required,minimum=0"`
	// What happens when the limit is exceeded: "warn" (the default) prints a warning and goes on; "stop" fails the run after the step that exceeded it. Case-sensitive.
	Action string `json:"action,omitempty" jsonschema:"enum=warn,enum=stop,default=warn"`
}

// Step is one step of the workflow. It runs exactly one of run (or command), pipeline, workflow, parallel or for_each (with steps), or is a gate: approval (which may follow an execution) or input (alone).
type Step struct {
	// The step's id: a non-empty string, unique among the steps and parallel branches of the workflow. Later steps refer to the step's result as $id.stdout, $id.json and so on; only ids made of letters, digits, '_' and '-' can be referred to.
	ID string `json:"id" jsonschema:"required,minLength=1"`
	// What the step does. Documentation only: the runtime ignores it.
	Description string `json:"description,omitempty"`
	// A shell command: run with /bin/sh -lc (a login shell; cmd.exe on Windows; LOBSTER_SHELL in the step's env overrides it). ${arg} and $step.path are replaced in the text first; an unknown reference is left as it is, for the shell to expand. Exit code 0 is success; stdout is the result ($id.stdout, and $id.json when it parses as JSON); stderr of a successful command is discarded.
	Run string `json:"run,omitempty"`
	// A synonym of run. When both are given, run is used and command is ignored.
	Command string `json:"command,omitempty"`
	// A Lobster pipeline: built-in commands separated by '|' (exec, json, pick, where, template, llm.invoke, ...). ${arg} and $step.path are replaced in the text before it is parsed. The input items come from stdin.
	Pipeline string `json:"pipeline,omitempty"`
	// The path of another workflow file to run as a sub-workflow, relative to the directory of this file. ${arg} and $step.path are replaced. Its result is the child's output ($id.json). Approval and input gates inside it are not supported.
	Workflow string `json:"workflow,omitempty" jsonschema:"pattern=\\S"`
	// The arguments passed to the sub-workflow named by workflow, by name. String values are templated (${arg}, $step.path) and so always arrive as strings; other values are passed unchanged. Ignored without workflow.
	WorkflowArgs map[string]any `json:"workflow_args,omitempty"`
	// Run branches concurrently. The step's result is {branchId: branchJson, ...}; each branch's result is also available under its own id.
	Parallel *Parallel `json:"parallel,omitempty"`
	// A loop: a whole-value step reference such as "$list.json.items" that must produce an array at run time. The sub-steps in steps run once per item, in order (batch_size does not add concurrency). A literal list or a plain string never works.
	ForEach string `json:"for_each,omitempty"`
	// The sub-steps of a for_each loop, run for each item. They see the item as $item.json (see item_var) and the index as $index.json (see index_var); their results are not visible outside the loop (use $loop.json.N.subId). Ignored without for_each.
	Steps []*SubStep `json:"steps,omitempty" jsonschema:"minItems=1"`
	// The name under which sub-steps see the current item of a for_each loop ($item.json, $item.stdout). Must differ from index_var. Ignored without for_each.
	ItemVar string `json:"item_var,omitempty" jsonschema:"default=item"`
	// The name under which sub-steps see the 0-based index of the current item of a for_each loop ($index.json). Must differ from item_var. Ignored without for_each.
	IndexVar string `json:"index_var,omitempty" jsonschema:"default=index"`
	// With pause_ms: pause before every batch_size-th item of a for_each loop. Items still run one at a time. A positive integer; without pause_ms it has no effect.
	BatchSize int `json:"batch_size,omitempty" jsonschema:"minimum=1,default=1"`
	// Milliseconds to sleep before each batch of batch_size items of a for_each loop (not before the first). A number, 0 or more.
	PauseMs float64 `json:"pause_ms,omitempty" jsonschema:"minimum=0"`
	// An approval gate. true or "required" asks "Approve <id>?"; any other non-blank string is the prompt; a mapping sets the prompt, items, preview and approver identity. The gate runs after the step's own execution has succeeded (so an execution step acts first and asks afterwards); false and "" are no gate. In tool mode or without a terminal the run halts with needs_approval and resumes with lobster resume --approve yes|no.
	Approval *Approval `json:"approval,omitempty"`
	// An input gate: the run halts and asks for a structured response (validated against responseSchema), which becomes $id.response. An input step cannot also run anything or have an approval.
	Input *Input `json:"input,omitempty"`
	// The step's input: a shell gets it on standard input, a pipeline as its items, an input step as its subject, an approval-only step as its result. A string that is exactly one reference ("$id.json") passes the raw value and fails if the step is unknown; any other string is templated; any other value is used literally (JSON-encoded for a shell). Ignored on workflow and parallel steps; not allowed on for_each loops.
	Stdin any `json:"stdin,omitempty"`
	// Environment variables for this step (and, on a loop or parallel step, for its sub-steps or branches), over the workflow's env. Values are strings: ${arg} and $step.path are replaced; values that are not strings are silently dropped.
	Env map[string]string `json:"env,omitempty"`
	// The step's working directory, over the workflow's cwd. Only ${arg} is replaced here, not $step.path; a relative path is resolved against the directory lobster runs in.
	Cwd string `json:"cwd,omitempty"`
	// Run the step only when this condition is true; otherwise it is skipped ($id.skipped is true). A boolean, or an expression such as "$check.json.ok == true && !$build.skipped": step references, strings, numbers, true, false, null, ==, !=, <, <=, >, >=, !, &&, || and parentheses. ${arg} is not allowed; YAML yes/no are strings, not booleans. Absent or null means true.
	When any `json:"when,omitempty" jsonschema:"oneof_type=string;boolean;null"`
	// A synonym of when. When both are given, when is used and condition is ignored.
	Condition any `json:"condition,omitempty" jsonschema:"oneof_type=string;boolean;null"`
	// Retry the step when it fails. Applies to shell, pipeline, workflow and parallel steps, and to a for_each loop as a whole (a retry runs every item again); ignored on input steps. An attempt that sent an OpenClaw tool call (openclaw.invoke), started an agent turn (openclaw.agent) or sent a mail (gog.gmail.send) is never retried, whatever failed afterwards.
	Retry *Retry `json:"retry,omitempty"`
	// A time limit for each attempt of the step, in milliseconds: an integer from 1 to 2147483647. A shell step's process is killed when it expires. On a for_each loop it bounds each attempt of the whole loop. Ignored on input steps.
	TimeoutMs int `json:"timeout_ms,omitempty" jsonschema:"minimum=1,maximum=2147483647"`
	// What a failure of the step does: "stop" (the default) fails the run; "continue" records {error: true, errorMessage} as the step's result and goes on; "skip_rest" records it and ends the run successfully. On a for_each loop it applies to the loop as a whole. Ignored on input steps.
	OnError string `json:"on_error,omitempty" jsonschema:"enum=stop,enum=continue,enum=skip_rest,default=stop"`
}

// Approval is an approval gate: true, "required", a prompt, or a mapping.
type Approval struct {
	// The question shown to the approver. Literal text: ${arg} and $step.path are not replaced. Replaced by the step output's own prompt when its JSON has one.
	Prompt string `json:"prompt,omitempty"`
	// The items shown for approval; by default the step's JSON output.
	Items []any `json:"items,omitempty"`
	// A preview shown with the request; by default the step's stdout (first 2000 characters).
	Preview string `json:"preview,omitempty"`
	// Who started the run (also from LOBSTER_APPROVAL_INITIATED_BY). With require_different_approver, this person cannot approve.
	InitiatedBy string `json:"initiated_by,omitempty"`
	// The camelCase spelling of initiated_by; it wins when both are given.
	InitiatedByCamel string `json:"initiatedBy,omitempty"`
	// The only approver allowed, compared with LOBSTER_APPROVAL_APPROVED_BY of whoever approves (a self-declared name, not authenticated).
	RequiredApprover string `json:"required_approver,omitempty"`
	// The camelCase spelling of required_approver; it wins when both are given.
	RequiredApproverCamel string `json:"requiredApprover,omitempty"`
	// When true, the approver (LOBSTER_APPROVAL_APPROVED_BY) must differ from initiated_by.
	RequireDifferentApprover bool `json:"require_different_approver,omitempty"`
	// The camelCase spelling of require_different_approver; it wins when both are given.
	RequireDifferentApproverCamel bool `json:"requireDifferentApprover,omitempty"`
}

// Input asks for a structured response: the run halts with needs_input and resumes with lobster resume --response-json.
type Input struct {
	// The question shown with the request. Literal text: ${arg} and $step.path are not replaced.
	Prompt string `json:"prompt" jsonschema:"required"`
	// The JSON Schema the response must match (compiled by Ajv, unknown keywords allowed). A mapping.
	ResponseSchema map[string]any `json:"responseSchema" jsonschema:"required"`
	// Suggested values passed with the request. Not validated against responseSchema.
	Defaults any `json:"defaults,omitempty"`
}

// Retry re-runs a failed step.
type Retry struct {
	// The total number of attempts, not the number of retries: max 1 never retries. A positive integer.
	Max int `json:"max,omitempty" jsonschema:"minimum=1,default=1"`
	// How the delay grows: "fixed" waits delay_ms before each retry; "exponential" doubles it each time, up to max_delay_ms.
	Backoff string `json:"backoff,omitempty" jsonschema:"enum=fixed,enum=exponential,default=fixed"`
	// The delay before the first retry, in milliseconds. A number, 0 or more.
	DelayMs float64 `json:"delay_ms,omitempty" jsonschema:"minimum=0,default=1000"`
	// The longest delay, in milliseconds, for exponential backoff or jitter. A number, 0 or more.
	MaxDelayMs float64 `json:"max_delay_ms,omitempty" jsonschema:"minimum=0,default=30000"`
	// Add ±10% of random jitter to each delay.
	Jitter bool `json:"jitter,omitempty" jsonschema:"default=false"`
}

// Parallel runs branches concurrently. Branches see only the results that existed before the step, not each other's.
type Parallel struct {
	// "all" (the default) waits for every branch and fails if any failed; "any" takes the first branch to finish, success or failure, and cancels the others.
	Wait string `json:"wait,omitempty" jsonschema:"enum=all,enum=any,default=all"`
	// A time limit for the whole block, in milliseconds: an integer from 1 to 2147483647.
	TimeoutMs int `json:"timeout_ms,omitempty" jsonschema:"minimum=1,maximum=2147483647"`
	// The branches, started together. Each runs exactly one of run (or command) or pipeline.
	Branches []*Branch `json:"branches" jsonschema:"required,minItems=1"`
}

// Branch is one branch of a parallel step. It runs exactly one of run (or command) or pipeline; when, retry, timeout_ms and on_error are ignored on branches (they apply to the parallel step as a whole).
type Branch struct {
	// The branch's id: a non-empty string, unique among the steps and branches of the workflow and different from its step's id. The branch's result is available to later steps as $id.stdout and $id.json.
	ID string `json:"id" jsonschema:"required,minLength=1"`
	// What the branch does. Documentation only: the runtime ignores it.
	Description string `json:"description,omitempty"`
	// A shell command, as a step's run.
	Run string `json:"run,omitempty"`
	// A synonym of run. When both are given, run is used and command is ignored.
	Command string `json:"command,omitempty"`
	// A Lobster pipeline, as a step's pipeline.
	Pipeline string `json:"pipeline,omitempty"`
	// The branch's input, as a step's stdin.
	Stdin any `json:"stdin,omitempty"`
	// Environment variables for the branch, over the step's and the workflow's env.
	Env map[string]string `json:"env,omitempty"`
	// The branch's working directory; by default the step's, then the workflow's. Only ${arg} is replaced.
	Cwd string `json:"cwd,omitempty"`
}

// SubStep is one step of a for_each loop. It runs exactly one of run, command or pipeline (here run and command cannot be combined), once per item; retry, timeout_ms and on_error are ignored on sub-steps, and a failure fails the whole loop.
type SubStep struct {
	// The sub-step's id: a non-empty string, unique within the loop and different from item_var and index_var. Later sub-steps of the same iteration see its result as $id.stdout and $id.json; it shadows a top-level step of the same id.
	ID string `json:"id" jsonschema:"required,minLength=1"`
	// What the sub-step does. Documentation only: the runtime ignores it.
	Description string `json:"description,omitempty"`
	// A shell command, as a step's run.
	Run string `json:"run,omitempty"`
	// A synonym of run (not to be combined with it in a sub-step).
	Command string `json:"command,omitempty"`
	// A Lobster pipeline, as a step's pipeline. Commands that ask for input are not supported here.
	Pipeline string `json:"pipeline,omitempty"`
	// The sub-step's input, as a step's stdin.
	Stdin any `json:"stdin,omitempty"`
	// Environment variables for the sub-step, over the loop step's and the workflow's env.
	Env map[string]string `json:"env,omitempty"`
	// The sub-step's working directory; by default the loop's, then the workflow's. Only ${arg} is replaced.
	Cwd string `json:"cwd,omitempty"`
	// Run the sub-step only when this condition is true, as a step's when; a skipped sub-step's result is {skipped: true}.
	When any `json:"when,omitempty" jsonschema:"oneof_type=string;boolean;null"`
	// A synonym of when. When both are given, when is used and condition is ignored.
	Condition any `json:"condition,omitempty" jsonschema:"oneof_type=string;boolean;null"`
}
