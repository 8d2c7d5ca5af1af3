package check

import "github.com/lobsterdev/lobster/lang/source"

// The codes the parser reports (YAML, JSON and the reference's load-time
// rules) and the checker's own codes. They have no
// Run: they are listed for their documentation and for suppressions.

var parserCodes = []*Analyzer{
	{
		Name: "yaml-syntax", Severity: source.Error,
		Summary: "the text is not valid YAML",
		Doc:     "The reference fails the whole file. Lobster reports each error at its position and reads the rest of the file, so that other findings still show.",
		Bad:     "when: $a.approved ? b : c",
		Good:    "when: \"$a.approved\"",
	},
	{
		Name: "yaml-duplicate-key", Severity: source.Error,
		Summary: "a key appears twice in one mapping",
		Doc:     "The reference's YAML parser rejects the file (\"Map keys must be unique\").",
		Bad:     "- id: a\n  run: echo one\n  run: echo two",
		Good:    "- id: a\n  run: echo one",
	},
	{
		Name: "yaml-multi-document", Severity: source.Error,
		Summary: "the file holds more than one YAML document",
		Doc:     "The reference rejects the file (\"Source contains multiple documents\").",
		Bad:     "steps: [{id: a, run: echo a}]\n---\nsteps: [{id: b, run: echo b}]",
		Good:    "steps:\n  - {id: a, run: echo a}\n  - {id: b, run: echo b}",
	},
	{
		Name: "yaml-merge-key", Severity: source.Error,
		Summary: "a YAML merge key (<<) is used",
		Doc:     "The reference reads YAML 1.2, where `<<` is an ordinary key; it is ignored, so the merged fields are silently missing.",
		Bad:     "- id: a\n  <<: *defaults",
		Good:    "- id: a\n  run: ./a.sh\n  timeout_ms: 30000",
	},
	{
		Name: "yaml-undefined-alias", Severity: source.Error,
		Summary: "an alias refers to no anchor defined before it",
		Bad:     "env: *common",
		Good:    "x-env: &common {MODE: prod}\nenv: *common",
	},
	{
		Name: "json-extension-not-json", Severity: source.Error,
		Summary: "a .json workflow is not strict JSON",
		Doc:     "The reference parses files ending in .json with JSON.parse; YAML text, comments or trailing commas fail.",
		Bad:     "-- w.json --\nsteps:\n  - id: a\n    run: echo a\n",
		Good:    "-- w.json --\n{\"steps\": [{\"id\": \"a\", \"run\": \"echo a\"}]}\n",
		Fix:     "rename the file to .lobster or .yaml to write YAML",
	},
	{
		Name: "not-a-workflow", Severity: source.Error,
		Summary: "the file is not a mapping with a non-empty steps list",
		Bad:     "-- w.lobster --\n- id: a\n  run: echo a\n",
		Good:    "-- w.lobster --\nsteps:\n  - id: a\n    run: echo a\n",
	},
	{
		Name: "missing-id", Severity: source.Error,
		Summary: "a step, branch or sub-step has no usable id",
		Doc:     "Every step needs a non-empty string id (\"Workflow step requires an id\"); `id: 1` is rejected.",
		Bad:     "- name: build\n  run: make",
		Good:    "- id: build\n  run: make",
		Fix:     "rename name to id when name holds a valid id",
	},
	{
		Name: "duplicate-id", Severity: source.Error,
		Summary: "an id is used twice where ids must be unique",
		Doc:     "Top-level step ids and parallel branch ids share one namespace; sub-step ids are unique within their loop and differ from the loop variables.",
		Bad:     "- {id: a, run: echo 1}\n- {id: a, run: echo 2}",
		Good:    "- {id: a, run: echo 1}\n- {id: b, run: echo 2}",
	},
	{
		Name: "missing-execution", Severity: source.Error,
		Summary: "a step does nothing: no run, command, pipeline, workflow, parallel, for_each, approval or input",
		Bad:     "- id: brief\n  prompt: Summarise the news",
		Good:    "- id: brief\n  pipeline: llm.invoke --prompt 'Summarise the news'",
	},
	{
		Name: "conflicting-execution", Severity: source.Error,
		Summary: "a step defines more than one execution field, or a gate with an execution it cannot have",
		Bad:     "- id: a\n  run: echo a\n  pipeline: exec echo b",
		Good:    "- id: a\n  run: echo a\n- id: b\n  pipeline: exec echo b",
	},
	{
		Name: "loop-field-not-allowed", Severity: source.Error,
		Summary: "a for_each step or sub-step defines approval, input or stdin",
		Bad:     "- id: each\n  for_each: $list.json\n  approval: true\n  steps: [{id: s, run: echo}]",
		Good:    "- id: each\n  for_each: $list.json\n  steps: [{id: s, run: echo}]\n- id: confirm\n  approval: true",
	},
	{
		Name: "wrong-type", Severity: source.Error,
		Summary: "a value has a type the reference rejects",
		Bad:     "- id: a\n  run: ./flaky.sh\n  retry: \"yes\"",
		Good:    "- id: a\n  run: ./flaky.sh\n  retry: {max: 3}",
	},
	{
		Name: "invalid-value", Severity: source.Error,
		Summary: "a value is outside the set the reference accepts",
		Bad:     "- id: a\n  run: ./flaky.sh\n  on_error: retry",
		Good:    "- id: a\n  run: ./flaky.sh\n  on_error: continue",
	},
	{
		Name: "invalid-response-schema", Severity: source.Error,
		Summary: "input.responseSchema is not a valid JSON Schema",
		Bad:     "- id: edit\n  input: {prompt: Edit, responseSchema: {type: 12}}",
		Good:    "- id: edit\n  input: {prompt: Edit, responseSchema: {type: object}}",
	},
	{
		Name: "condition-syntax", Severity: source.Error,
		Summary: "a when/condition does not parse",
		Doc:     "The reference fails the run with \"Unsupported condition\" when it reaches the step. Conditions cannot use ${arg}, chain comparisons or use a single =.",
		Bad:     "- id: a\n  run: echo '{\"x\":1}'\n- id: b\n  when: $a.json.x = 1\n  run: echo one",
		Good:    "- id: a\n  run: echo '{\"x\":1}'\n- id: b\n  when: $a.json.x == 1\n  run: echo one",
	},
	{
		Name: "pipeline-parse-error", Severity: source.Error,
		Summary: "a pipeline does not parse",
		Bad:     "- id: a\n  pipeline: exec echo 'unclosed",
		Good:    "- id: a\n  pipeline: exec echo 'closed'",
	},
	{
		Name: "limit-exceeded", Severity: source.Error,
		Summary: "the file is too large, too deep or expands too many aliases to be read",
		Bad:     "steps: [[[[[[[[[[ … ]]]]]]]]]]",
		Good:    "steps:\n  - id: a\n    run: echo a",
	},
	{
		Name: "internal-error", Severity: source.Error,
		Summary: "the checker failed on this file (a bug: please report it)",
		Bad:     "(any input that makes the checker fail)",
	},
	{
		Name: "bad-suppression", Severity: source.Warning,
		Summary: "a lobster-ignore comment names no code or an unknown code",
		Bad:     "# lobster-ignore: unknown-stepref",
		Good:    "# lobster-ignore: unknown-step-ref generated by the release tool",
	},
	{
		Name: "unused-suppression", Severity: source.Info,
		Summary: "a lobster-ignore comment suppresses nothing",
		Bad:     "# lobster-ignore: braced-ref\n- id: a\n  run: echo a",
		Good:    "- id: a\n  run: echo a",
		Fix:     "remove the comment",
	},
}
