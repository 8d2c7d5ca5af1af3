package pipeline

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/proc"
)

// agentOutputLimit bounds each output stream of openclaw agent.
const agentOutputLimit = 10 << 20

// openclawAgentCommand is openclaw.agent: one agent turn through
// `openclaw agent --json`, with the input items appended to the message.
func openclawAgentCommand(ctx context.Context, c *Call) (Output, error) {
	a := c.Args
	text := func(names ...string) string {
		v, _ := a.JSString(names...)
		return js.Trim(v)
	}
	prompt := text("prompt")
	if prompt == "" {
		prompt = text("message")
	}
	if prompt == "" {
		prompt = js.Trim(strings.Join(a.Positional, " "))
	}
	if prompt == "" {
		return Output{}, errors.New("openclaw.agent requires --prompt, --message, or positional text")
	}
	agent, sessionKey, sessionID := text("agent"), text("session-key", "sessionKey"), text("session-id", "sessionId")
	if agent == "" && sessionKey == "" && sessionID == "" {
		return Output{}, errors.New("openclaw.agent requires --agent, --session-key, or --session-id")
	}
	timeout := ""
	if f, given := a.Number("timeout"); given {
		if math.IsNaN(f) || f < 0 || f != math.Trunc(f) || math.IsInf(f, 0) {
			return Output{}, errors.New("openclaw.agent --timeout must be a non-negative integer in seconds")
		}
		timeout = jsString(f)
	}
	local := false
	if v, ok := a.Get("local"); ok && v.Bare {
		local = true
	}

	items, err := c.Input.Drain(ctx)
	if err != nil {
		return Output{}, err
	}
	message := prompt
	if len(items) > 0 {
		lines := make([]string, len(items))
		for i, it := range items {
			lines[i] = stringifyOrUndefined(it)
		}
		message += "\n\nPipeline input (JSONL):\n" + strings.Join(lines, "\n")
	}
	args := append([]string{"agent", "--json"}, optionArgs("--message", message)...)
	for _, opt := range []struct{ flag, value string }{
		{"--agent", agent}, {"--model", text("model")}, {"--session-key", sessionKey},
		{"--session-id", sessionID}, {"--thinking", text("thinking")}, {"--timeout", timeout},
	} {
		if opt.value != "" {
			args = append(args, optionArgs(opt.flag, opt.value)...)
		}
	}
	if local {
		args = append(args, "--local")
	}
	bin := js.Trim(c.Env.Getenv("LOBSTER_OPENCLAW_BIN"))
	if bin == "" {
		bin = "openclaw"
	}
	c.Env.dispatch()
	// The agent's own limit, or LOBSTER_MAX_OUTPUT_BYTES when lower (then
	// the message is the generic one, as in the reference).
	limit, err := OutputLimit(c.Env.Getenv)
	if err != nil {
		return Output{}, err
	}
	limit = min(limit, agentOutputLimit)
	res, err := proc.Run(ctx, proc.Command{
		Name: bin, Args: args, Env: c.Env.Environ, Dir: c.Env.Dir, Stdin: []byte{},
		MaxOutput: limit, NotFound: "openclaw.agent could not find the OpenClaw CLI", Force: c.Env.Force,
	})
	var over *proc.OutputLimitError
	if errors.As(err, &over) && limit == agentOutputLimit {
		return Output{}, fmt.Errorf("openclaw.agent output exceeded %d bytes", agentOutputLimit)
	}
	if err != nil {
		return Output{}, err
	}
	if res.Code != 0 {
		detail := js.Trim(string(res.Stderr))
		if detail == "" {
			detail = js.Trim(string(res.Stdout))
		}
		if detail == "" {
			detail = fmt.Sprintf("exited with code %s", codeText(res.Code))
		}
		return Output{}, fmt.Errorf("openclaw.agent failed: %s", detail)
	}
	v, err := jsvalue.Parse(res.Stdout)
	if _, isObj := v.(*jsvalue.Object); err != nil || !isObj {
		return Output{}, errors.New("openclaw.agent expected JSON output from `openclaw agent --json`")
	}
	return Output{Items: []any{v}}, nil
}

// codeText is an exit code as JavaScript prints it: null after a signal.
func codeText(code int) string {
	if code < 0 {
		return "null"
	}
	return fmt.Sprint(code)
}
