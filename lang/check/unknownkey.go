package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// UnknownKey reports keys that the reference does not read at their level.
var UnknownKey = &Analyzer{
	Name:     "unknown-key",
	Severity: source.Warning,
	Summary:  "a key that the reference does not read is silently ignored",
	Doc: `The reference loads a workflow file without checking for unknown keys: a
misspelt ` + "`timeoutMs`" + `, a GitHub-Actions habit such as ` + "`if:`" + ` or ` + "`depends_on:`" + `, or an invented
` + "`output:`" + ` is accepted and has no effect. This rule checks every level against the keys the
reference reads: the top level, ` + "`args.<name>`" + `, ` + "`cost_limit`" + `, steps, parallel branches, loop
sub-steps, and the ` + "`approval`" + `, ` + "`input`" + `, ` + "`retry`" + ` and ` + "`parallel`" + ` mappings. It suggests the key
meant (spelling variants such as ` + "`onError`" + ` and ` + "`on-error`" + `, close typos, and common synonyms)
and explains the keys that have no Lobster equivalent (a step's output is captured automatically;
steps run in file order; args have no types).

On a parallel branch, ` + "`approval`" + `, ` + "`input`" + `, ` + "`workflow`" + `, ` + "`parallel`" + ` and ` + "`for_each`" + ` are never
read either (a branch runs exactly one of run, command or pipeline), so they are reported here.
Keys that more specific rules explain are left to them: documentary keys (` + "`metadata-key`" + `), step
policies in contexts that ignore them (` + "`ignored-step-policy`" + `), loop fields on steps that are
not loops (` + "`orphan-loop-fields`" + `), and files in another dialect (` + "`foreign-dialect`" + `). Keys
starting with ` + "`x-`" + ` are taken as deliberate extensions (for example a place to hold YAML
anchors), and a top-level ` + "`$schema`" + ` as a pointer for editors; they are not reported.`,
	Bad:  "- id: fetch\n  run: ./fetch.sh\n  timeoutMs: 60000\n  output: result",
	Good: "- id: fetch\n  run: ./fetch.sh\n  timeout_ms: 60000",
	Fix:  "rename the key to the one meant when it is a known synonym or an unambiguous typo and the target key is not already set (for timeout and timeout_seconds, check the unit: timeout_ms is in milliseconds)",
	Run:  func(p *Pass) { reportUnlessForeign(p, collectUnknownKeys) },
}

// keyLevel is a mapping level with its own key set.
type keyLevel int

const (
	levelTop keyLevel = iota
	levelArg
	levelCost
	levelStep
	levelApproval
	levelInput
	levelRetry
	levelParallel
)

var levelKeys = [...][]string{
	levelTop:      {"name", "description", "args", "env", "cwd", "steps", "cost_limit"},
	levelArg:      {"default", "description"},
	levelCost:     {"max_usd", "action"},
	levelStep:     {"id", "run", "command", "pipeline", "workflow", "workflow_args", "parallel", "for_each", "steps", "item_var", "index_var", "batch_size", "pause_ms", "approval", "input", "stdin", "env", "cwd", "when", "condition", "retry", "timeout_ms", "on_error"},
	levelApproval: {"prompt", "items", "preview", "initiated_by", "initiatedBy", "required_approver", "requiredApprover", "require_different_approver", "requireDifferentApprover"},
	levelInput:    {"prompt", "responseSchema", "defaults"},
	levelRetry:    {"max", "backoff", "delay_ms", "max_delay_ms", "jitter"},
	levelParallel: {"wait", "timeout_ms", "branches"},
}

