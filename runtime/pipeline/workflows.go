package pipeline

//lint:file-ignore ST1005 error messages are the reference's, word for word (capitals included)

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/proc"
)

// A namedWorkflow is a built-in workflow of workflows.run.
type namedWorkflow struct {
	name, description string
	args              []workflowArg
	run               func(ctx context.Context, c *Call, args *jsvalue.Object) (any, error)
}

type workflowArg struct {
	name, typ, description string
	required               bool
}

// namedWorkflows are the built-in workflows, described in our
// words.
func namedWorkflows() []namedWorkflow {
	prArgs := []workflowArg{
		{"repo", "string", "the repository, owner/name", true},
		{"pr", "number", "the pull request number", true},
		{"key", "string", "state key of the snapshot (default github.pr:<repo>#<pr>)", false},
	}
	return []namedWorkflow{
		{
			name:        "github.pr.monitor",
			description: "Read a pull request with gh, compare it with the last run and report what changed",
			args: append(prArgs,
				workflowArg{"changesOnly", "boolean", "report nothing (suppressed) when the pull request did not change", false},
				workflowArg{"summaryOnly", "boolean", "report a short pr summary instead of the whole snapshot", false}),
			run: func(ctx context.Context, c *Call, args *jsvalue.Object) (any, error) {
				return prMonitor(ctx, c, args, truthyField(args, "changesOnly"), truthyField(args, "summaryOnly"))
			},
		},
		{
			name:        "github.pr.monitor.notify",
			description: "Monitor a pull request and write one human-readable message when it changed",
			args:        prArgs,
			run:         prMonitorNotify,
		},
	}
}

// workflowsListCommand is workflows.list: the built-in workflows.
func workflowsListCommand(ctx context.Context, c *Call) (Output, error) {
	if _, err := c.Input.Drain(ctx); err != nil {
		return Output{}, err
	}
	var out []any
	for _, w := range namedWorkflows() {
		props := jsvalue.NewObject()
		required := []any{}
		for _, a := range w.args {
			props.Set(a.name, jsvalue.Obj("type", a.typ, "description", a.description))
			if a.required {
				required = append(required, a.name)
			}
		}
		out = append(out, jsvalue.Obj(
			"name", w.name,
			"description", w.description,
			"argsSchema", jsvalue.Obj("type", "object", "properties", props, "required", required),
			"examples", []any{jsvalue.Obj("args", jsvalue.Obj("repo", "openclaw/openclaw", "pr", 1152.0))},
			"sideEffects", []any{},
		))
	}
	return Output{Items: out}, nil
}

// workflowsRunCommand is workflows.run: run a built-in workflow.
func workflowsRunCommand(ctx context.Context, c *Call) (Output, error) {
	name, ok := c.Args.JSString("name")
	if !ok && len(c.Args.Positional) > 0 {
		name, ok = c.Args.Positional[0], true
	}
	if !ok || name == "" {
		return Output{}, errors.New("workflows.run requires --name")
	}
	var wf *namedWorkflow
	for _, w := range namedWorkflows() {
		if w.name == name {
			wf = &w
		}
	}
	if wf == nil {
		return Output{}, fmt.Errorf("Unknown workflow: %s", name)
	}
	args := jsvalue.NewObject()
	if text, _ := c.Args.JSString("args-json"); text != "" {
		v, err := jsvalue.Parse([]byte(text))
		if err != nil {
			return Output{}, errors.New("workflows.run --args-json must be valid JSON")
		}
		if o, ok := v.(*jsvalue.Object); ok {
			args = o
		}
	}
	if _, err := c.Input.Drain(ctx); err != nil {
		return Output{}, err
	}
	v, err := wf.run(ctx, c, args)
	if err != nil {
		return Output{}, err
	}
	return Output{Items: []any{v}}, nil
}

// truthyField is Boolean(o[key]).
func truthyField(o *jsvalue.Object, key string) bool {
	v, ok := o.Get(key)
	return ok && jsvalue.Truthy(v)
}

// prFields are the fields gh is asked for; prSummaryFields those compared.
const prFields = "number,title,url,state,isDraft,mergeable,reviewDecision,author,baseRefName,headRefName,updatedAt"

var prSummaryFields = []string{"number", "title", "url", "state", "isDraft", "mergeable", "reviewDecision", "updatedAt", "baseRefName", "headRefName"}

