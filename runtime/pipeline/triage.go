package pipeline

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/lobsterdev/lobster/lang/commands"
	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
)

// emailTriageCommand is email.triage: sort emails into needs
// reply, needs action and FYI, deterministically or with llm.invoke, and
// report the buckets or output reply drafts.
func emailTriageCommand(ctx context.Context, c *Call) (Output, error) {
	a := c.Args
	// The reference counts after taking an email: a limit of 0 or less
	// still takes one, and one that is not a number takes them all.
	limit := 20.0
	if f, given := a.Number("limit"); given {
		limit = f
	}
	var emails []*jsvalue.Object
	for {
		item, ok, err := c.Input.Next(ctx)
		if err != nil {
			return Output{}, err
		}
		if !ok {
			break
		}
		emails = append(emails, normalizeEmail(item))
		if float64(len(emails)) >= limit {
			break
		}
	}
	c.Input.Close()
	emit, _ := a.JSString("emit")
	drafts := js.Trim(emit) == "drafts"
	emailList := make([]any, len(emails))
	for i, e := range emails {
		emailList[i] = e
	}

	if !a.Truthy("llm") || !llmConfigured(c.Env) {
		var reply, action, fyi []any
		for _, e := range emails {
			id := emailText(e, "id")
			switch subject := js.ToLower(emailText(e, "subject")); {
			case strings.Contains(subject, "action required") || strings.Contains(subject, "urgent"):
				action = append(action, id)
			case hasLabel(e, "UNREAD") && !noReply(emailText(e, "from")):
				reply = append(reply, id)
			default:
				fyi = append(fyi, id)
			}
		}
		if drafts {
			return Output{Items: []any{}}, nil
		}
		return Output{Items: []any{jsvalue.Obj(
			"summary", triageSummary(len(reply), len(action), len(fyi)),
			"buckets", jsvalue.Obj("needsReply", nonNil(reply), "needsAction", nonNil(action), "fyi", nonNil(fyi)),
			"emails", emailList,
			"mode", "deterministic",
		)}}, nil
	}

	decisions, err := llmTriage(ctx, c, emails)
	if err != nil {
		return Output{}, err
	}
	byID := map[string]*jsvalue.Object{}
	for _, e := range emails {
		byID[emailText(e, "id")] = e
	}
	var reply, action, fyi, draftList, emitted []any
	for _, d := range decisions {
		o, ok := d.(*jsvalue.Object)
		if !ok {
			continue
		}
		id := jsString(property(o, "id", false))
		switch property(o, "category", false) {
		case "needs_reply":
			reply = append(reply, id)
		case "needs_action":
			action = append(action, id)
		default:
			fyi = append(fyi, id)
		}
		body := property(property(o, "reply", false), "body", false)
		email := byID[id]
		if property(o, "category", false) != "needs_reply" || email == nil || isNullish(body) || jsString(body) == "" {
			continue
		}
		from := emailText(email, "from")
		to := emailAddress(from)
		if to == "" || noReply(from) {
			continue
		}
		subject := jsString(nullIfUndefined(property(property(o, "reply", false), "subject", false)))
		if isNullish(property(property(o, "reply", false), "subject", false)) || subject == "" {
			subject = "Re: " + emailText(email, "subject")
		}
		draftList = append(draftList, jsvalue.Obj("emailId", id, "to", to, "subject", subject, "body", jsString(body)))
		emitted = append(emitted, jsvalue.Obj("to", to, "subject", subject, "body", jsString(body), "emailId", id))
	}
	if drafts {
		return Output{Items: nonNil(emitted)}, nil
	}
	return Output{Items: []any{jsvalue.Obj(
		"summary", triageSummary(len(reply), len(action), len(fyi)),
		"buckets", jsvalue.Obj("needsReply", nonNil(reply), "needsAction", nonNil(action), "fyi", nonNil(fyi)),
		"emails", emailList,
		"decisions", decisions,
		"drafts", nonNil(draftList),
		"mode", "llm",
	)}}, nil
}

func triageSummary(reply, action, fyi int) string {
	return fmt.Sprintf("%d need replies, %d need action, %d FYI", reply, action, fyi)
}

// normalizeEmail reads the fields email.triage uses from the shapes gog
// and other sources give: id or messageId, threadId or thread_id, from or
// sender, date or internalDate or timestamp, snippet or bodyPreview.
func normalizeEmail(v any) *jsvalue.Object {
	first := func(keys ...string) string {
		for _, k := range keys {
			if x := property(v, k, false); !isNullish(x) {
				return jsString(x)
			}
		}
		return ""
	}
	if _, ok := v.(*jsvalue.Object); !ok {
		v = jsvalue.NewObject()
	}
	id := first("id", "messageId")
	thread := first("threadId", "thread_id")
	if thread == "" {
		thread = id
	}
	labels := []any{}
	if l, ok := property(v, "labels", false).([]any); ok {
		labels = l
	}
	return jsvalue.Obj(
		"id", id, "threadId", thread, "from", first("from", "sender"), "subject", first("subject"),
		"date", first("date", "internalDate", "timestamp"), "snippet", first("snippet", "bodyPreview"), "labels", labels,
	)
}

