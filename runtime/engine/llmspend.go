package engine

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/pipeline"
)

// LLM spend (as 2026.9.13 does it). cost_limit is a
// safety limit, so what is billed must never depend on what a step's
// output says about itself:
//
//   - A provider call is billed once. Its answer is recognised when it
//     comes back as the items of a later step (a pipeline given
//     $ask.json, a projection such as `pick model,usage` that keeps its
//     usage object), because the LLM commands name the objects they emit
//     (pipeline.LLMAccounting): a mark in this process, never a field.
//   - An answer reused from the cache or the run state stands for a call
//     an earlier run paid for, and is billed only when this run's own
//     call under that key is still unpaid (a retried step).
//   - Usage that arrives as text (a shell step's output, a copy that went
//     through JSON) is billed every time: a kind, a cache key or
//     "replayed": true in it prove nothing. It settles the matching
//     unpaid call, so that call is not billed again.
//   - A call nothing billed by the end of its step (its answer went to a
//     renderer, a filter dropped it, the step failed) is billed then.

// provenance is what an LLM command said of an answer it emitted.
type provenance struct {
	cacheKey string
	replayed atomic.Bool // a replay, or a live answer already billed
}

// llmMarks are the answers the LLM commands emitted, by object: the
// items and their usage objects. A run and its sub-workflows share them.
type llmMarks struct {
	mu      sync.Mutex
	of      map[*jsvalue.Object]*provenance
	sources map[*jsvalue.Object][]any // a step result whose json renderer took its items → those items
}

func newLLMMarks() *llmMarks {
	return &llmMarks{of: map[*jsvalue.Object]*provenance{}, sources: map[*jsvalue.Object][]any{}}
}

func (m *llmMarks) mark(o *jsvalue.Object, p *provenance) {
	m.mu.Lock()
	m.of[o] = p
	m.mu.Unlock()
}

func (m *llmMarks) get(o *jsvalue.Object) *provenance {
	if o == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.of[o]
}

// markItems marks each object item, and its usage object, with p.
func (m *llmMarks) markItems(items []any, p *provenance) {
	for _, it := range items {
		if o, ok := it.(*jsvalue.Object); ok {
			m.mark(o, p)
			if u, ok := get(o, "usage").(*jsvalue.Object); ok {
				m.mark(u, p)
			}
		}
	}
}

// carry marks target, the JSON text of source read back, as a replay of
// whatever source's objects are marked with.
func (m *llmMarks) carry(source, target any) {
	so, sok := source.(*jsvalue.Object)
	to, tok := target.(*jsvalue.Object)
	if sok && tok {
		if p := m.get(so); p != nil {
			q := &provenance{cacheKey: p.cacheKey}
			q.replayed.Store(true)
			m.mark(to, q)
		}
		for _, k := range so.Keys() {
			v, _ := so.Get(k)
			w, _ := to.Get(k)
			m.carry(v, w)
		}
		return
	}
	sa, sok := source.([]any)
	ta, tok := target.([]any)
	if sok && tok {
		for i := range min(len(sa), len(ta)) {
			m.carry(sa[i], ta[i])
		}
	}
}

// A charge is a provider call that answered, with what it cost.
type charge struct {
	stepID string          // the step that made it; "" unknown
	model  any             // a string, or nil
	usage  *jsvalue.Object // nil for a charge restored without its cost
}

// maxLedgerKeys bounds a ledger: the oldest cache keys are dropped.
const maxLedgerKeys = 256

// keyedCharges are charges by cache key, keys in the order first added.
type keyedCharges struct {
	keys []string
	m    map[string][]charge
}

func (k *keyedCharges) add(key string, c charge) {
	if k.m == nil {
		k.m = map[string][]charge{}
	}
	if _, ok := k.m[key]; !ok {
		k.keys = append(k.keys, key)
	}
	k.m[key] = append(k.m[key], c)
	for len(k.keys) > maxLedgerKeys {
		delete(k.m, k.keys[0])
		k.keys = k.keys[1:]
	}
}

// take removes the i-th charge under key.
func (k *keyedCharges) take(key string, i int) charge {
	list := k.m[key]
	c := list[i]
	list = slices.Delete(slices.Clone(list), i, i+1)
	if len(list) == 0 {
		delete(k.m, key)
		k.keys = slices.DeleteFunc(k.keys, func(s string) bool { return s == key })
	} else {
		k.m[key] = list
	}
	return c
}

