package pipeline

//lint:file-ignore ST1005 error messages are the reference's, word for word (capitals included)

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/state"
	"github.com/lobsterdev/lobster/runtime/validate"
)

// llmInvokeCommand is llm.invoke and llm_task.invoke: one call to
// an LLM adapter (http, pi or openclaw) with the input items as artifacts,
// reused from run state or the file cache when the same request was
// answered before, its output checked against --output-schema with
// retries.
func llmInvokeCommand(ctx context.Context, c *Call) (Output, error) {
	name, a, e := c.Name, c.Args, c.Env
	task := name == "llm_task.invoke"
	// Flags and variables are read as the reference reads them: a bare
	// flag is "true", a flag given as "" is given, and so is a variable
	// set to "" where the reference writes env.A ?? env.B.

	provider, err := llmProvider(c, task)
	if err != nil {
		return Output{}, err
	}
	limit, err := HTTPResponseLimit(e.Getenv)
	if err != nil {
		return Output{}, err
	}
	adapter, err := llmAdapterOf(c, provider)
	if err != nil {
		return Output{}, err
	}
	prompt, _ := a.JSString("prompt")
	if prompt == "" {
		prompt = strings.Join(a.Positional, " ")
	}
	if prompt == "" {
		return Output{}, fmt.Errorf("%s requires --prompt or positional text", name)
	}
	// A flag whose text is not blank, else the first variable that is
	// not blank, trimmed.
	flagOrFirstEnv := func(flag string, vars ...string) string {
		if v, ok := a.JSString(flag); ok && js.Trim(v) != "" {
			return js.Trim(v)
		}
		return js.Trim(firstEnv(e, vars...))
	}
	model := flagOrFirstEnv("model", "LOBSTER_LLM_MODEL", "LLM_TASK_MODEL")
	schemaVersion := flagOrFirstEnv("schema-version", "LOBSTER_LLM_SCHEMA_VERSION", "LLM_TASK_SCHEMA_VERSION")
	if schemaVersion == "" {
		schemaVersion = "v1"
	}
	number := func(flag string) (float64, bool) {
		f, given := a.Number(flag)
		return f, given && !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	temperature, hasTemp := number("temperature")
	maxTokens, hasMax := number("max-output-tokens")
	retries, given := a.Number("max-validation-retries")
	if !given {
		retries = math.NaN()
		if v := firstEnv(e, "LOBSTER_LLM_VALIDATION_RETRIES", "LLM_TASK_VALIDATION_RETRIES"); v != "" {
			if f, ok := js.Number(v); ok {
				retries = f
			}
		}
	}
	if math.IsNaN(retries) || math.IsInf(retries, 0) {
		retries = 1
	}
	retries = max(retries, 0)
	disableCache := parsedBool(a, "disable-cache")
	var refresh bool
	if _, ok := a.Get("refresh"); ok {
		refresh = parsedBool(a, "refresh")
	} else if v := firstEnv(e, "LOBSTER_LLM_FORCE_REFRESH", "LLM_TASK_FORCE_REFRESH"); v != "" {
		refresh = parsedText(v)
	}
	stateKey := js.Trim(flagOrEnv(c, "state-key", "LOBSTER_RUN_STATE_KEY"))
	jsonFlag := func(flag, msg string, want func(any) bool) (any, bool, error) {
		text, _ := a.JSString(flag)
		if text == "" {
			return nil, false, nil
		}
		v, err := jsvalue.Parse([]byte(text))
		if err != nil || !want(v) {
			return nil, false, fmt.Errorf("%s %s", name, msg)
		}
		return v, true, nil
	}
	isObj := func(v any) bool { _, ok := v.(*jsvalue.Object); return ok }
	extra, _, err := jsonFlag("artifacts-json", "--artifacts-json must be a JSON array", func(v any) bool { _, ok := v.([]any); return ok })
	if err != nil {
		return Output{}, err
	}
	metadata, hasMeta, err := jsonFlag("metadata-json", "--metadata-json must be a JSON object", isObj)
	if err != nil {
		return Output{}, err
	}
	outSchema, hasSchema, err := jsonFlag("output-schema", "--output-schema must be a JSON object", isObj)
	if err != nil {
		return Output{}, err
	}

	items, err := c.Input.Drain(ctx)
	if err != nil {
		return Output{}, err
	}
	if extra != nil {
		items = append(items, extra.([]any)...)
	}
	artifacts, hashes := make([]any, len(items)), make([]any, len(items))
	for i, it := range items {
		artifacts[i] = artifactOf(it)
		hashes[i] = sha256Hex(Canonical(artifacts[i]))
	}
	keyModel := model
	if keyModel == "" {
		keyModel = provider + "-default"
	}
	orNull := func(v any, ok bool) any {
		if ok {
			return v
		}
		return nil
	}
	cacheKey := sha256Hex(Canonical(jsvalue.Obj(
		"cacheKeyVersion", 2.0, "provider", provider, "prompt", prompt, "model", keyModel,
		"schemaVersion", schemaVersion, "artifactHashes", hashes, "outputSchema", orNull(outSchema, hasSchema),
		"temperature", orNull(temperature, hasTemp), "maxOutputTokens", orNull(maxTokens, hasMax),
	)))

	// Reuse: run state, then the file cache.
	cacheDir := e.Getenv("LOBSTER_CACHE_DIR")
	if cacheDir == "" {
		cacheDir = filepath.Join(e.BaseDir, ".lobster-cache")
	}
	cachePath := filepath.Join(cacheDir, name, cacheKey+".json")
	if !refresh {
		if stateKey != "" {
			if items, ok := llmRunState(ctx, e, stateKey, name, cacheKey); ok {
				return Output{Items: e.answer(cacheKey, replayed(items, "run_state"), true)}, nil
			}
		}
		if err := context.Cause(ctx); err != nil {
			return Output{}, err
		}
		if data, err := bounded.ReadFile(cachePath, maxDataFile); err == nil {
			if v, err := jsvalue.Parse(data); err == nil {
				if list, ok := property(v, "items", false).([]any); ok && property(v, "cacheKey", false) == cacheKey {
					return Output{Items: e.answer(cacheKey, replayed(list, "cache"), true)}, nil
				}
			}
		}
	}
	if err := context.Cause(ctx); err != nil {
		return Output{}, err
	}

	payload := jsvalue.Obj("prompt", prompt)
	if model != "" {
		payload.Set("model", model)
	}
	payload.Set("artifacts", artifacts)
	payload.Set("artifactHashes", hashes)
	if hasMeta {
		payload.Set("metadata", metadata)
	}
	if hasSchema {
		payload.Set("outputSchema", outSchema)
	}
	payload.Set("schemaVersion", schemaVersion)
	if hasMax {
		payload.Set("maxOutputTokens", maxTokens)
	}
	if hasTemp {
		payload.Set("temperature", temperature)
	}
	source := provider
	if task && provider == "openclaw" {
		source = "clawd"
	}

	var result *jsvalue.Object
	attempts := 0
	for {
		attempts++
		result, err = callLLM(ctx, c, provider, adapter, payload, limit)
		if err != nil {
			return Output{}, err
		}
		if usage, ok := property(result, "usage", false).(*jsvalue.Object); ok && e.LLM != nil {
			e.LLM.Charge(cacheKey, nullIfUndefined(property(result, "model", false)), usage)
		}
		if !hasSchema {
			break
		}
		data := property(property(result, "output", false), "data", false)
		verr := validate.Value(outSchema, data)
		if verr == nil {
			break
		}
		msg := llmValidationMessage(verr)
		if float64(attempts) > retries || context.Cause(ctx) != nil {
			return Output{}, fmt.Errorf("%s output failed schema validation: %s", name, msg)
		}
		payload.Set("retryContext", jsvalue.Obj("attempt", float64(attempts+1), "validationErrors", []any{msg}))
	}

	out := property(result, "output", false)
	data, text := nullIfUndefined(property(out, "data", false)), nullIfUndefined(property(out, "text", false))
	format := property(out, "format", false)
	if s, ok := format.(string); !ok || s == "" {
		format = "text"
		if data != nil {
			format = "json"
		}
	}
	status := property(result, "status", false)
	if s, ok := status.(string); !ok || s == "" {
		status = "completed"
	}
	get := func(k string) any { return nullIfUndefined(property(result, k, false)) }
	item := jsvalue.Obj(
		"kind", name, "runId", get("runId"), "prompt", get("prompt"), "model", get("model"),
		"schemaVersion", schemaVersion, "status", status, "cacheKey", cacheKey, "artifactHashes", hashes,
		"output", jsvalue.Obj("format", format, "text", text, "data", data),
		"usage", get("usage"), "metadata", get("metadata"), "warnings", get("warnings"), "diagnostics", get("diagnostics"),
		"createdAt", state.ISOTime(time.Now()), "source", source, "cached", false, "attemptCount", float64(attempts),
	)
	itemsOut := []any{item}

	// Persist: run state and cache, written together or not at all.
	now := state.ISOTime(time.Now())
	if stateKey != "" {
		s, err := e.store()
		if err == nil {
			_, err = s.Path(stateKey)
		}
		if err == nil {
			err = writeLocked(ctx, s, stateKey, func([]byte) []byte {
				return stateText(jsvalue.Obj("type", name, "version", 1.0, "cacheKey", cacheKey, "items", itemsOut, "storedAt", now))
			})
		}
		if err != nil {
			return Output{}, err
		}
	}
	if !disableCache {
		if err := os.MkdirAll(filepath.Dir(cachePath), 0o700); err == nil {
			state.WriteFileAtomic(cachePath, stateText(jsvalue.Obj("items", itemsOut, "cacheKey", cacheKey, "storedAt", now)))
		}
	}
	return Output{Items: e.answer(cacheKey, itemsOut, false)}, nil
}

// answer tells the environment's LLM accounting of the items an LLM
// command emits, and returns them.
func (e *Env) answer(cacheKey string, items []any, replayed bool) []any {
	if e.LLM != nil {
		e.LLM.Answer(cacheKey, items, replayed)
	}
	return items
}

// llmProvider resolves the adapter to call.
func llmProvider(c *Call, task bool) (string, error) {
	if p := js.ToLower(js.Trim(flagOrEnv(c, "provider", "LOBSTER_LLM_PROVIDER"))); p != "" {
		switch p {
		case "openclaw", "pi", "http":
			return p, nil
		}
		return "", fmt.Errorf("Unsupported llm provider: %s", p)
	}
	set := func(names ...string) bool { return js.Trim(definedEnv(c.Env, names...)) != "" }
	switch {
	case task:
		return "openclaw", nil
	case set("LOBSTER_PI_LLM_ADAPTER_URL"):
		return "pi", nil
	case set("OPENCLAW_URL", "CLAWD_URL"):
		return "openclaw", nil
	case set("LOBSTER_LLM_ADAPTER_URL"):
		return "http", nil
	}
	return "", fmt.Errorf("%s could not resolve a provider. Set --provider or LOBSTER_LLM_PROVIDER", c.Name)
}

// llmAdapter is where a provider's calls go: the endpoint (or why its URL
// is not one, said when a call is made) and the bearer token.
type llmAdapter struct {
	endpoint string
	badURL   bool
	token    string
}

// llmAdapterOf reads a provider's URL and token from the environment (the
// token from --token when it is given). An OpenClaw URL that is not one
// fails at once, as in the reference; an adapter's fails its first call.
func llmAdapterOf(c *Call, provider string) (llmAdapter, error) {
	vars := llmURLVar(provider)
	raw := js.Trim(definedEnv(c.Env, vars...))
	if raw == "" {
		if provider == "openclaw" {
			return llmAdapter{}, fmt.Errorf("%s requires OPENCLAW_URL (or CLAWD_URL) for provider=openclaw", c.Name)
		}
		return llmAdapter{}, fmt.Errorf("%s requires %s for provider=%s", c.Name, vars[0], provider)
	}
	var ad llmAdapter
	u, err := url.Parse(raw)
	valid := err == nil && u.IsAbs() && u.Host != ""
	switch provider {
	case "openclaw":
		if !valid {
			return llmAdapter{}, errors.New("Invalid URL")
		}
		ad.endpoint = u.ResolveReference(&url.URL{Path: "/tools/invoke"}).String()
		ad.token = js.Trim(flagOrEnv(c, "token", "OPENCLAW_TOKEN", "CLAWD_TOKEN"))
	default:
		if valid {
			if u.Path == "" || u.Path == "/" {
				u.Path = "/invoke"
			}
			ad.endpoint = u.String()
		}
		ad.badURL = !valid
		tokenVar := "LOBSTER_LLM_ADAPTER_TOKEN"
		if provider == "pi" {
			tokenVar = "LOBSTER_PI_LLM_ADAPTER_TOKEN"
		}
		ad.token = js.Trim(flagOrEnv(c, "token", tokenVar))
	}
	return ad, nil
}

// llmURLVar names the variables that configure a provider's adapter URL.
func llmURLVar(provider string) []string {
	switch provider {
	case "openclaw":
		return []string{"OPENCLAW_URL", "CLAWD_URL"}
	case "pi":
		return []string{"LOBSTER_PI_LLM_ADAPTER_URL"}
	}
	return []string{"LOBSTER_LLM_ADAPTER_URL"}
}

// parsedBool reads a flag as llm.invoke's flag parser does: false, 0 and
// no (trimmed, any case) are off; a bare flag and any other text but ""
// (blanks included) are on.
func parsedBool(a *Args, name string) bool {
	v, ok := a.Get(name)
	if !ok {
		return false
	}
	return v.Bare || parsedText(v.Text)
}

func parsedText(s string) bool {
	switch js.ToLower(js.Trim(s)) {
	case "false", "0", "no":
		return false
	}
	return s != ""
}

// artifactOf normalises an artifact: objects as they are, strings,
// numbers and booleans as {kind: "text", text}, anything else as
// {kind: "json", data}.
func artifactOf(v any) any {
	switch v.(type) {
	case *jsvalue.Object:
		return v
	case string, float64, bool:
		return jsvalue.Obj("kind", "text", "text", jsString(v))
	}
	return jsvalue.Obj("kind", "json", "data", nullIfUndefined(v))
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func nullIfUndefined(v any) any {
	if v == jsvalue.Undefined {
		return nil
	}
	return v
}

// replayed marks reused items: their source, cached and replayed.
func replayed(items []any, source string) []any {
	out := make([]any, len(items))
	for i, it := range items {
		o, ok := it.(*jsvalue.Object)
		if !ok {
			out[i] = it
			continue
		}
		c := jsvalue.NewObject()
		for _, k := range o.Keys() {
			v, _ := o.Get(k)
			c.Set(k, v)
		}
		c.Set("source", source)
		c.Set("cached", true)
		c.Set("replayed", true)
		out[i] = c
	}
	return out
}

// llmRunState is the items stored under the run-state key for this
// request, if any.
func llmRunState(ctx context.Context, e *Env, key, kind, cacheKey string) ([]any, bool) {
	s, err := e.store()
	if err != nil {
		return nil, false
	}
	path, err := s.Path(key)
	if err != nil {
		return nil, false
	}
	data, err := bounded.ReadFile(path, maxDataFile)
	if err != nil {
		return nil, false
	}
	v, err := jsvalue.Parse(data)
	if err != nil || property(v, "type", false) != kind || property(v, "cacheKey", false) != cacheKey {
		return nil, false
	}
	items, ok := property(v, "items", false).([]any)
	return items, ok
}

// llmValidationMessage words a failed output check.
func llmValidationMessage(err error) string {
	var f *validate.Failure
	if errors.As(err, &f) {
		return f.Path + " " + f.Message
	}
	return err.Error()
}

// callLLM sends the payload to the provider and returns the validated
// result object.
func callLLM(ctx context.Context, c *Call, provider string, ad llmAdapter, payload *jsvalue.Object, limit int64) (*jsvalue.Object, error) {
	name := c.Name
	if ad.badURL {
		return nil, fmt.Errorf("%s request failed: Invalid URL", name)
	}
	endpoint, token := ad.endpoint, ad.token
	var body any = payload
	if provider == "openclaw" {
		body = jsvalue.Obj("tool", "llm-task", "action", "invoke", "args", payload)
	}
	status, data, err := postJSON(ctx, endpoint, token, body, limit)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && err == cause {
			return nil, cause
		}
		return nil, fmt.Errorf("%s request failed: %v", name, err)
	}
	if !status.ok() {
		return nil, fmt.Errorf("%s request failed: %d %s: %s", name, status.code, status.reason, utf16Slice(string(data), 400))
	}
	var v any // an empty body is null
	if len(data) > 0 {
		if v, err = jsvalue.Parse(data); err != nil {
			return nil, fmt.Errorf("%s request failed: Response was not JSON", name)
		}
	}
	// An adapter answers with an envelope {ok, result | error}, or with
	// the result alone. The OpenClaw gateway wraps the tool's answer (an
	// envelope, or the result alone) in its own {ok, result}.
	hasOK := func(v any) bool {
		o, ok := v.(*jsvalue.Object)
		if ok {
			_, ok = o.Get("ok")
		}
		return ok
	}
	if provider == "openclaw" && hasOK(v) {
		o := v.(*jsvalue.Object)
		if okv, _ := o.Get("ok"); okv != true {
			msg := "Unknown error"
			if m := lookupPath(o, "error.message"); !isNullish(m) {
				msg = jsString(m)
			}
			return nil, fmt.Errorf("%s request failed: openclaw adapter error: %s", name, msg)
		}
		v = property(o, "result", false)
	}
	if !hasOK(v) {
		v = jsvalue.Obj("ok", true, "result", v)
	}
	return llmEnvelope(name, v)
}

// errorMessage is o.error.message, or the adapter's default.
func errorMessage(o *jsvalue.Object) string {
	if m := lookupPath(o, "error.message"); !isNullish(m) {
		return jsString(m)
	}
	return "llm adapter returned an error"
}

// llmEnvelope checks an adapter's response {ok, result: {output, …}} and
// returns the result.
func llmEnvelope(name string, v any) (*jsvalue.Object, error) {
	invalid := fmt.Errorf("%s received invalid response envelope", name)
	o, ok := v.(*jsvalue.Object)
	if !ok {
		return nil, invalid
	}
	okv, has := o.Get("ok")
	if _, isBool := okv.(bool); !has || !isBool {
		return nil, invalid
	}
	if okv != true {
		if e, has := o.Get("error"); has {
			if _, ok := e.(*jsvalue.Object); !ok {
				return nil, invalid
			}
		}
		return nil, fmt.Errorf("%s remote error: %s", name, errorMessage(o))
	}
	result, ok := property(o, "result", false).(*jsvalue.Object)
	if !ok {
		return nil, invalid
	}
	output, ok := property(result, "output", false).(*jsvalue.Object)
	if !ok {
		return nil, invalid
	}
	optional := func(obj *jsvalue.Object, key string, valid func(any) bool) bool {
		v, has := obj.Get(key)
		return !has || valid(v)
	}
	isString := func(v any) bool { _, ok := v.(string); return ok }
	isObject := func(v any) bool { _, ok := v.(*jsvalue.Object); return ok }
	stringList := func(v any) bool {
		list, ok := v.([]any)
		for _, e := range list {
			if !isString(e) {
				return false
			}
		}
		return ok
	}
	usage := func(v any) bool {
		u, ok := v.(*jsvalue.Object)
		if !ok {
			return false
		}
		for _, k := range u.Keys() {
			if x, _ := u.Get(k); !isNumberish(x) {
				return false
			}
		}
		return true
	}
	if !optional(output, "text", isString) || !optional(output, "format", isString) {
		return nil, invalid
	}
	for _, k := range []string{"runId", "model", "prompt", "status"} {
		if !optional(result, k, isString) {
			return nil, invalid
		}
	}
	if !optional(result, "usage", usage) || !optional(result, "warnings", stringList) ||
		!optional(result, "metadata", isObject) || !optional(result, "diagnostics", isObject) {
		return nil, invalid
	}
	return result, nil
}

// isNumberish accepts a number (usage counters).
func isNumberish(v any) bool {
	_, ok := v.(float64)
	return ok
}
