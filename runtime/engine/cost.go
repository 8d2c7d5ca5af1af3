package engine

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/runtime/jsvalue"
)

// price is USD per million tokens.
type price struct{ input, output float64 }

// builtinPrices is the reference's pricing table (spec pipelines §6.2).
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
	stepID, model string
	in, out       float64
	usd           float64
}

// costs tracks a run's LLM usage (workflow spec §4.7): any step whose json
// is an object, or an array of objects, with an object-valued usage is
// billed at the model's price.
type costs struct {
	prices  map[string]price
	entries []costEntry
	warned  map[string]bool
	stderr  io.Writer
	// billed holds the LLM answers already billed in this run (kind and
	// cache key): the same answer seen again — re-emitted by a later
	// step, replayed from the cache or the run state, carried across a
	// pause — is billed once.
	billed map[string]bool
}

func newCosts(getenv func(string) string, stderr io.Writer) *costs {
	c := &costs{prices: builtinPrices, warned: map[string]bool{}, stderr: stderr, billed: map[string]bool{}}
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
		if strings.TrimSpace(model) == "" || !okIn || !okOut || !finiteNonNegative(in) || !finiteNonNegative(outRate) {
			return nil, false
		}
		out[model] = price{in, outRate}
	}
	return out, true
}

func finiteNonNegative(f float64) bool { return f >= 0 && !math.IsInf(f, 0) && !math.IsNaN(f) }

// bill records the usage in a step's result.
func (c *costs) bill(stepID string, record *jsvalue.Object) {
	var items []any
	switch v := get(record, "json").(type) {
	case *jsvalue.Object:
		items = []any{v}
	case []any:
		items = v
	}
	for _, it := range items {
		o, _ := it.(*jsvalue.Object)
		usage, _ := get(o, "usage").(*jsvalue.Object)
		if usage == nil {
			continue
		}
		if key := llmAnswerKey(o); key != "" {
			if c.billed[key] {
				continue
			}
			c.billed[key] = true
		}
		e := costEntry{stepID: stepID, in: tokens(usage, "inputTokens", "input_tokens", "prompt_tokens"),
			out: tokens(usage, "outputTokens", "output_tokens", "completion_tokens")}
		model, _ := get(o, "model").(string)
		e.model = model
		p, known := c.prices[model]
		if !known {
			shown := "<missing>"
			if model != "" {
				shown = model
			}
			if !c.warned[shown] {
				c.warned[shown] = true
				fmt.Fprintf(c.stderr, "[WARN] No LLM pricing configured for model %s; recording zero cost. Set LOBSTER_LLM_PRICING_JSON to enable cost_limit enforcement for this model.\n", jsvalue.Stringify(shown, ""))
			}
		}
		e.usd = round6((e.in*p.input + e.out*p.output) / 1e6)
		c.entries = append(c.entries, e)
	}
}

// llmAnswerKey identifies an answer of llm.invoke or llm_task.invoke by its
// kind and cache key; "" for any other item, which is billed each time.
func llmAnswerKey(o *jsvalue.Object) string {
	kind, _ := get(o, "kind").(string)
	key, _ := get(o, "cacheKey").(string)
	if (kind != "llm.invoke" && kind != "llm_task.invoke") || key == "" {
		return ""
	}
	return kind + ":" + key
}

// tokens is the first of keys set in usage, floored; negative or
// non-numeric counts are 0.
func tokens(usage *jsvalue.Object, keys ...string) float64 {
	for _, k := range keys {
		v := get(usage, k)
		if v == jsvalue.Undefined || v == nil {
			continue
		}
		if n, ok := v.(float64); ok && n > 0 && !math.IsInf(n, 0) {
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

// billedKeys are the LLM answers billed so far, for the resume state.
func (c *costs) billedKeys() []string { return slices.Sorted(maps.Keys(c.billed)) }

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
func (c *costs) restore(summary any, billed []string) {
	for _, k := range billed {
		c.billed[k] = true
	}
	o, _ := summary.(*jsvalue.Object)
	list, _ := get(o, "byStep").([]any)
	for _, it := range list {
		e, _ := it.(*jsvalue.Object)
		var ce costEntry
		ce.stepID, _ = get(e, "stepId").(string)
		ce.model, _ = get(e, "model").(string)
		ce.in, _ = get(e, "inputTokens").(float64)
		ce.out, _ = get(e, "outputTokens").(float64)
		ce.usd, _ = get(e, "costUsd").(float64)
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
	total := c.total()
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
