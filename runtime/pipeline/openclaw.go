package pipeline

//lint:file-ignore ST1005 error messages are the reference's, word for word (capitals included)

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
)

// openclawInvokeCommand is openclaw.invoke and its alias clawd.invoke:
// POST {tool, action, args} to the gateway's /tools/invoke, once,
// or once per input item with --each.
func openclawInvokeCommand(ctx context.Context, c *Call) (Output, error) {
	a, name := c.Args, c.Name
	// Flags and variables are read as the reference reads them: a bare
	// flag is "true", a flag given as "" is given (it does not fall back
	// to the environment), and so is a variable set to "".
	each := a.Truthy("each")
	itemKey, ok := a.JSString("itemKey", "item-key")
	if !ok {
		itemKey = "item"
	}
	rawURL := js.Trim(flagOrEnv(c, "url", "OPENCLAW_URL", "CLAWD_URL"))
	if rawURL == "" {
		return Output{}, fmt.Errorf("%s requires --url or OPENCLAW_URL", name)
	}
	tool, _ := a.JSString("tool")
	action, _ := a.JSString("action")
	if tool == "" || action == "" {
		return Output{}, fmt.Errorf("%s requires --tool and --action", name)
	}
	_, explicit := a.JSString("token")
	token := js.Trim(flagOrEnv(c, "token", "OPENCLAW_TOKEN", "CLAWD_TOKEN"))
	var argsJSON any = jsvalue.NewObject()
	if text, _ := a.JSString("args-json"); text != "" {
		var err error
		if argsJSON, err = jsvalue.Parse([]byte(text)); err != nil {
			return Output{}, fmt.Errorf("%s --args-json must be valid JSON", name)
		}
	}
	argsObj, isObj := argsJSON.(*jsvalue.Object)
	if each && !isObj {
		return Output{}, fmt.Errorf("%s --each requires --args-json to be an object", name)
	}
	base, err := url.Parse(rawURL)
	if err != nil || !base.IsAbs() || base.Host == "" {
		return Output{}, errors.New("Invalid URL")
	}
	if base.Scheme != "http" && base.Scheme != "https" {
		return Output{}, fmt.Errorf("%s requires an http(s) --url", name)
	}
	endpoint := base.ResolveReference(&url.URL{Path: "/tools/invoke"})
	if !explicit && token != "" && !localHost(endpoint.Hostname()) {
		return Output{}, fmt.Errorf("%s refuses to send OPENCLAW_TOKEN/CLAWD_TOKEN to non-local --url; pass --token explicitly for remote endpoints", name)
	}
	sessionKey, _ := a.JSString("sessionKey", "session-key")
	_, hasDryRun := a.Get("dryRun", "dry-run")
	dryRun := a.Truthy("dryRun", "dry-run")
	limit, err := HTTPResponseLimit(c.Env.Getenv)
	if err != nil {
		return Output{}, err
	}

	call := func(args any) ([]any, error) {
		body := jsvalue.Obj("tool", tool, "action", action, "args", args)
		if sessionKey != "" {
			body.Set("sessionKey", sessionKey)
		}
		if hasDryRun {
			body.Set("dryRun", dryRun)
		}
		c.Env.dispatch()
		return postTool(ctx, name, endpoint.String(), token, body, limit)
	}
	if !each {
		if _, err := c.Input.Drain(ctx); err != nil {
			return Output{}, err
		}
		items, err := call(argsJSON)
		return Output{Items: items}, err
	}
	var out []any
	for {
		item, ok, err := c.Input.Next(ctx)
		if err != nil {
			return Output{}, err
		}
		if !ok {
			return Output{Items: nonNil(out)}, nil
		}
		args := jsvalue.NewObject()
		for _, k := range argsObj.Keys() {
			v, _ := argsObj.Get(k)
			args.Set(k, v)
		}
		args.Set(itemKey, item)
		items, err := call(args)
		if err != nil {
			return Output{}, err
		}
		out = append(out, items...)
	}
}

