package pipeline

import (
	"strings"
	"testing"
)

const triageInput = `[{"id":"m1","threadId":"t1","from":"Ada <ada@example.com>","subject":"Lunch?","labels":["UNREAD"]},
 {"id":"m2","from":"noreply@service.com","subject":"Your receipt","labels":["UNREAD"]},
 {"messageId":"m3","sender":"boss@example.com","subject":"ACTION REQUIRED: sign","internalDate":"123","bodyPreview":"sign"},
 {"id":"m4","from":"bob@example.com","subject":"Urgent thing"},
 "not an object"]`

func TestEmailTriageDeterministic(t *testing.T) {
	env := &Env{Mode: Human}
	checkEnv(t, env, "email.triage | pick summary,buckets", triageInput,
		`[{"summary":"1 need replies, 2 need action, 2 FYI","buckets":{"needsReply":["m1"],"needsAction":["m3","m4"],"fyi":["m2",""]}}]`)
	checkEnv(t, env, "email.triage --limit 1 | pick summary", triageInput, `[{"summary":"1 need replies, 0 need action, 0 FYI"}]`)
	checkEnv(t, env, "email.triage --emit drafts", triageInput, `[]`)
	checkEnv(t, env, "email.triage --limit 3 | map --unwrap emails", triageInput,
		`[[{"id":"m1","threadId":"t1","from":"Ada <ada@example.com>","subject":"Lunch?","date":"","snippet":"","labels":["UNREAD"]},`+
			`{"id":"m2","threadId":"m2","from":"noreply@service.com","subject":"Your receipt","date":"","snippet":"","labels":["UNREAD"]},`+
			`{"id":"m3","threadId":"m3","from":"boss@example.com","subject":"ACTION REQUIRED: sign","date":"123","snippet":"sign","labels":[]}]]`)
	// --llm without a configured provider stays deterministic.
	checkEnv(t, env, "email.triage --llm | pick mode", triageInput, `[{"mode":"deterministic"}]`)
}

func TestEmailTriageLLM(t *testing.T) {
	f, u := newFakeLLM(t, `{"ok":true,"result":{"output":{"data":{"decisions":[`+
		`{"id":"m1","category":"needs_reply","reply":{"subject":"Re: Lunch?","body":"Sure!"}},`+
		`{"id":"m2","category":"needs_reply","reply":{"body":"x"}},`+
		`{"id":"m4","category":"needs_reply","reply":{"body":"On it"}},`+
		`{"id":"m3","category":"needs_action"}]}}}}`)
	env := &Env{Mode: Human, BaseDir: t.TempDir(), Environ: []string{"LOBSTER_LLM_ADAPTER_URL=" + u}}
	checkEnv(t, env, "email.triage --llm --model mm | pick summary,drafts,mode", triageInput,
		`[{"summary":"3 need replies, 1 need action, 0 FYI","drafts":[`+
			`{"emailId":"m1","to":"ada@example.com","subject":"Re: Lunch?","body":"Sure!"},`+
			`{"emailId":"m4","to":"bob@example.com","subject":"Re: Urgent thing","body":"On it"}],"mode":"llm"}]`)
	body := f.bodies[0]
	for _, want := range []string{`"model":"mm"`, `"schemaVersion":"email_triage.v1"`, `"outputSchema":{"type":"object","properties":{"decisions"`, `Emails (JSON):\n[\n  {\n    \"id\": \"m1\"`} {
		if !strings.Contains(body, want) {
			t.Errorf("request lacks %s:\n%s", want, body)
		}
	}
	// The same emails again: the answer comes from the cache.
	checkEnv(t, env, "email.triage --llm --model mm --emit drafts", triageInput,
		`[{"to":"ada@example.com","subject":"Re: Lunch?","body":"Sure!","emailId":"m1"},{"to":"bob@example.com","subject":"Re: Urgent thing","body":"On it","emailId":"m4"}]`)
	if f.calls() != 1 {
		t.Errorf("%d calls, want 1", f.calls())
	}
}
