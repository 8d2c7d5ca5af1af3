package commands

import "sync"

// The built-in commands of the reference's default registry
// (release 2026.9.13). Flag values reach a
// command as strings or, for a bare flag, the boolean true; "number" means
// converted with JavaScript Number().

// keyDesc describes a dot-path key flag.
const keyDesc = "dot path of the value to use (e.g. pr.number); empty segments are ignored"

// table is built on first use: most runs of lobster never look a command up.
var table = sync.OnceValue(func() []*Command {
	return []*Command{
		{
			Name:    "exec",
			Summary: "run an OS command",
			Help: `exec — run an OS command

Usage:
  exec <program> [args...]
  exec --shell '<command line>'
  exec --json <program> [args...]
  exec --stdin raw|json|jsonl <program> [args...]

Notes:
  - One positional containing whitespace is run through the shell, like --shell.
  - A word starting with "--" is always taken by exec itself; use --shell to pass
    options such as --json to the program.
  - With --json, stdout is parsed as JSON: an array yields one item per element.
  - Without --json, every non-empty line of stdout is one string item.
  - A non-zero exit fails the stage with "exec failed (<code>): <stderr>".`,
			Flags: []*Flag{
				{Name: "shell", Type: String, Description: "run this command line through /bin/sh -lc (or LOBSTER_SHELL); a bare --shell runs the first positional through the shell"},
				{Name: "json", Type: Bool, Truth: Truthy, Standalone: true, Description: "parse stdout as JSON instead of splitting it into lines"},
				{Name: "stdin", IgnoresBare: true, Type: Enum, Values: []string{"raw", "json", "jsonl"}, FoldCase: true,
					Invalid:     "exec --stdin must be raw, json, or jsonl (got {value})",
					Description: "write the input items to the program's stdin: raw (strings as-is, joined by newlines), json (one array) or jsonl (one value per line); without it the input is discarded"},
			},
			Positionals: []*Positional{
				{Name: "command", Variadic: true, Unless: []string{"shell"}, Description: "the program and its arguments (run directly, without a shell)"},
			},
			Requires: []Requirement{{Any: []string{PositionalArgs, "shell"}, Error: "exec requires a command"}},
			Input:    Drained, Consumes: "discarded, unless --stdin writes it to the program",
			Emits:  "one string per non-empty stdout line, or the parsed JSON with --json (an array's elements one by one)",
			Effect: External, EffectTags: []string{"local_exec"}, RetryableAfterDispatch: true,
			Program: true,
		},
		{
			Name:    "head",
			Summary: "take the first N items",
			Help: `head — take the first N items

Usage:
  ... | head --n 10

Notes:
  - Positional arguments are ignored: "head 5" takes 10 items.`,
			Flags: []*Flag{
				{Name: "n", Type: Number, Default: "10", HasDefault: true, NonNegative: true,
					Invalid: "head --n must be a non-negative number", Description: "how many items to take"},
			},
			Input: Items, Consumes: "items, lazily; it stops pulling after n",
			Emits:  "the first n items",
			Effect: None, RetryableAfterDispatch: true,
			Program: true,
		},
		{
			Name:    "json",
			Summary: "render pipeline output as JSON",
			Help: `json — render pipeline output as JSON

Usage:
  ... | json`,
			Input: Items, Consumes: "all items",
			Emits:  "nothing; writes the items as one pretty-printed JSON array",
			Effect: None, RetryableAfterDispatch: true,
			Renderer: true, Program: true,
		},
		{
			Name:    "pick",
			Summary: "project fields from objects",
			Help: `pick — project fields from objects

Usage:
  ... | pick id,subject,from

Notes:
  - Fields are literal keys (no dot paths); null and non-objects pass through.`,
			Positionals: []*Positional{
				{Name: "fields", Required: true, Description: "comma-separated list of the fields to keep"},
			},
			Requires: []Requirement{{Any: []string{PositionalArgs}, Error: "pick requires a comma-separated field list"}},
			Input:    Items, Consumes: "items, lazily",
			Emits:  "each object reduced to the listed fields, in list order",
			Effect: None, RetryableAfterDispatch: true,
		},
		{
			Name:    "table",
			Summary: "render items as a simple table",
			Help: `table — render items as a simple table

Usage:
  ... | table

Notes:
  - When the first 20 items are objects, the columns are the union of their keys.`,
			Input: Items, Consumes: "all items",
			Emits:  "nothing; writes a text table (or one line per item)",
			Effect: None, RetryableAfterDispatch: true,
			Renderer: true, Program: true,
		},
		{
			Name:    "where",
			Summary: "filter objects by a simple predicate",
			Help: `where — filter objects by a simple predicate

Usage:
  ... | where unread=true
  ... | where 'minutes>=30'
  ... | where sender.domain==example.com

Notes:
  - The expression is one word: path op value, op one of == = != <= >= < >.
  - Comparison is JavaScript's loose comparison.`,
			Positionals: []*Positional{
				{Name: "expression", Required: true, Description: "path op value, as one word (quote it if it has spaces)"},
			},
			Requires: []Requirement{{Any: []string{PositionalArgs}, Error: "where requires an expression (e.g. field=value)"}},
			Input:    Items, Consumes: "items, lazily",
			Emits:  "the items for which the predicate holds",
			Effect: None, RetryableAfterDispatch: true,
		},
		{
			Name:    "sort",
			Summary: "sort items (stable) by a key or by stringified value",
			Help: `sort — sort items (stable) by a key

Usage:
  ... | sort
  ... | sort --key updatedAt
  ... | sort --key prNumber --desc

Notes:
  - null and missing keys sort last (first with --desc).`,
			Flags: []*Flag{
				{Name: "key", IgnoresBare: true, Type: String, Description: keyDesc},
				{Name: "desc", Type: Bool, Truth: Truthy, Description: "sort in descending order"},
			},
			Input: Items, Consumes: "all items",
			Emits:  "the items in order",
			Effect: None, RetryableAfterDispatch: true,
			Program: true,
		},
		{
			Name:    "dedupe",
			Summary: "remove duplicate items, keeping the first occurrence",
			Help: `dedupe — remove duplicate items (stable)

Usage:
  ... | dedupe
  ... | dedupe --key id`,
			Flags: []*Flag{
				{Name: "key", IgnoresBare: true, Type: String, Description: "dot path of the identity value (default: the whole item)"},
			},
			Input: Items, Consumes: "items, lazily",
			Emits:  "the first item of each identity",
			Effect: None, RetryableAfterDispatch: true,
		},
		{
			Name:    "groupBy",
			Summary: "group items by a key",
			Help: `groupBy — group items by a key

Usage:
  ... | groupBy --key from

Output:
  one {key, items, count} object per group, in order of first appearance`,
			Flags: []*Flag{
				{Name: "key", Type: String, Required: true, Description: keyDesc},
			},
			Requires: []Requirement{{Any: []string{"key"}, Error: "groupBy requires --key"}},
			Input:    Items, Consumes: "all items",
			Emits:  "one {key, items, count} object per group",
			Effect: None, RetryableAfterDispatch: true,
		},
		{
			Name:    "map",
			Summary: "transform items (wrap, unwrap, add fields)",
			Help: `map — transform items

Usage:
  ... | map --wrap item
  ... | map --unwrap item
  ... | map foo=bar id={{id}}

Notes:
  - Assignment values are strings and support {{path}} placeholders (no filters).
  - --unwrap ignores the assignments.`,
			Flags: []*Flag{
				{Name: "wrap", IgnoresBare: true, Type: String, Description: "make each item {<wrap>: item}"},
				{Name: "unwrap", IgnoresBare: true, Type: String, Description: "output the field <unwrap> of each item"},
			},
			Positionals: []*Positional{
				{Name: "assignments", Variadic: true, Unless: []string{"unwrap"}, Description: "key=value assignments; words without '=' are ignored"},
			},
			Conflicts: []Conflict{{Flags: []string{"wrap", "unwrap"}, Error: "map cannot use both --wrap and --unwrap"}},
			Input:     Items, Consumes: "items, lazily",
			Emits:  "the transformed items (the upstream objects are modified in place)",
			Effect: None, RetryableAfterDispatch: true,
			Program: true,
		},
		{
			Name:    "template",
			Summary: "render a {{path}} template against each input item",
			Help: `template — render a simple template against each item

Usage:
  ... | template --text 'PR {{number}}: {{title}}'
  ... | template --file ./draft.txt

Template syntax:
  {{field}}, {{nested.field}}, {{.}} for the whole item,
  {{field | filter arg}} with filters upper, lower, trim, truncate N,
  replace FROM TO, split SEP, first, last, length, join SEP, json, string,
  default VAL, round N, date FMT

Notes:
  - The pipeline splits on "|" before template runs: quote the template text.`,
			Flags: []*Flag{
				{Name: "text", IgnoresBare: true, Type: String, Description: "the template text"},
				{Name: "file", IgnoresBare: true, Type: String, Description: "a file holding the template, relative to the process directory"},
			},
			Positionals: []*Positional{
				{Name: "text", Variadic: true, Unless: []string{"text", "file"}, Description: "the template text, joined with spaces"},
			},
			Requires: []Requirement{{Any: []string{"text", "file", PositionalArgs}, Error: "template requires --text or --file (or positional text)"}},
			Input:    Items, Consumes: "items, lazily",
			Emits:  "one rendered string per item",
			Effect: Read, RetryableAfterDispatch: true,
			Program: true,
		},
		{
			Name:    "approve",
			Summary: "require confirmation to continue",
			Help: `approve — require confirmation to continue

Usage:
  ... | approve --prompt 'Send these emails?'
  ... | approve --emit --preview-from-stdin --limit 5 --prompt 'Proceed?'

Notes:
  - On a terminal it asks and passes the items through when the answer is y or yes.
  - In tool mode, with --emit, or without a terminal it outputs an approval
    request and halts the pipeline. Inside a workflow pipeline step that fails
    the step: use an approval step instead.`,
			Flags: []*Flag{
				{Name: "prompt", Type: String, Default: "Approve?", HasDefault: true, Description: "the question to ask"},
				{Name: "emit", Type: Bool, Truth: Truthy, Description: "always output an approval request and halt"},
				{Name: "preview-from-stdin", Aliases: []string{"previewFromStdin"}, Type: Bool, Truth: Truthy, Description: "add a preview of the first items to the request"},
				{Name: "limit", Aliases: []string{"previewLimit", "preview-limit"}, Type: Number, Default: "5", HasDefault: true, Description: "how many items the preview shows; a value that is not a finite number means 5"},
			},
			Input: Items, Consumes: "all items",
			Emits:  "the items when approved interactively; else one {type: \"approval_request\", prompt, items, preview?} and a halt",
			Effect: None, RetryableAfterDispatch: true,
			Halts: true,
		},
		{
			Name:    "ask",
			Summary: "pause and request structured input from the user",
			Help: `ask — pause and request structured input from the user

Usage:
  ... | ask --prompt 'Approve, reject, or send feedback:'
  ... | ask --prompt 'Feedback?' --schema '{"type":"object","required":["decision"]}'
  ... | ask --subject-from-stdin --prompt 'Review this draft:'

Notes:
  - In tool mode it suspends the run with an input request and outputs the answer.
  - The default schema is {decision: approve|reject|redraft, feedback?}.`,
			Flags: []*Flag{
				{Name: "prompt", IgnoresBare: true, Type: String, Default: "Input required", HasDefault: true, Description: "the question or instruction to show"},
				{Name: "schema", IgnoresBare: true, Type: JSON, Shape: Object,
					Invalid: "ask --schema must be valid JSON", InvalidShape: "ask --schema must decode to a JSON schema object",
					Description: "JSON Schema the response must satisfy"},
				{Name: "subject-from-stdin", Aliases: []string{"subjectFromStdin"}, Type: Bool, Truth: Truthy, Description: "show the input items as the subject (cut to 2000 characters)"},
				{Name: "emit", Type: Bool, Truth: Truthy, Description: "output an input request and halt instead of suspending"},
			},
			Input: Items, Consumes: "all items (the subject with --subject-from-stdin)",
			Emits:  "the validated response as one item; or one {type: \"input_request\", …} and a halt",
			Effect: None, RetryableAfterDispatch: true,
			Halts: true, RequestsInput: true,
		},
		{
			Name:    "state.get",
			Summary: "read a JSON value from Lobster state",
			Help: `state.get — read a JSON value from Lobster state

Usage:
  state.get <key>

Env:
  LOBSTER_STATE_DIR overrides the storage directory`,
			Positionals: []*Positional{
				{Name: "key", Required: true, Description: "the state key"},
			},
			Requires: []Requirement{{Any: []string{PositionalArgs}, Error: "state.get requires a key"}},
			Input:    Unread, Consumes: "nothing: the input is not read",
			Emits:  "the stored value as one item (null when there is none)",
			Effect: Read, EffectTags: []string{"reads_state"}, RetryableAfterDispatch: true,
		},
		{
			Name:    "state.set",
			Summary: "write a JSON value to Lobster state",
			Help: `state.set — write a JSON value to Lobster state

Usage:
  <value> | state.set <key>

Notes:
  - Stores the single input item, or the array of all items.`,
			Positionals: []*Positional{
				{Name: "key", Required: true, Description: "the state key"},
			},
			Requires: []Requirement{{Any: []string{PositionalArgs}, Error: "state.set requires a key"}},
			Input:    Items, Consumes: "all items",
			Emits:  "the stored value as one item",
			Effect: Write, EffectTags: []string{"writes_state"}, RetryableAfterDispatch: true,
		},
		{
			Name:    "diff.last",
			Summary: "compare the items with the last stored snapshot",
			Help: `diff.last — compare current items to the last stored snapshot

Usage:
  <items> | diff.last --key <stateKey>

Output:
  {kind: "diff.last", key, changed, before, after}; the new snapshot is stored`,
			Flags: []*Flag{
				{Name: "key", Type: String, Description: "the state key of the snapshot"},
			},
			Positionals: []*Positional{
				{Name: "key", Unless: []string{"key"}, Description: "the state key, when --key is not given"},
			},
			Requires: []Requirement{{Any: []string{"key", PositionalArgs}, Error: "diff.last requires --key"}},
			Input:    Items, Consumes: "all items",
			Emits:  "one {kind: \"diff.last\", key, changed, before, after}",
			Effect: Write, EffectTags: []string{"writes_state"}, RetryableAfterDispatch: true,
		},
		{
			Name:    "commands.list",
			Summary: "list the available pipeline commands",
			Help: `commands.list — list available Lobster pipeline commands

Usage:
  commands.list`,
			Input: Drained, Consumes: "discarded",
			Emits:  "one {name, description, argsSchema, examples, sideEffects} per command",
			Effect: None, RetryableAfterDispatch: true,
		},
		{
			Name:    "workflows.list",
			Summary: "list the available named workflows",
			Help: `workflows.list — list available Lobster workflows

Usage:
  workflows.list`,
			Input: Drained, Consumes: "discarded",
			Emits:  "one {name, description, argsSchema, examples, sideEffects} per named workflow",
			Effect: None, RetryableAfterDispatch: true,
		},
		{
			Name:    "workflows.run",
			Summary: "run a named Lobster workflow",
			Help: `workflows.run — run a named Lobster workflow

Usage:
  workflows.run --name <workflow> [--args-json '{...}']

Example:
  workflows.run --name github.pr.monitor.notify --args-json '{"repo":"openclaw/openclaw","pr":1152}'`,
			Flags: []*Flag{
				{Name: "name", Type: Enum, Values: []string{"github.pr.monitor", "github.pr.monitor.notify"},
					Invalid: "Unknown workflow: {value}", Description: "the workflow to run"},
				{Name: "args-json", Type: JSON, Invalid: "workflows.run --args-json must be valid JSON", Description: "the workflow's args as JSON"},
			},
			Positionals: []*Positional{
				{Name: "name", Unless: []string{"name"}, Description: "the workflow, when --name is not given"},
			},
			Requires: []Requirement{{Any: []string{"name", PositionalArgs}, Error: "workflows.run requires --name"}},
			Input:    Drained, Consumes: "discarded",
			Emits:  "the workflow's result as one item",
			Effect: External, EffectTags: nil, RetryableAfterDispatch: true,
		},
		{
			Name:    "openclaw.invoke",
			Aliases: []string{"clawd.invoke"},
			Summary: "call a local OpenClaw tool endpoint",
			Help: `openclaw.invoke — call a local OpenClaw tool endpoint

Usage:
  openclaw.invoke --tool message --action send --args-json '{"provider":"telegram","to":"...","message":"..."}'
  openclaw.invoke --tool message --action send --args-json '{...}' --dry-run
  ... | openclaw.invoke --tool message --action send --each --item-key message --args-json '{"provider":"telegram"}'

Config:
  - The URL comes from --url, else OPENCLAW_URL, else CLAWD_URL.
  - The bearer token comes from --token, else OPENCLAW_TOKEN, else CLAWD_TOKEN; a
    token from the environment is sent only to localhost.`,
			Flags: []*Flag{
				{Name: "url", Type: String, Format: "http-url", Invalid: "{name} requires an http(s) --url", Description: "the OpenClaw control URL (else OPENCLAW_URL or CLAWD_URL)"},
				{Name: "token", Type: String, Description: "bearer token (else OPENCLAW_TOKEN or CLAWD_TOKEN, sent only to a local URL)"},
				{Name: "tool", Type: String, Required: true, Description: "the tool name (message, cron, github, …)"},
				{Name: "action", Type: String, Required: true, Description: "the tool action"},
				{Name: "args-json", Type: JSON, Shape: Object, ShapeIf: "each",
					Invalid: "{name} --args-json must be valid JSON", InvalidShape: "{name} --each requires --args-json to be an object",
					Description: "the tool's args as JSON (default {})"},
				{Name: "session-key", Aliases: []string{"sessionKey"}, Type: String, Description: "session key for attribution"},
				{Name: "dry-run", Aliases: []string{"dryRun"}, Type: Bool, Truth: Truthy, Description: "ask the tool for a dry run"},
				{Name: "each", Type: Bool, Truth: Truthy, Description: "call the tool once per input item, with the item under --item-key"},
				{Name: "item-key", Aliases: []string{"itemKey"}, Type: String, Default: "item", HasDefault: true, Description: "the args key that receives the item with --each"},
			},
			Requires: []Requirement{
				{Any: []string{"tool"}, Error: "{name} requires --tool and --action"},
				{Any: []string{"action"}, Error: "{name} requires --tool and --action"},
			},
			Input: Items, Consumes: "discarded, unless --each calls the tool once per item",
			Emits:  "the tool's result (an array's elements one by one)",
			Effect: External, EffectTags: []string{"calls_clawd_tool"}, RetryableAfterDispatch: false,
			Shim: true,
		},
		{
			Name:    "openclaw.agent",
			Summary: "run a configured OpenClaw agent turn",
			Help: `openclaw.agent — run a configured OpenClaw agent turn

Usage:
  openclaw.agent --agent ops --prompt 'Summarize logs'
  openclaw.agent --agent ops --session-key incident-42 --model openai/gpt-5.4 --prompt 'Continue'
  ... | openclaw.agent --agent ops --prompt 'Review this input'

Notes:
  - Runs "openclaw agent --json" (or LOBSTER_OPENCLAW_BIN).
  - Requires --agent, --session-key or --session-id.
  - The input items are appended to the message as JSONL.`,
			Flags: []*Flag{
				{Name: "prompt", Aliases: []string{"message"}, Type: String, Description: "the message for the agent"},
				{Name: "agent", Type: String, Description: "the configured agent id"},
				{Name: "session-key", Aliases: []string{"sessionKey"}, Type: String, Description: "the session key"},
				{Name: "session-id", Aliases: []string{"sessionId"}, Type: String, Description: "the session id"},
				{Name: "model", Type: String, Description: "model override for this turn"},
				{Name: "thinking", Type: String, Description: "thinking level"},
				{Name: "timeout", Type: Int, NonNegative: true,
					Invalid: "openclaw.agent --timeout must be a non-negative integer in seconds", Description: "agent timeout in seconds"},
				{Name: "local", Type: Bool, Truth: BareOnly, Description: "force embedded execution"},
			},
			Positionals: []*Positional{
				{Name: "text", Variadic: true, Unless: []string{"prompt"}, Description: "the message, joined with spaces, when --prompt is not given"},
			},
			Requires: []Requirement{
				{Any: []string{"prompt", PositionalArgs}, Error: "openclaw.agent requires --prompt, --message, or positional text"},
				{Any: []string{"agent", "session-key", "session-id"}, Error: "openclaw.agent requires --agent, --session-key, or --session-id"},
			},
			Input: Items, Consumes: "all items, appended to the message",
			Emits:  "the agent's JSON response as one item",
			Effect: External, EffectTags: []string{"calls_openclaw_agent"}, RetryableAfterDispatch: false,
		},
		llmInvoke("llm.invoke", "call a configured LLM adapter with typed payloads and caching", ""),
		llmInvoke("llm_task.invoke", "backward-compatible alias for llm.invoke using the OpenClaw adapter", "openclaw"),
		{
			Name:    "gog.gmail.search",
			Summary: "fetch Gmail threads via gog",
			Help: `gog.gmail.search — fetch Gmail messages via gog (JSON)

Usage:
  gog.gmail.search --query 'newer_than:1d' --max 20

Notes:
  - Requires the gog CLI (GOG_BIN overrides the executable).`,
			Flags: []*Flag{
				{Name: "query", Type: String, Default: "newer_than:1d", HasDefault: true, Description: "the Gmail search query"},
				{Name: "max", Aliases: []string{"limit"}, Type: Number, Default: "20", HasDefault: true, Description: "the maximum number of results"},
			},
			Input: Drained, Consumes: "discarded",
			Emits:  "one item per thread",
			Effect: Read, EffectTags: []string{"reads_email"}, RetryableAfterDispatch: true,
		},
		{
			Name:    "gog.gmail.send",
			Summary: "send Gmail messages via gog",
			Help: `gog.gmail.send — send Gmail messages via gog

Usage:
  ... | approve --prompt 'Send replies?' | gog.gmail.send

Input:
  draft objects {to, subject, body}`,
			Flags: []*Flag{
				{Name: "dry-run", Aliases: []string{"dryRun"}, Type: Bool, Truth: Truthy, Description: "output the drafts instead of sending them"},
			},
			Input: Items, Consumes: "draft objects {to, subject?, body?}, one message each",
			Emits:  "one result per sent draft",
			Effect: Irreversible, EffectTags: []string{"sends_email"}, RetryableAfterDispatch: false,
		},
		{
			Name:    "email.triage",
			Summary: "categorize emails and draft replies (optionally with an LLM)",
			Help: `email.triage — categorize emails and draft replies (optional LLM)

Usage:
  gog.gmail.search --query 'newer_than:1d' --max 20 | email.triage
  ... | email.triage --llm --model <model> --emit drafts | approve --prompt 'Send replies?' | gog.gmail.send

Notes:
  - Deterministic unless --llm is given and an LLM provider is configured.`,
			Flags: []*Flag{
				{Name: "limit", Type: Number, Default: "20", HasDefault: true, Description: "how many input items to read"},
				{Name: "llm", Type: Bool, Truth: Truthy, Description: "categorize and draft with llm.invoke"},
				{Name: "model", Type: String, Description: "model for llm.invoke"},
				{Name: "url", Type: String, Unused: true, Description: "accepted for compatibility and ignored"},
				{Name: "token", Type: String, Description: "bearer token for the LLM provider"},
				{Name: "temperature", Type: Number, Description: "LLM temperature"},
				{Name: "max-output-tokens", Type: Number, Description: "maximum completion tokens"},
				{Name: "emit", Type: Enum, Values: []string{"report", "drafts"}, Trim: true, Default: "report", HasDefault: true, Description: "output the report or the reply drafts; any other value gives the report"},
				{Name: "state-key", Type: String, Description: "run-state key forwarded to llm.invoke"},
			},
			Input: Items, Consumes: "email objects (up to --limit)",
			Emits:  "one report {summary, buckets, emails, …}, or one draft {to, subject, body, emailId} per reply with --emit drafts",
			Effect: External, RetryableAfterDispatch: true,
		},
	}
})

