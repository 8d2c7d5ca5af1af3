package engine

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/source"
	"github.com/lobsterdev/lobster/runtime/proc"
)

// retryPolicy is a step's `retry`, defaults applied.
type retryPolicy struct {
	max         int // total attempts
	exponential bool
	delayMs     float64
	maxDelayMs  float64
	jitter      bool

	random func() float64 // for jitter; nil is math/rand
}

// once is the policy of a command that is not retried.
var once = retryPolicy{max: 1}

// retryOf reads a step's retry field; the checker has validated it.
func retryOf(f *ast.Field) retryPolicy {
	p := retryPolicy{max: 1, delayMs: 1000, maxDelayMs: 30000}
	if f == nil {
		return p
	}
	o, _ := Value(f.Value).(*jsvalue.Object)
	if v, ok := o.Get("max"); ok {
		if n, ok := v.(float64); ok && n >= 1 {
			p.max = int(n)
		}
	}
	if v, _ := o.Get("backoff"); v == "exponential" {
		p.exponential = true
	}
	if v, ok := o.Get("delay_ms"); ok {
		if n, ok := v.(float64); ok {
			p.delayMs = n
		}
	}
	if v, ok := o.Get("max_delay_ms"); ok {
		if n, ok := v.(float64); ok {
			p.maxDelayMs = n
		}
	}
	if v, _ := o.Get("jitter"); v == true {
		p.jitter = true
	}
	return p
}

// delay is the wait before retry n (1 for the first retry).
func (p retryPolicy) delay(n int) time.Duration {
	d := p.delayMs
	if p.exponential {
		d = math.Min(p.delayMs*math.Pow(2, float64(n-1)), p.maxDelayMs)
	}
	if p.jitter {
		random := p.random
		if random == nil {
			random = rand.Float64
		}
		d = math.Min(d*(0.9+0.2*random()), p.maxDelayMs)
	}
	// Whole milliseconds, rounded as the reference rounds them.
	return time.Duration(math.Max(0, math.Round(d))) * time.Millisecond
}

// timeoutOf is a step's timeout_ms, or 0 for none.
func timeoutOf(f *ast.Field) time.Duration {
	if f == nil {
		return 0
	}
	if n, ok := Value(f.Value).(float64); ok && n > 0 {
		return time.Duration(n) * time.Millisecond
	}
	return 0
}

// attempt runs one try of a step under its own timeout, when it has one: a
// timed-out attempt's processes are killed at once and the attempt fails
// with the reference's "Step '{id}' timed out after {ms}ms".
func attempt(x Executor, ctx Ctx, id string, timeout time.Duration, try func(Ctx) (*jsvalue.Object, error)) (*jsvalue.Object, error) {
	if timeout <= 0 {
		return try(ctx)
	}
	cause := proc.KillNow(fmt.Errorf("Step '%s' timed out after %dms", id, timeout.Milliseconds()))
	actx, stop := x.WithTimeout(ctx, timeout, cause)
	defer stop()
	return try(actx)
}

// withRetry runs the attempts of a step: up to the policy's max, waiting
// between them and logging each retry to stderr as the reference does.
// An external cancellation is never retried, nor an attempt that
// dispatched a request that must not be sent twice (pipeline.Env.Dispatch:
// an OpenClaw tool call, an agent turn, a mail), whatever it failed of
// afterwards, as in the reference: the request may have taken effect.
// try gets the function its commands call when they dispatch one; it also
// tells up, the enclosing attempt's (nil for none). beforeRetry, when
// set, is called before each retry; its error ends the attempts. onRetry,
// when set, hears each retry before the wait (see Call.OnRetry).
func withRetry(x Executor, ctx Ctx, id string, p retryPolicy, timeout time.Duration, stderr io.Writer,
	up func(), beforeRetry func() error, onRetry func(n, max int, err error, delay time.Duration),
	try func(actx Ctx, dispatched func()) (*jsvalue.Object, error)) (*jsvalue.Object, error) {
	p.random = func() float64 { return x.Random(ctx) }
	for n := 1; ; n++ {
		var sent atomic.Bool // parallel branches report from their own goroutines
		dispatched := func() {
			sent.Store(true)
			if up != nil {
				up()
			}
		}
		rec, err := attempt(x, ctx, id, timeout, func(actx Ctx) (*jsvalue.Object, error) { return try(actx, dispatched) })
		if err == nil || n >= p.max || ctx.Err() != nil || isFatal(err) || sent.Load() {
			return rec, err
		}
		if beforeRetry != nil {
			if err := beforeRetry(); err != nil {
				return nil, err
			}
		}
		d := p.delay(n)
		if onRetry != nil {
			onRetry(n, p.max, err, d)
		}
		io.WriteString(stderr, source.Printable(fmt.Sprintf("[RETRY] Step '%s' failed (attempt %d/%d): %s. Retrying in %dms...\n", id, n, p.max, err, d.Milliseconds())))
		if err := x.Sleep(ctx, d); err != nil {
			return nil, err
		}
	}
}