// keySynonyms map a key to the key meant, per level.
var keySynonyms = [...]map[string]string{
	levelTop: {
		"inputs": "args", "params": "args", "parameters": "args", "arguments": "args",
		"environment": "env", "working_dir": "cwd", "working_directory": "cwd", "workdir": "cwd",
	},
	levelArg: {
		"desc": "description", "help": "description", "value": "default", "default_value": "default",
	},
	levelCost: {
		"max": "max_usd", "limit": "max_usd", "usd": "max_usd", "max_cost": "max_usd", "budget": "max_usd",
		"on_exceed": "action", "mode": "action", "policy": "action",
	},
	levelStep: {
		"timeout": "timeout_ms", "timeout_seconds": "timeout_ms", "timeout_secs": "timeout_ms", "timeout_sec": "timeout_ms", "timeout_s": "timeout_ms",
		"if": "when", "cmd": "run", "shell": "run", "script": "run", "exec": "run", "sh": "run", "bash": "run",
		"environment": "env", "working_dir": "cwd", "working_directory": "cwd", "workdir": "cwd",
		"continue_on_error": "on_error", "continue-on-error": "on_error", "ignore_errors": "on_error", "allow_failure": "on_error",
		"approve": "approval", "requires_approval": "approval", "gate": "approval",
	},
	levelApproval: {
		"message": "prompt", "text": "prompt", "title": "prompt", "question": "prompt",
		"approver": "required_approver", "approvers": "required_approver", "initiator": "initiated_by",
	},
	levelInput: {
		"schema": "responseSchema", "json_schema": "responseSchema", "default": "defaults",
		"message": "prompt", "text": "prompt", "question": "prompt",
	},
	levelRetry: {
		"attempts": "max", "max_attempts": "max", "retries": "max", "max_retries": "max", "count": "max", "times": "max", "limit": "max",
		"delay": "delay_ms", "interval": "delay_ms", "wait": "delay_ms", "wait_ms": "delay_ms",
		"max_delay": "max_delay_ms", "cap": "max_delay_ms", "strategy": "backoff", "type": "backoff",
	},
	levelParallel: {
		"steps": "branches", "tasks": "branches", "jobs": "branches",
		"mode": "wait", "strategy": "wait", "timeout": "timeout_ms",
	},
}

// Explanations for keys with no Lobster equivalent.
const (
	noteFileOrder = "steps run in file order, one after the other; use parallel: {branches: […]} for concurrency"
	noteCapture   = "a step's output is captured automatically: use %q or %q"
	noteRetries   = "to retry a step use retry: {max: N}, where max counts attempts including the first (3 retries is max: 4)"
	noteLLM       = "to call a model, use pipeline: \"llm.invoke --prompt '…'\"; to ask a person, use approval: or input: {prompt: …}"
	noteArgTypes  = "args have no types and no validation: an arg is a string (or the JSON value passed), and its default is used when it is not passed"
	noteMs        = "timeout_ms is in milliseconds"
)

