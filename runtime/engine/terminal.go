package engine

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/lobsterdev/lobster/runtime/jsvalue"
)

// isYes says whether answer grants an interactive approval: the
// reference's /^y(es)?$/i, which folds ASCII letters only (no "ſ" for s).
func isYes(answer string) bool {
	lower := func(i int, c byte) bool { return answer[i]|0x20 == c }
	switch len(answer) {
	case 1:
		return lower(0, 'y')
	case 3:
		return lower(0, 'y') && lower(1, 'e') && lower(2, 's')
	}
	return false
}

// ask answers a gate on the terminal: an approval is y or yes (anything
// else is the reference's fatal "Not approved"); an input is one line of
// JSON that must match the step's schema.
func (x *local) ask(ctx context.Context, t *Terminal, g *Gate) (*Decision, error) {
	if g.Kind == ApprovalGate {
		fmt.Fprintf(t.Out, "%s [y/N] ", jsString(get(g.Request, "prompt")))
		answer, err := x.readLine(ctx, t)
		if err != nil {
			return nil, err
		}
		if !isYes(strings.TrimSpace(answer)) {
			return nil, errors.New("Not approved")
		}
		yes := true
		return &Decision{Approve: &yes, Approver: approverOf(x.getenv), Response: jsvalue.Undefined}, nil
	}
	fmt.Fprintf(t.Out, "%s\nEnter JSON response: ", jsString(get(g.Request, "prompt")))
	line, err := x.readLine(ctx, t)
	if err != nil {
		return nil, err
	}
	response, err := jsvalue.Parse([]byte(strings.TrimSpace(line)))
	if err != nil {
		return nil, errors.New("Input response must be valid JSON")
	}
	if err := checkResponse(g.StepID, g.Schema, response); err != nil {
		return nil, errors.New(err.Error())
	}
	return &Decision{Response: response}, nil
}

func (x *local) getenv(name string) string { return Getenv(x.opts.Env, name) }

// readLine reads one answer, within LOBSTER_APPROVAL_INPUT_TIMEOUT_MS when
// that is a positive number of milliseconds. The end of input is an empty
// answer.
func (x *local) readLine(ctx context.Context, t *Terminal) (string, error) {
	type answer struct {
		line string
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		line, err := t.In.ReadString('\n')
		if line != "" {
			err = nil
		}
		got <- answer{strings.TrimRight(line, "\r\n"), err}
	}()
	var timeout <-chan time.Time
	ms, err := strconv.Atoi(strings.TrimSpace(x.getenv("LOBSTER_APPROVAL_INPUT_TIMEOUT_MS")))
	if err == nil && ms > 0 {
		timer := time.NewTimer(time.Duration(ms) * time.Millisecond)
		defer timer.Stop()
		timeout = timer.C
	}
	select {
	case a := <-got:
		if a.err != nil && a.line == "" {
			return "", nil
		}
		return a.line, nil
	case <-timeout:
		return "", fmt.Errorf("Timed out waiting for input (%dms)", ms)
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
}

// jsString is String(v) for a prompt.
func jsString(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if v == jsvalue.Undefined {
		return "undefined"
	}
	return jsvalue.Stringify(v, "")
}