// list is every charge as the resume state stores it.
func (k *keyedCharges) list() []any {
	var out []any
	for _, key := range k.keys {
		for _, c := range k.m[key] {
			o := jsvalue.Obj("cacheKey", key, "count", 1.0)
			if c.stepID != "" {
				o.Set("stepId", c.stepID)
			}
			if c.usage != nil {
				o.Set("model", c.model)
				o.Set("usage", c.usage)
			}
			out = append(out, o)
		}
	}
	return out
}

// ledger is one run's provider calls: those not billed yet (open) and
// those billed (settled). A sub-workflow's calls are recorded in its
// parent's ledger too, under the parent's step, so that each run counts
// each call once.
type ledger struct {
	mu         sync.Mutex
	parent     *ledger
	parentStep string
	onCharge   func(key string, model any, usage *jsvalue.Object) // Options.OnCharge
	open       keyedCharges
	settled    keyedCharges
}

// record opens a charge.
func (l *ledger) record(key string, c charge) {
	if key == "" {
		return
	}
	if l.onCharge != nil {
		l.onCharge(key, c.model, c.usage)
	}
	if l.parent != nil {
		pc := c
		pc.stepID = l.parentStep
		l.parent.record(key, pc)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.open.add(key, c)
}

// claim settles one open charge under key and returns it (nil when none
// is open): the one that cost what cost says, when given, else the first
// that records a cost.
func (l *ledger) claim(key string, cost *charge) *charge {
	l.mu.Lock()
	defer l.mu.Unlock()
	open := l.open.m[key]
	if len(open) == 0 {
		return nil
	}
	i := -1
	if cost != nil {
		i = slices.IndexFunc(open, func(c charge) bool { return sameCost(c, cost.model, cost.usage) })
	}
	if i < 0 {
		i = max(slices.IndexFunc(open, func(c charge) bool { return c.usage != nil }), 0)
	}
	c := l.open.take(key, i)
	l.settled.add(key, c)
	return &c
}

// settleCopy settles the open charge a copy of an answer stands for (the
// one under its cache key, or under any key when it has none, that cost
// the same), so that the call is not billed again at the end of the step.
// The copy itself is billed whatever this finds.
func (l *ledger) settleCopy(key string, model any, usage *jsvalue.Object) {
	l.mu.Lock()
	defer l.mu.Unlock()
	keys := []string{key}
	if key == "" {
		keys = slices.Clone(l.open.keys)
	}
	for _, k := range keys {
		if i := slices.IndexFunc(l.open.m[k], func(c charge) bool { return sameCost(c, model, usage) }); i >= 0 {
			l.settled.add(k, l.open.take(k, i))
			return
		}
	}
}

type keyedCharge struct {
	key string
	charge
}

// outstanding are the open charges.
func (l *ledger) outstanding() []keyedCharge {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []keyedCharge
	for _, k := range l.open.keys {
		for _, c := range l.open.m[k] {
			out = append(out, keyedCharge{k, c})
		}
	}
	return out
}

// state is the ledger as a pause stores it: llmSpend (open) and
// llmBilled (settled), nil when empty.
func (l *ledger) state() (spend, billed []any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open.list(), l.settled.list()
}

// restore reopens (or, settled, records as billed) the charges a
// paused run stored. Only a cache key, a step id, a model string and the
// numbers of a usage object are taken from the file.
func (l *ledger) restore(list []any, settled bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, it := range list {
		o, _ := it.(*jsvalue.Object)
		key, _ := get(o, "cacheKey").(string)
		count, _ := get(o, "count").(float64)
		if key == "" || count < 1 {
			continue
		}
		c := charge{}
		if u, ok := get(o, "usage").(*jsvalue.Object); ok {
			numbers := jsvalue.NewObject()
			for _, k := range u.Keys() {
				if n, ok := get(u, k).(float64); ok {
					numbers.Set(k, n)
				}
			}
			if len(numbers.Keys()) > 0 {
				c.usage = numbers
				if m, ok := get(o, "model").(string); ok {
					c.model = m
				}
				c.stepID, _ = get(o, "stepId").(string)
			}
		}
		for range int(min(count, maxLedgerKeys)) {
			if settled {
				l.settled.add(key, c)
			} else {
				l.open.add(key, c)
			}
		}
	}
}

// sameCost says a charge cost what model and usage say: the same model
// (or none) and the same billable token counts.
func sameCost(c charge, model any, usage *jsvalue.Object) bool {
	if c.usage == nil || usage == nil {
		return false
	}
	m1, _ := c.model.(string)
	m2, _ := model.(string)
	_, s1 := c.model.(string)
	_, s2 := model.(string)
	return m1 == m2 && s1 == s2 &&
		tokens(c.usage, "inputTokens", "input_tokens", "prompt_tokens") == tokens(usage, "inputTokens", "input_tokens", "prompt_tokens") &&
		tokens(c.usage, "outputTokens", "output_tokens", "completion_tokens") == tokens(usage, "outputTokens", "output_tokens", "completion_tokens")
}

// llmScope is the LLM accounting of one command: its charges open in the
// run's ledger under its step, or are held while it is a parallel branch
// racing the others (wait: any), since only the winner's spend counts.
type llmScope struct {
	ledger *ledger
	marks  *llmMarks
	stepID string
	hold   *llmHold
}

var _ pipeline.LLMAccounting = (*llmScope)(nil)

func (s *llmScope) Charge(key string, model any, usage *jsvalue.Object) {
	c := charge{stepID: s.stepID, model: model, usage: usage}
	if s.hold != nil && s.hold.keep(key, c) {
		return
	}
	s.ledger.record(key, c)
}

func (s *llmScope) Answer(key string, items []any, replayed bool) {
	p := &provenance{cacheKey: key}
	p.replayed.Store(replayed)
	s.marks.markItems(items, p)
}

func (s *llmScope) Carry(source, target any) { s.marks.carry(source, target) }

// rendered notes a pipeline step whose json renderer took its items: the
// step is billed for those items, and its json (their text read back)
// carries their marks when it is the same value.
func (s *llmScope) rendered(record *jsvalue.Object, items []any) {
	json := get(record, "json")
	var source any
	switch {
	case isArray(json):
		source = items
	case len(items) == 1:
		source = items[0]
	}
	if source != nil && pipeline.Canonical(source) == pipeline.Canonical(json) {
		s.marks.carry(source, json)
	}
	s.marks.mu.Lock()
	s.marks.sources[record] = items
	s.marks.mu.Unlock()
}

func isArray(v any) bool { _, ok := v.([]any); return ok }

// llmHold holds a racing branch's charges until it wins.
type llmHold struct {
	mu       sync.Mutex
	ledger   *ledger
	held     []keyedCharge
	released bool
}

// keep holds a charge; false once released (the charge goes through).
func (h *llmHold) keep(key string, c charge) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.released {
		return false
	}
	h.held = append(h.held, keyedCharge{key, c})
	return true
}