// keyNotes explain keys per level; "%s" in a note is replaced by the step id.
var keyNotes = [...]map[string]string{
	levelTop: {
		"output": "a workflow's output is the output of its last step", "outputs": "a workflow's output is the output of its last step",
		"result": "a workflow's output is the output of its last step", "returns": "a workflow's output is the output of its last step",
		"timeout": "there is no workflow-level timeout; set timeout_ms on the steps", "timeout_ms": "there is no workflow-level timeout; set timeout_ms on the steps",
		"on_error": "there is no workflow-level on_error; set it on the steps", "retry": "there is no workflow-level retry; set it on the steps",
		"on": "there are no triggers: start runs from cron, CI or OpenClaw", "trigger": "there are no triggers: start runs from cron, CI or OpenClaw",
		"triggers": "there are no triggers: start runs from cron, CI or OpenClaw", "schedule": "there are no triggers: start runs from cron, CI or OpenClaw",
	},
	levelArg: {
		"type": noteArgTypes, "enum": noteArgTypes, "choices": noteArgTypes, "pattern": noteArgTypes, "format": noteArgTypes,
		"min": noteArgTypes, "max": noteArgTypes, "minimum": noteArgTypes, "maximum": noteArgTypes, "secret": noteArgTypes,
		"required": "args have no required check: an arg that is not passed and has no default is empty",
	},
	levelCost: {},
	levelStep: {
		"depends_on": noteFileOrder, "dependsOn": noteFileOrder, "needs": noteFileOrder, "after": noteFileOrder, "depends": noteFileOrder, "requires": noteFileOrder,
		"output": noteCapture, "outputs": noteCapture, "capture": noteCapture, "save_as": noteCapture, "saveAs": noteCapture,
		"store": noteCapture, "result": noteCapture, "register": noteCapture,
		"retries": noteRetries, "maxRetries": noteRetries, "max_retries": noteRetries, "retry_count": noteRetries, "attempts": noteRetries, "max_attempts": noteRetries,
		"prompt": noteLLM, "system": noteLLM, "model": noteLLM, "temperature": noteLLM, "max_tokens": noteLLM,
		"uses":     "there are no actions: run a command with run:, or another workflow file with workflow:",
		"branches": "parallel branches go under parallel: {branches: […]}",
	},
	levelApproval: {
		"timeout":    "approval gates have no timeout; an interactive wait is bounded only by LOBSTER_APPROVAL_INPUT_TIMEOUT_MS",
		"timeout_ms": "approval gates have no timeout; an interactive wait is bounded only by LOBSTER_APPROVAL_INPUT_TIMEOUT_MS",
		"required":   "a gate is always required: approval: true (or a prompt string) is enough",
	},
	levelInput: {
		"timeout":    "input requests have no timeout",
		"timeout_ms": "input requests have no timeout",
	},
	levelRetry: {
		"timeout":    "set timeout_ms on the step: each attempt gets its own timer",
		"timeout_ms": "set timeout_ms on the step: each attempt gets its own timer",
		"on":         "every failure is retried except cancellation and pipeline halts",
	},
	levelParallel: {
		"concurrency": "all branches start at once; there is no concurrency limit", "max_concurrency": "all branches start at once; there is no concurrency limit",
		"fail_fast": "with wait: all every branch runs to the end; wait: any takes the first branch to settle, success or failure",
	},
}

// shellNames are values of a "shell:" key that name a shell rather than a command.
var shellNames = map[string]bool{"bash": true, "sh": true, "zsh": true, "fish": true, "dash": true, "ksh": true, "pwsh": true,
	"powershell": true, "cmd": true, "python": true, "python3": true, "node": true}

// branchIgnored are step keys that a parallel branch never reads;
// subStepIgnored are those a loop sub-step never reads.
var (
	branchIgnored = map[string]bool{"when": true, "condition": true, "retry": true, "timeout_ms": true, "on_error": true,
		"approval": true, "input": true, "workflow": true, "workflow_args": true, "parallel": true, "for_each": true,
		"steps": true, "item_var": true, "index_var": true, "batch_size": true, "pause_ms": true}
	subStepIgnored = map[string]bool{"retry": true, "timeout_ms": true, "on_error": true,
		"approval": true, "input": true, "workflow": true, "workflow_args": true, "parallel": true, "for_each": true,
		"steps": true, "item_var": true, "index_var": true, "batch_size": true, "pause_ms": true}
)

// normKey folds case and separators: onError, on-error and ON_ERROR all
// become "onerror".
func normKey(k string) string {
	var b strings.Builder
	b.Grow(len(k))
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c == '_' || c == '-' || c == ' ':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String()
}

// keyAdvice is what an unknown key probably means.
type keyAdvice struct {
	target string // the key meant, or ""
	note   string // an explanation, or ""
}