// llmInvoke builds llm.invoke and llm_task.invoke, which share their
// implementation; provider is llm_task.invoke's default provider.
func llmInvoke(name, summary, provider string) *Command {
	c := &Command{
		Name:    name,
		Summary: summary,
		Help: name + ` — call an LLM adapter with caching and schema validation

Usage:
  ` + name + ` --prompt 'Write summary'
  ` + name + ` --provider openclaw --model claude-3-sonnet --prompt 'Write summary'
  ... | ` + name + ` --prompt 'Plan next steps' --output-schema '{"type":"object"}'

Notes:
  - The provider comes from --provider, LOBSTER_LLM_PROVIDER, or the environment
    (LOBSTER_PI_LLM_ADAPTER_URL, OPENCLAW_URL, LOBSTER_LLM_ADAPTER_URL).
  - The input items are sent as artifacts.
  - Results are cached (LOBSTER_CACHE_DIR, else .lobster-cache in the
    directory lobster started in) and kept in run state, so a resume does
    not call the model again.`,
		Flags: []*Flag{
			{Name: "provider", Type: Enum, Values: []string{"openclaw", "pi", "http"}, FoldCase: true, Trim: true,
				Invalid: "Unsupported llm provider: {value}", Description: "the adapter: openclaw, pi or http"},
			{Name: "token", Type: String, Description: "bearer token for the provider"},
			{Name: "prompt", Type: String, Description: "the prompt"},
			{Name: "model", Type: String, Description: "the model (else LOBSTER_LLM_MODEL)"},
			{Name: "artifacts-json", Type: JSON, Shape: Array,
				Invalid: "{name} --artifacts-json must be a JSON array", InvalidShape: "{name} --artifacts-json must be a JSON array",
				Description: "more artifacts, after the input items"},
			{Name: "metadata-json", Type: JSON, Shape: Object,
				Invalid: "{name} --metadata-json must be a JSON object", InvalidShape: "{name} --metadata-json must be a JSON object",
				Description: "metadata to send"},
			{Name: "output-schema", Type: JSON, Shape: Object,
				Invalid: "{name} --output-schema must be a JSON object", InvalidShape: "{name} --output-schema must be a JSON object",
				Description: "JSON Schema the output data must satisfy"},
			{Name: "schema-version", Type: String, Default: "v1", HasDefault: true, Description: "logical schema version, part of the cache key"},
			{Name: "max-validation-retries", Type: Number, Default: "1", HasDefault: true, Description: "extra calls when the output fails --output-schema; a value that is not a finite number means 1"},
			{Name: "temperature", Type: Number, Description: "sampling temperature; a value that is not a finite number is dropped"},
			{Name: "max-output-tokens", Type: Number, Description: "maximum completion tokens; a value that is not a finite number is dropped"},
			{Name: "state-key", Type: String, Description: "run-state key (else LOBSTER_RUN_STATE_KEY)"},
			{Name: "refresh", Type: Bool, Truth: Parsed, Description: "bypass run state and cache"},
			{Name: "disable-cache", Type: Bool, Truth: Parsed, Description: "do not write the cache"},
		},
		Positionals: []*Positional{
			{Name: "prompt", Variadic: true, Unless: []string{"prompt"}, Description: "the prompt, joined with spaces, when --prompt is not given"},
		},
		Requires: []Requirement{{Any: []string{"prompt", PositionalArgs}, Error: "{name} requires --prompt or positional text"}},
		Input:    Items, Consumes: "all items, sent as artifacts",
		Emits:  "one result {kind, output: {format, text, data}, usage, …}",
		Effect: External, EffectTags: []string{"calls_llm"}, RetryableAfterDispatch: true,
	}
	if provider != "" {
		c.Flags[0].Default, c.Flags[0].HasDefault = provider, true
	}
	return c
}