func emailText(e *jsvalue.Object, key string) string {
	v, _ := e.Get(key)
	s, _ := v.(string)
	return s
}

func hasLabel(e *jsvalue.Object, label string) bool {
	labels, _ := e.Get("labels")
	list, _ := labels.([]any)
	for _, l := range list {
		if l == label {
			return true
		}
	}
	return false
}

// noReply reports an automated sender.
func noReply(from string) bool {
	f := js.ToLower(from)
	for _, s := range []string{"no-reply", "noreply", "do-not-reply", "donotreply"} {
		if strings.Contains(f, s) {
			return true
		}
	}
	return false
}

var (
	angleAddress = regexp.MustCompile(`<([^>]+)>`)
	emailLike    = regexp.MustCompile(`[^\s<>"',;]+@[^\s<>"',;]+`)
)

// emailAddress is the address in <…>, or the first email-like word.
func emailAddress(from string) string {
	if m := angleAddress.FindStringSubmatch(from); m != nil {
		return js.Trim(m[1])
	}
	return emailLike.FindString(from)
}

// llmConfigured reports whether an LLM provider is configured in the
// environment.
func llmConfigured(e *Env) bool {
	for _, names := range [][]string{{"LOBSTER_LLM_PROVIDER"}, {"LOBSTER_PI_LLM_ADAPTER_URL"}, {"LOBSTER_LLM_ADAPTER_URL"}, {"OPENCLAW_URL", "CLAWD_URL"}} {
		if js.Trim(definedEnv(e, names...)) != "" {
			return true
		}
	}
	return false
}

// triageSchema is the JSON Schema of the decisions asked of the model.
func triageSchema() *jsvalue.Object {
	str := func() *jsvalue.Object { return jsvalue.Obj("type", "string") }
	return jsvalue.Obj(
		"type", "object",
		"properties", jsvalue.Obj("decisions", jsvalue.Obj(
			"type", "array",
			"items", jsvalue.Obj(
				"type", "object",
				"properties", jsvalue.Obj(
					"id", str(),
					"category", jsvalue.Obj("type", "string", "enum", []any{"needs_reply", "needs_action", "fyi"}),
					"rationale", str(),
					"reply", jsvalue.Obj("type", "object", "properties", jsvalue.Obj("subject", str(), "body", str()),
						"required", []any{"body"}, "additionalProperties", false),
				),
				"required", []any{"id", "category"},
				"additionalProperties", false,
			),
		)),
		"required", []any{"decisions"},
		"additionalProperties", false,
	)
}

// triagePrompt is the instruction given to the model (our wording).
const triagePrompt = `Sort each of these emails into one category: needs_reply (a person expects an answer), needs_action (something must be done), or fyi.
For needs_reply, also write a short, polite plain-text reply (no markdown). Automated senders (no-reply addresses) get no reply and are fyi unless they clearly need action.
Answer with JSON that matches the output schema.

Emails (JSON):
`

// llmTriage asks llm.invoke for the decisions.
func llmTriage(ctx context.Context, c *Call, emails []*jsvalue.Object) ([]any, error) {
	brief := make([]any, len(emails))
	artifacts := make([]any, len(emails))
	for i, e := range emails {
		b := jsvalue.NewObject()
		for _, k := range []string{"id", "from", "subject", "date", "snippet", "labels"} {
			v, _ := e.Get(k)
			b.Set(k, v)
		}
		brief[i], artifacts[i] = b, e
	}
	flags := []any{"prompt", triagePrompt + pretty(brief), "output-schema", compact(triageSchema()), "schema-version", "email_triage.v1"}
	// As the reference passes them on: the model trimmed when it is not
	// blank, the others as given (a bare flag stays bare).
	if m, _ := c.Args.JSString("model"); js.Trim(m) != "" {
		flags = append(flags, "model", js.Trim(m))
	}
	for _, f := range []string{"token", "temperature", "max-output-tokens", "state-key"} {
		if v, ok := c.Args.Get(f); ok && v.Bare {
			flags = append(flags, f, true)
		} else if ok {
			flags = append(flags, f, v.Text)
		}
	}
	spec, _ := commands.Lookup("llm.invoke")
	out, err := llmInvokeCommand(ctx, &Call{Name: "llm.invoke", Args: NewArgs(nil, flags...), Input: Items(artifacts), Env: c.Env, Spec: spec})
	if err != nil {
		return nil, err
	}
	if len(out.Items) == 0 {
		return nil, errors.New("email.triage: llm.invoke returned nothing")
	}
	decisions, _ := lookupPath(out.Items[0], "output.data.decisions").([]any)
	return nonNil(decisions), nil
}