// adviseKey finds the key meant by an unknown key at a level.
func adviseKey(level keyLevel, name string) keyAdvice {
	if t, ok := keySynonyms[level][name]; ok {
		return keyAdvice{target: t}
	}
	if n, ok := keyNotes[level][name]; ok {
		return keyAdvice{note: n}
	}
	// Spelling variants: onError, on-error, itemVar, timeoutMs…
	norm := normKey(name)
	for _, k := range levelKeys[level] {
		if normKey(k) == norm {
			return keyAdvice{target: k}
		}
	}
	// Synonyms written in another case or with other separators.
	for k, t := range keySynonyms[level] {
		if normKey(k) == norm {
			return keyAdvice{target: t}
		}
	}
	for k, n := range keyNotes[level] {
		if normKey(k) == norm {
			return keyAdvice{note: n}
		}
	}
	return keyAdvice{target: Suggest(name, levelKeys[level])}
}

// unknownKeyCtx describes where an object stands, for messages and fixes.
type unknownKeyCtx struct {
	level keyLevel
	where string // "in step \"x\"", "at the top level"…
	obj   *ast.Object
	step  *StepInfo // the step, for step levels
}

func collectUnknownKeys(p *Pass, emit func(source.Diagnostic)) {
	w := p.File.Workflow
	if w == nil {
		return
	}
	check := func(c unknownKeyCtx) {
		for _, f := range c.obj.Unknown {
			if d, ok := unknownKeyFinding(p, c, f); ok {
				emit(d)
			}
		}
	}
	check(unknownKeyCtx{level: levelTop, where: "at the top level", obj: &w.Object})
	if a, ok := fieldValue(w.Args).(*ast.Args); ok {
		for _, fd := range a.Fields {
			if d, ok := fd.Value.(*ast.ArgDef); ok {
				check(unknownKeyCtx{level: levelArg, where: fmt.Sprintf("arg %q", fd.Name()), obj: &d.Object})
			}
		}
	}
	if c, ok := fieldValue(w.CostLimit).(*ast.CostLimit); ok {
		check(unknownKeyCtx{level: levelCost, where: "cost_limit", obj: &c.Object})
	}
	for _, s := range structureSteps(p.Info) {
		st := s.Step
		if len(st.Unknown) == 0 && st.Context == ast.TopStep && st.Approval == nil && st.Input == nil && st.Retry == nil && st.Parallel == nil {
			continue // the common case, without building labels
		}
		label := stepLabel(s)
		check(unknownKeyCtx{level: levelStep, where: label, obj: &st.Object, step: s})
		if st.Context == ast.BranchStep {
			// Step keys that a branch never reads and no other rule explains.
			for _, f := range []*ast.Field{st.Approval, st.Input, st.Workflow, st.Parallel, st.ForEach} {
				if f != nil && !isNull(f) {
					emit(branchKeyFinding(p, s, f))
				}
			}
			continue
		}
		if st.Context != ast.TopStep || s.IsLoop() {
			continue // the nested mappings are ignored as a whole there
		}
		if a, ok := fieldValue(st.Approval).(*ast.Approval); ok {
			check(unknownKeyCtx{level: levelApproval, where: "the approval of " + label, obj: &a.Object, step: s})
		}
		if in, ok := fieldValue(st.Input).(*ast.Input); ok {
			check(unknownKeyCtx{level: levelInput, where: "the input of " + label, obj: &in.Object, step: s})
		}
		if r, ok := fieldValue(st.Retry).(*ast.Retry); ok {
			check(unknownKeyCtx{level: levelRetry, where: "the retry of " + label, obj: &r.Object, step: s})
		}
		if par, ok := fieldValue(st.Parallel).(*ast.Parallel); ok {
			check(unknownKeyCtx{level: levelParallel, where: "the parallel block of " + label, obj: &par.Object, step: s})
		}
	}
}

// skipUnknown reports keys that unknown-key leaves to other rules.
func skipUnknown(c unknownKeyCtx, name string) bool {
	switch {
	case strings.HasPrefix(name, "x-"), name == "<<": // extensions; merge keys are yaml-merge-key
		return true
	case c.level == levelTop:
		// metadata-key; "$schema" points editors at a JSON Schema.
		return name == "version" || name == "author" || name == "$schema"
	case c.level == levelStep:
		// metadata-key, or missing-id's did-you-mean when the step has no id.
		return name == "description" || name == "name"
	}
	return false
}