// release opens the held charges in the ledger: the branch won.
func (h *llmHold) release() {
	h.mu.Lock()
	held := h.held
	h.held, h.released = nil, true
	h.mu.Unlock()
	for _, kc := range held {
		h.ledger.record(kc.key, kc.charge)
	}
}

// deferredCharge is usage a step's billing holds back until the live
// answers billed with it have settled their own charges: a replay, or a
// copy without marks.
type deferredCharge struct {
	replay   bool
	stepID   string
	cacheKey string
	model    any
	usage    *jsvalue.Object
}

// llmScope is the accounting of command id of this run.
func (r *runner) llmScope(id string) *llmScope {
	return &llmScope{ledger: r.ledger, marks: r.marks, stepID: id}
}

// billStep bills the usage in a step's result: the items its pipeline's
// renderer took, else its json. Replays and copies are held in group
// when it is given (the branches and result of one parallel step settle
// together), else settled at once.
func (r *runner) billStep(stepID string, record *jsvalue.Object, group *[]deferredCharge) {
	r.marks.mu.Lock()
	source, rendered := r.marks.sources[record]
	r.marks.mu.Unlock()
	var items []any
	if rendered {
		items = source
	} else {
		switch v := get(record, "json").(type) {
		case *jsvalue.Object:
			items = []any{v}
		case []any:
			items = v
		}
	}
	var deferred []deferredCharge
	for _, it := range items {
		o, _ := it.(*jsvalue.Object)
		usage, _ := get(o, "usage").(*jsvalue.Object)
		if usage == nil {
			continue
		}
		var model any
		if m, ok := get(o, "model").(string); ok {
			model = m
		}
		p := r.marks.get(o)
		if p == nil {
			p = r.marks.get(usage)
		}
		if p == nil {
			key, _ := get(o, "cacheKey").(string)
			deferred = append(deferred, deferredCharge{stepID: stepID, cacheKey: key, model: model, usage: usage})
			continue
		}
		if p.replayed.Load() {
			deferred = append(deferred, deferredCharge{replay: true, stepID: stepID, cacheKey: p.cacheKey, model: model, usage: usage})
			continue
		}
		// A live answer: bill what its call cost, which the item may no
		// longer say (a projection can drop or rewrite the model).
		if c := r.ledger.claim(p.cacheKey, &charge{model: model, usage: usage}); c != nil && c.usage != nil {
			r.costs.record(stepID, c.model, c.usage)
		} else {
			r.costs.record(stepID, model, usage)
		}
		p.replayed.Store(true)
		if q := r.marks.get(usage); q != nil {
			q.replayed.Store(true)
		}
	}
	if group != nil {
		*group = append(*group, deferred...)
		return
	}
	r.settleDeferred(deferred)
}

