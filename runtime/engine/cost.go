package engine

import (
	"fmt"
	"io"
	"math"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/js"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/lang/source"
)

// price is USD per million tokens.
type price struct{ input, output float64 }

// builtinPrices is the reference's pricing table.
var builtinPrices = map[string]price{
	"gpt-4o":                     {2.5, 10},
	"gpt-4o-mini":                {0.15, 0.6},
	"gpt-4-turbo":                {10, 30},
	"gpt-3.5-turbo":              {0.5, 1.5},
	"claude-opus-4-20250514":     {15, 75},
	"claude-sonnet-4-5-20250514": {3, 15},
	"claude-haiku-3-5":           {0.8, 4},
	"gemini-1.5-pro":             {1.25, 5},
	"gemini-1.5-flash":           {0.075, 0.3},
}

// costEntry is the usage of one item of a step's output.
type costEntry struct {
	stepID  string
	model   any // a string, or nil
	in, out float64
	usd     float64
}

// costs tracks a run's LLM usage: the tracker of
// what each step cost. Which usage it is given is decided by the run's
// spend ledger (llmspend.go): each provider call once, however often its
// answer is passed on, and any usage a step prints each time.
type costs struct {
	prices  map[string]price
	entries []costEntry
	warned  map[string]bool
	stderr  io.Writer
}

func newCosts(getenv func(string) string, stderr io.Writer) *costs {
	c := &costs{prices: builtinPrices, warned: map[string]bool{}, stderr: stderr}
	if text := getenv("LOBSTER_LLM_PRICING_JSON"); text != "" {
		if custom, ok := parsePricing(text); ok {
			c.prices = make(map[string]price, len(builtinPrices)+len(custom))
			for k, v := range builtinPrices {
				c.prices[k] = v
			}
			for k, v := range custom {
				c.prices[k] = v
			}
		} else {
			fmt.Fprintln(stderr, "[WARN] Ignoring invalid LOBSTER_LLM_PRICING_JSON; custom LLM pricing must be a JSON object whose model entries have finite non-negative input and output rates.")
		}
	}
	return c
}

func parsePricing(text string) (map[string]price, bool) {
	v, err := jsvalue.Parse([]byte(text))
	o, _ := v.(*jsvalue.Object)
	if err != nil || o == nil {
		return nil, false
	}
	out := map[string]price{}
	for _, model := range o.Keys() {
		entry, _ := get(o, model).(*jsvalue.Object)
		in, okIn := get(entry, "input").(float64)
		outRate, okOut := get(entry, "output").(float64)
		if js.Trim(model) == "" || !okIn || !okOut || !finiteNonNegative(in) || !finiteNonNegative(outRate) {
			return nil, false
		}
		out[model] = price{in, outRate}
	}
	return out, true
}

func finiteNonNegative(f float64) bool { return f >= 0 && !math.IsInf(f, 0) && !math.IsNaN(f) }

// record bills one usage record of step stepID at the model's price:
// the reference's recordUsage. A model that is not a non-blank string, or
// has no price, costs nothing (warned once per model).
func (c *costs) record(stepID string, model any, usage *jsvalue.Object) {
	e := costEntry{stepID: stepID, in: tokens(usage, "inputTokens", "input_tokens", "prompt_tokens"),
		out: tokens(usage, "outputTokens", "output_tokens", "completion_tokens")}
	name, isString := model.(string)
	if isString {
		e.model = name
	}
	p, known := c.prices[name]
	if js.Trim(name) == "" {
		known, name = false, "<missing>"
	}
	if !known && !c.warned[name] {
		c.warned[name] = true
		fmt.Fprintf(c.stderr, "[WARN] No LLM pricing configured for model %s; recording zero cost. Set LOBSTER_LLM_PRICING_JSON to enable cost_limit enforcement for this model.\n", source.Printable(jsvalue.Stringify(name, "")))
	}
	if known {
		e.usd = (e.in*p.input + e.out*p.output) / 1e6
	}
	c.entries = append(c.entries, e)
}