func unknownKeyFinding(p *Pass, c unknownKeyCtx, f *ast.Field) (source.Diagnostic, bool) {
	name := f.Name()
	if skipUnknown(c, name) {
		return source.Diagnostic{}, false
	}
	adv := adviseKey(c.level, name)
	where := c.where
	if c.level != levelTop {
		where = "in " + where
	}
	ignores := "the reference ignores it"
	if p.Rejected {
		ignores = "Lobster does not read it" // the reference rejects the file for another error
	}
	d := p.Finding(f.Key.Span, "unknown key %q %s; %s", name, where, ignores)
	id := "id"
	if c.step != nil && c.step.ID != "" {
		id = c.step.ID
	}
	target := adv.target
	var fix *source.Fix
	note := adv.note
	if strings.Contains(note, "%q") {
		note = fmt.Sprintf(note, "$"+id+".stdout", "$"+id+".json")
	}
	if c.level == levelStep {
		target, note, fix = adviseStepKey(p, c, f, target, note)
	} else if target != "" && c.obj.Lookup(target) == nil {
		fix = &source.Fix{Message: fmt.Sprintf("Rename %q to %q", name, target), Edits: []source.Edit{renameKey(p, f, target)}}
		switch {
		case c.level == levelParallel && target == "timeout_ms":
			note = noteMs
		case c.level == levelRetry && target == "max" && name != "max":
			note = "max counts attempts including the first"
		case c.level == levelTop && target == "args":
			if _, ok := ast.Resolve(f.Value).(*ast.Mapping); !ok {
				fix = nil // a list of inputs is not an args mapping
			}
		}
	}
	if target != "" {
		d.Message += fmt.Sprintf("; did you mean %q?", target)
	}
	if note != "" {
		d.Message += "; " + note
	}
	if fix != nil {
		d.Fixes = []source.Fix{*fix}
	}
	return d, true
}