// firstEnv is the reference's getFirstEnv: the first of the variables
// that is not blank, as it is (not trimmed).
func firstEnv(e *Env, names ...string) string {
	for _, n := range names {
		if v := e.Getenv(n); js.Trim(v) != "" {
			return v
		}
	}
	return ""
}

// definedEnv is the reference's env.A ?? env.B ?? "": the first of the
// variables that is defined, even as "".
func definedEnv(e *Env, names ...string) string {
	for _, n := range names {
		if v, ok := e.LookupEnv(n); ok {
			return v
		}
	}
	return ""
}

// flagOrEnv is the reference's String(args.flag ?? env.A ?? env.B ?? ""):
// the flag when it is given (a bare flag is "true"), else definedEnv.
func flagOrEnv(c *Call, flag string, vars ...string) string {
	if v, ok := c.Args.JSString(flag); ok {
		return v
	}
	return definedEnv(c.Env, vars...)
}

// localHost reports the hosts an environment token may go to.
func localHost(host string) bool {
	switch host {
	case "localhost", "127.0.0.1", "::1":
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.Equal(net.IPv6loopback)
}

// postJSON POSTs body as JSON to endpoint, with a bearer token when there
// is one, and reads the answer: a body over limit bytes fails with the
// reference's "HTTP response body exceeded {limit} bytes", never cut. A
// connection that fails is "fetch failed" (node's words), or the
// context's cause when the run was cancelled.
func postJSON(ctx context.Context, endpoint, token string, body any, limit int64) (status httpStatus, data []byte, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(compact(body)))
	if err != nil {
		return status, nil, err
	}
	req.Header.Set("content-type", "application/json")
	if token != "" {
		req.Header.Set("authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil {
			return status, nil, cause
		}
		return status, nil, errors.New("fetch failed")
	}
	defer resp.Body.Close()
	status = httpStatus{resp.StatusCode, strings.TrimPrefix(strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)), " ")}
	over := fmt.Errorf("HTTP response body exceeded %d bytes", limit)
	if resp.ContentLength > limit {
		return status, nil, over
	}
	data, err = io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		if cause := context.Cause(ctx); cause != nil {
			return status, nil, cause
		}
		return status, nil, err
	}
	if int64(len(data)) > limit {
		return status, nil, over
	}
	// The body as text, as fetch decodes it: without a byte order mark.
	return status, bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), nil
}

// httpStatus is a response's status code and reason phrase (fetch's
// status and statusText).
type httpStatus struct {
	code   int
	reason string
}

// ok is fetch's Response.ok: a 2xx status.
func (s httpStatus) ok() bool { return s.code >= 200 && s.code <= 299 }

// postTool POSTs body to endpoint and reads the gateway's answer as items.
func postTool(ctx context.Context, name, endpoint, token string, body *jsvalue.Object, limit int64) ([]any, error) {
	status, data, err := postJSON(ctx, endpoint, token, body, limit)
	if err != nil {
		return nil, err
	}
	if !status.ok() {
		return nil, fmt.Errorf("%s failed (%d): %s", name, status.code, utf16Slice(string(data), 400))
	}
	if len(data) == 0 {
		return []any{nil}, nil // only an empty body is null: white space is not JSON
	}
	v, err := jsvalue.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s expected JSON response", name)
	}
	if o, ok := v.(*jsvalue.Object); ok {
		if okv, has := o.Get("ok"); has {
			if okv != true {
				msg := "Unknown error"
				if e, ok := o.Get("error"); ok {
					if m := lookupPath(e, "message"); !isNullish(m) {
						msg = jsString(m)
					}
				}
				return nil, fmt.Errorf("%s tool error: %s", name, msg)
			}
			var has bool
			if v, has = o.Get("result"); !has {
				v = undefined
			}
		}
	}
	if arr, ok := v.([]any); ok {
		return arr, nil
	}
	return []any{v}, nil
}