// prMonitor reads the pull request with gh, stores it under its key and
// reports the change.
func prMonitor(ctx context.Context, c *Call, args *jsvalue.Object, changesOnly, summaryOnly bool) (*jsvalue.Object, error) {
	repo, _ := args.Get("repo")
	pr, _ := args.Get("pr")
	if !truthyField(args, "repo") || !truthyField(args, "pr") {
		return nil, errors.New("github.pr.monitor requires args.repo and args.pr")
	}
	repoText, prText := jsString(repo), jsString(pr)
	key := "github.pr:" + repoText + "#" + prText
	if k, ok := args.Get("key"); ok && !isNullish(k) {
		key = jsString(k)
	}
	res, err := proc.Run(ctx, proc.Command{
		Name: "gh", Args: []string{"pr", "view", prText, "--repo", repoText, "--json", prFields},
		Env: c.Env.Environ, Dir: c.Env.Dir, Stdin: []byte{}, NotFound: "gh not found on PATH (install GitHub CLI)", Force: c.Env.Force,
	})
	if err != nil {
		return nil, err
	}
	if res.Code != 0 {
		detail := string(res.Stderr)
		if detail == "" {
			detail = string(res.Stdout)
		}
		return nil, fmt.Errorf("gh failed (%s): %s", codeText(res.Code), js.Trim(detail))
	}
	after, err := jsvalue.Parse(res.Stdout)
	if err != nil {
		return nil, errors.New("gh returned non-JSON output")
	}
	s, err := c.Env.store()
	if err != nil {
		return nil, err
	}
	if _, err := s.Path(key); err != nil {
		return nil, err
	}
	var before any
	err = writeLocked(ctx, s, key, func(old []byte) []byte {
		if old != nil {
			if v, err := jsvalue.Parse(old); err == nil {
				before = v
			}
		}
		return stateText(after)
	})
	if err != nil {
		return nil, err
	}
	changed := Canonical(before) != Canonical(after)
	out := jsvalue.Obj("kind", "github.pr.monitor", "repo", repo, "prNumber", toNumber(pr), "key", key, "changed", changed)
	if changesOnly && !changed {
		out.Set("suppressed", true)
		return out, nil
	}
	out.Set("summary", prSummary(before, after))
	if summaryOnly {
		pr := jsvalue.NewObject()
		for _, f := range []string{"number", "title", "url", "state", "updatedAt"} {
			pr.Set(f, property(after, f, false))
		}
		out.Set("pr", pr)
	} else {
		out.Set("prSnapshot", after)
	}
	return out, nil
}

// prSummary lists the compared fields that differ between two snapshots
// (all of them for the first), with their old and new values.
func prSummary(before, after any) *jsvalue.Object {
	fields := []any{}
	changes := jsvalue.NewObject()
	for _, f := range prSummaryFields {
		a, b := property(before, f, false), property(after, f, false)
		if before != nil && compact(a) == compact(b) {
			continue
		}
		fields = append(fields, f)
		from := a
		if before == nil {
			from = nil
		}
		changes.Set(f, jsvalue.Obj("from", from, "to", b))
	}
	return jsvalue.Obj("changedFields", fields, "changes", changes)
}

// prMonitorNotify is github.pr.monitor.notify: one message when the pull
// request changed.
func prMonitorNotify(ctx context.Context, c *Call, args *jsvalue.Object) (any, error) {
	r, err := prMonitor(ctx, c, args, true, true)
	if err != nil {
		return nil, err
	}
	if s, _ := r.Get("suppressed"); s == true {
		return jsvalue.Obj("kind", "github.pr.monitor.notify", "suppressed", true), nil
	}
	repo, _ := args.Get("repo")
	prArg, _ := args.Get("pr")
	pr, _ := r.Get("pr")
	summary, _ := r.Get("summary")
	msg := "PR updated: " + jsString(repo) + "#" + jsString(prArg)
	if title := property(pr, "title", false); !isNullish(title) && jsString(title) != "" {
		msg += ": " + jsString(title)
	}
	if fields, ok := property(summary, "changedFields", false).([]any); ok && len(fields) > 0 {
		names := make([]string, len(fields))
		for i, f := range fields {
			names[i] = jsString(f)
		}
		msg += " (" + strings.Join(names, ", ") + ")"
	}
	msg += "."
	if u := property(pr, "url", false); !isNullish(u) && jsString(u) != "" {
		msg += " " + jsString(u)
	}
	msg = strings.Join(strings.FieldsFunc(msg, js.IsSpace), " ")
	changed, _ := r.Get("changed")
	prNumber, _ := r.Get("prNumber")
	return jsvalue.Obj("kind", "github.pr.monitor.notify", "changed", changed, "repo", repo, "prNumber", prNumber,
		"message", msg, "pr", pr, "summary", summary), nil
}