// settleDeferred bills held-back usage: a replay only when the call it
// stands for is still unpaid in this run (at what that call cost), a
// copy always.
func (r *runner) settleDeferred(deferred []deferredCharge) {
	for _, d := range deferred {
		if !d.replay {
			continue
		}
		c := r.ledger.claim(d.cacheKey, nil)
		if c == nil {
			continue
		}
		if c.usage != nil {
			r.costs.record(d.stepID, c.model, c.usage)
		} else {
			r.costs.record(d.stepID, d.model, d.usage)
		}
	}
	for _, d := range deferred {
		if d.replay {
			continue
		}
		r.ledger.settleCopy(d.cacheKey, d.model, d.usage)
		r.costs.record(d.stepID, d.model, d.usage)
	}
}

// settleUnbilled bills the calls still open: spend no step's items
// carried, which must count before the next step runs.
func (r *runner) settleUnbilled() {
	for _, kc := range r.ledger.outstanding() {
		if kc.usage == nil {
			continue
		}
		if r.ledger.claim(kc.key, nil) == nil {
			continue
		}
		step := kc.stepID
		if step == "" {
			step = "llm"
		}
		r.costs.record(step, kc.model, kc.usage)
	}
}

// restoreLLMMarks marks, in the results a resumed run reloads, the
// answers its paused part billed (the same cache key, model and billable
// usage as a settled charge): their marks did not survive the state file,
// and without them a later step passing one on would be billed again.
func (r *runner) restoreLLMMarks(results *jsvalue.Object, settled []any) {
	var charges []keyedCharge
	for _, it := range settled {
		o, _ := it.(*jsvalue.Object)
		key, _ := get(o, "cacheKey").(string)
		usage, _ := get(o, "usage").(*jsvalue.Object)
		if key == "" || usage == nil {
			continue
		}
		var model any
		if m, ok := get(o, "model").(string); ok {
			model = m
		}
		charges = append(charges, keyedCharge{key, charge{model: model, usage: usage}})
	}
	if len(charges) == 0 {
		return
	}
	var visit func(v any)
	visit = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, e := range v {
				visit(e)
			}
		case *jsvalue.Object:
			key, _ := get(v, "cacheKey").(string)
			usage, _ := get(v, "usage").(*jsvalue.Object)
			if key != "" && usage != nil {
				var model any
				if m, ok := get(v, "model").(string); ok {
					model = m
				}
				if slices.ContainsFunc(charges, func(c keyedCharge) bool { return c.key == key && sameCost(c.charge, model, usage) }) {
					p := &provenance{cacheKey: key}
					p.replayed.Store(true)
					r.marks.mark(v, p)
					r.marks.mark(usage, p)
				}
			}
			for _, k := range v.Keys() {
				e, _ := v.Get(k)
				visit(e)
			}
		}
	}
	visit(results)
}