// tokens is the first of keys set (not null) in usage as JavaScript's
// Number() reads it, floored; a count that is negative or not a finite
// number is 0.
func tokens(usage *jsvalue.Object, keys ...string) float64 {
	for _, k := range keys {
		var n float64
		switch v := get(usage, k).(type) {
		case nil:
			continue
		case float64:
			n = v
		case string:
			n, _ = js.Number(v)
		case bool:
			if v {
				n = 1
			}
		default:
			if v == jsvalue.Undefined {
				continue
			}
		}
		if n > 0 && !math.IsInf(n, 0) {
			return math.Floor(n)
		}
		return 0
	}
	return 0
}

func round6(f float64) float64 { return math.Round(f*1e6) / 1e6 }

func (c *costs) total() float64 {
	sum := 0.0
	for _, e := range c.entries {
		sum += e.usd
	}
	return sum
}

// summary is the cost as the resume state stores it; nil when nothing was
// billed.
func (c *costs) summary() *jsvalue.Object {
	if len(c.entries) == 0 {
		return nil
	}
	var in, out float64
	by := make([]any, len(c.entries))
	for i, e := range c.entries {
		in += e.in
		out += e.out
		by[i] = jsvalue.Obj("stepId", e.stepID, "model", e.model, "inputTokens", e.in, "outputTokens", e.out, "costUsd", e.usd)
	}
	return jsvalue.Obj("totalInputTokens", in, "totalOutputTokens", out, "estimatedCostUsd", round6(c.total()), "byStep", by)
}

// restore reloads the spend stored in a resume state, so that cost_limit
// covers the whole run across its pauses.
func (c *costs) restore(summary any) {
	o, _ := summary.(*jsvalue.Object)
	list, _ := get(o, "byStep").([]any)
	for _, it := range list {
		e, _ := it.(*jsvalue.Object)
		var ce costEntry
		if ce.stepID, _ = get(e, "stepId").(string); ce.stepID == "" {
			continue
		}
		if m, ok := get(e, "model").(string); ok {
			ce.model = m
		}
		ce.in, ce.out = tokens(e, "inputTokens"), tokens(e, "outputTokens")
		if usd, ok := get(e, "costUsd").(float64); ok && usd > 0 && !math.IsInf(usd, 0) {
			ce.usd = usd
		}
		c.entries = append(c.entries, ce)
	}
}

// costLimit is a workflow's cost_limit.
type costLimit struct {
	maxUSD float64
	stop   bool
}

func costLimitOf(w *ast.Workflow) *costLimit {
	if w == nil || w.CostLimit == nil {
		return nil
	}
	o, _ := Value(w.CostLimit.Value).(*jsvalue.Object)
	max, ok := get(o, "max_usd").(float64)
	if !ok {
		// The checker refuses a max_usd that is not a number
		// (deliberately: the reference coerces it, then crashes).
		return nil
	}
	action, _ := get(o, "action").(string)
	return &costLimit{maxUSD: max, stop: action == "stop"}
}

// check compares the spend with the limit: over it, "stop" fails the run
// and "warn" (the default) warns on stderr at every check.
func (c *costs) check(limit *costLimit) error {
	if limit == nil {
		return nil
	}
	total := round6(c.total())
	if total <= limit.maxUSD {
		return nil
	}
	if limit.stop {
		return &limitError{fmt.Sprintf("Cost limit exceeded: $%s > $%s limit", jsvalue.ToFixed(total, 4), jsvalue.ToFixed(limit.maxUSD, 2))}
	}
	fmt.Fprintf(c.stderr, "[WARN] Cost $%s exceeds limit $%s\n", jsvalue.ToFixed(total, 4), jsvalue.ToFixed(limit.maxUSD, 2))
	return nil
}

// limitError is a cost_limit stop: never handled by on_error or retried.
type limitError struct{ msg string }

func (e *limitError) Error() string { return e.msg }