// adviseStepKey refines the advice for a step-level key with the step's
// other fields and context.
func adviseStepKey(p *Pass, c unknownKeyCtx, f *ast.Field, target, note string) (string, string, *source.Fix) {
	s := c.step.Step
	name := f.Name()
	switch {
	case name == "shell":
		if sc := ast.StringOf(ast.Resolve(f.Value)); sc != nil && shellNames[strings.ToLower(strings.TrimSpace(sc.Text))] {
			return "", "shell text runs with /bin/sh -lc; set LOBSTER_SHELL in the step's env to use another shell", nil
		}
	case name == "args" || name == "with" || name == "inputs" || name == "params" || name == "parameters" || name == "arguments":
		if s.Workflow != nil {
			if _, ok := ast.Resolve(f.Value).(*ast.Mapping); !ok {
				return "workflow_args", "", nil
			}
			target = "workflow_args"
		} else {
			return "", "step args are not passed to anything: put the values in the command text (flags of a pipeline command, arguments of a shell command), or use workflow_args with workflow:", nil
		}
	case target == "on_error" && normKey(name) != "onerror":
		// continue_on_error: true means on_error: continue.
		if sc, ok := ast.Resolve(f.Value).(*ast.Scalar); ok && sc.Kind == ast.Bool && sc.Bool && s.OnError == nil && !ignoredHere(c.step, "on_error") {
			return "", "use on_error: continue", &source.Fix{
				Message: fmt.Sprintf("Replace %q with on_error: continue", name),
				Edits:   []source.Edit{renameKey(p, f, "on_error"), p.Edit(ast.SpanOf(f.Value), "continue")},
			}
		}
		return "", "use on_error: continue (or skip_rest)", nil
	}
	if target == "steps" && s.ForEach == nil {
		// "steps" is the workflow's list at the top level; in a step it
		// holds a loop's sub-steps only.
		target = ""
	}
	if target == "" {
		if note == "" && toolCall(s) {
			// command: message with action:, channel:… next to it.
			note = "step keys are not passed to the command: put the values in the command text"
		}
		return "", note, nil
	}
	if ignoredHere(c.step, target) {
		return target, fmt.Sprintf("note that %q is not read on a %s either", target, s.Context), nil
	}
	present := s.Lookup(target) != nil
	if target == "run" {
		present = executes(s) != nil || s.Command != nil || s.Pipeline != nil
	}
	if target == "when" {
		present = present || s.Condition != nil
	}
	if present {
		return target, note, nil
	}
	fix := &source.Fix{Message: fmt.Sprintf("Rename %q to %q", name, target), Edits: []source.Edit{renameKey(p, f, target)}}
	if target == "timeout_ms" && normKey(name) != "timeoutms" {
		fix.Unsafe = true // the value may be meant in seconds
		// timeout, timeout_seconds…: the value may be in seconds.
		sc, _ := ast.Resolve(f.Value).(*ast.Scalar)
		seconds := strings.Contains(normKey(name), "sec") || strings.HasSuffix(name, "_s")
		switch {
		case seconds && sc != nil && (sc.Kind == ast.Int || sc.Kind == ast.Float) && sc.Num > 0 && sc.Num*1000 <= 2147483647:
			ms := strconv.FormatFloat(sc.Num*1000, 'f', -1, 64)
			note = fmt.Sprintf("%s: %s seconds is timeout_ms: %s", noteMs, sc.Text, ms)
			fix = &source.Fix{
				Message: fmt.Sprintf("Replace %q with timeout_ms: %s", name+": "+sc.Text, ms),
				Edits:   []source.Edit{renameKey(p, f, target), p.Edit(ast.SpanOf(sc), ms)},
				Unsafe:  true,
			}
		case seconds:
			note = noteMs + ", not seconds"
			fix.Message += " and convert the value to milliseconds"
		case sc != nil && (sc.Kind == ast.Int || sc.Kind == ast.Float) && sc.Num < 1000:
			note = fmt.Sprintf("%s: %s would be %s ms, not seconds", noteMs, sc.Text, sc.Text)
			fix.Message += " (check the unit: milliseconds)"
		default:
			note = noteMs
			fix.Message += " (check the unit: milliseconds)"
		}
	}
	return target, note, fix
}

// ignoredHere reports whether a step key has no effect in the step's context.
func ignoredHere(s *StepInfo, key string) bool {
	switch s.Step.Context {
	case ast.BranchStep:
		return branchIgnored[key]
	case ast.SubStep:
		return subStepIgnored[key]
	}
	return false
}

// branchKeyFinding reports approval, input, workflow, parallel or for_each
// on a parallel branch.
func branchKeyFinding(p *Pass, s *StepInfo, f *ast.Field) source.Diagnostic {
	var why string
	switch f.Name() {
	case "approval":
		why = "put the gate on the parallel step, or on a step after it"
	case "input":
		why = "ask for input in a step before the parallel step"
	default:
		why = "a branch runs exactly one of run, command or pipeline"
	}
	if p.Rejected {
		return p.Finding(f.Key.Span, "%q is not read on a parallel branch (%s): %s", f.Name(), stepLabel(s), why)
	}
	return p.Finding(f.Key.Span, "%q is not read on a parallel branch (%s); the reference ignores it: %s", f.Name(), stepLabel(s), why)
}

// toolCall reports whether a step's command is a single word, such as
// "clawd.invoke" or "message": keys next to it are likely meant as its
// parameters.
func toolCall(s *ast.Step) bool {
	f := executes(s)
	if f == nil || f != s.Run && f != s.Command && f != s.Pipeline {
		return false
	}
	sc := ast.StringOf(ast.Resolve(f.Value))
	if sc == nil {
		return false
	}
	text := strings.TrimSpace(sc.Text)
	return text != "" && !strings.ContainsAny(text, " \t\n")
}
