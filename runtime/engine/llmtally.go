package engine

import (
	"strconv"
	"sync"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/pipeline"
)

// The LLM accounting of a run (llmspend.go) knows an answer by the
// identity of the objects an LLM command emitted. A command that runs in
// another process (a Temporal activity on a worker) sends its result back
// as JSON, where identities are lost: a Tally records, in that process,
// what the command's LLM commands said and where their answers' objects
// ended up in the result; ReplayTally says the same, in the run's process,
// to the command's own accounting, about the objects decoded there.

// A Tally is the LLM accounting of a command run for another process.
type Tally struct {
	mu       sync.Mutex
	charges  []TallyCharge
	answers  []tallyAnswer
	rendered []any // the items a renderer took
}

type tallyAnswer struct {
	key      string
	replayed bool
	objects  map[*jsvalue.Object]bool // the items and their usage objects
}

var _ pipeline.LLMAccounting = (*Tally)(nil)

func (t *Tally) Charge(key string, model any, usage *jsvalue.Object) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.charges = append(t.charges, TallyCharge{Key: key, Model: model, Usage: usage})
}

func (t *Tally) Answer(key string, items []any, replayed bool) {
	a := tallyAnswer{key: key, replayed: replayed, objects: map[*jsvalue.Object]bool{}}
	for _, it := range items {
		if o, ok := it.(*jsvalue.Object); ok {
			a.objects[o] = true
			if u, ok := get(o, "usage").(*jsvalue.Object); ok {
				a.objects[u] = true
			}
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.answers = append(t.answers, a)
}

// Carry says target is source read back from its JSON text (state.get of
// what state.set wrote): the objects of target whose places in source hold
// an answer's objects stand for that answer, replayed (llmMarks.carry).
// Only answers this tally knows count: a value written by an earlier
// command is not known here.
func (t *Tally) Carry(source, target any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.carry(source, target)
}

func (t *Tally) carry(source, target any) {
	so, sok := source.(*jsvalue.Object)
	to, tok := target.(*jsvalue.Object)
	if sok && tok {
		for _, a := range t.answers {
			if a.objects[so] {
				t.answers = append(t.answers, tallyAnswer{key: a.key, replayed: true, objects: map[*jsvalue.Object]bool{to: true}})
				break
			}
		}
		for _, k := range so.Keys() {
			v, _ := so.Get(k)
			w, _ := to.Get(k)
			t.carry(v, w)
		}
		return
	}
	sa, sok := source.([]any)
	ta, tok := target.([]any)
	if sok && tok {
		for i := range min(len(sa), len(ta)) {
			t.carry(sa[i], ta[i])
		}
	}
}

func (t *Tally) renderedItems(_ *jsvalue.Object, items []any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.rendered = items
}

// A TallyReport is a Tally as it travels: the charges in order, each
// answer with the places of its objects in the command's result (paths
// from the record, "rendered" first for the items a renderer took), and
// those items.
type TallyReport struct {
	Charges  []TallyCharge
	Answers  []TallyAnswer
	Rendered []any // nil when no renderer took the items
}

// A TallyCharge is a provider call that answered.
type TallyCharge struct {
	Key   string
	Model any
	Usage *jsvalue.Object
}

// A TallyAnswer is what an LLM command emitted, found at Paths.
type TallyAnswer struct {
	Key      string
	Replayed bool
	Paths    [][]string
}

// Report is what the tally knows about the command whose result is
// record; nil when its commands said nothing.
func (t *Tally) Report(record *jsvalue.Object) *TallyReport {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.charges) == 0 && len(t.answers) == 0 && t.rendered == nil {
		return nil
	}
	r := &TallyReport{Charges: t.charges, Rendered: t.rendered}
	for _, a := range t.answers {
		ta := TallyAnswer{Key: a.key, Replayed: a.replayed}
		visit := func(root any, prefix []string) {
			walkObjects(root, prefix, func(o *jsvalue.Object, path []string) {
				if a.objects[o] {
					ta.Paths = append(ta.Paths, path)
				}
			})
		}
		if t.rendered != nil {
			visit(t.rendered, []string{"rendered"})
		}
		visit(record, nil)
		r.Answers = append(r.Answers, ta)
	}
	return r
}

// ReplayTally tells acc, a command's LLM accounting, what r says of the
// command whose result, decoded in this process, is record.
func ReplayTally(acc pipeline.LLMAccounting, record *jsvalue.Object, r *TallyReport) {
	if acc == nil || r == nil {
		return
	}
	for _, c := range r.Charges {
		acc.Charge(c.Key, c.Model, c.Usage)
	}
	for _, a := range r.Answers {
		var objects []any
		for _, path := range a.Paths {
			var root any = record
			if len(path) > 0 && path[0] == "rendered" {
				root, path = r.Rendered, path[1:]
			}
			if o, ok := walkPath(root, path).(*jsvalue.Object); ok {
				objects = append(objects, o)
			}
		}
		acc.Answer(a.Key, objects, a.Replayed)
	}
	if r.Rendered != nil {
		if s, ok := acc.(renderedAccounting); ok {
			s.renderedItems(record, r.Rendered)
		}
	}
}

// renderedAccounting hears of a pipeline step whose json renderer took its
// items (see llmScope.rendered).
type renderedAccounting interface {
	renderedItems(record *jsvalue.Object, items []any)
}

func (s *llmScope) renderedItems(record *jsvalue.Object, items []any) { s.rendered(record, items) }

// walkObjects calls fn for every object in v, with its path.
func walkObjects(v any, path []string, fn func(*jsvalue.Object, []string)) {
	switch v := v.(type) {
	case *jsvalue.Object:
		fn(v, path)
		for _, k := range v.Keys() {
			e, _ := v.Get(k)
			walkObjects(e, append(path[:len(path):len(path)], k), fn)
		}
	case []any:
		for i, e := range v {
			walkObjects(e, append(path[:len(path):len(path)], strconv.Itoa(i)), fn)
		}
	}
}

// walkPath is the value at path in v, nil when there is none.
func walkPath(v any, path []string) any {
	for _, k := range path {
		switch x := v.(type) {
		case *jsvalue.Object:
			v, _ = x.Get(k)
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// MarksIn are the LLM answers acc (a command's accounting) knows among the
// objects of v (a command's stdin), with their places in v: what a Tally
// in another process must know of them (Seed) to say where they went.
func MarksIn(acc pipeline.LLMAccounting, v any) []TallyAnswer {
	s, ok := acc.(*llmScope)
	if !ok || s.marks == nil {
		return nil
	}
	var out []TallyAnswer
	index := map[*provenance]int{}
	walkObjects(v, nil, func(o *jsvalue.Object, path []string) {
		p := s.marks.get(o)
		if p == nil {
			return
		}
		i, seen := index[p]
		if !seen {
			i = len(out)
			index[p] = i
			out = append(out, TallyAnswer{Key: p.cacheKey, Replayed: p.replayed.Load()})
		}
		out[i].Paths = append(out[i].Paths, path)
	})
	return out
}

// Seed tells the tally of the answers among the objects of v, as MarksIn
// found them in the run's process: they are reported where they end up,
// as if the command's own LLM commands had emitted them.
func (t *Tally) Seed(v any, answers []TallyAnswer) {
	for _, a := range answers {
		ta := tallyAnswer{key: a.Key, replayed: a.Replayed, objects: map[*jsvalue.Object]bool{}}
		for _, path := range a.Paths {
			if o, ok := walkPath(v, path).(*jsvalue.Object); ok {
				ta.objects[o] = true
			}
		}
		t.mu.Lock()
		t.answers = append(t.answers, ta)
		t.mu.Unlock()
	}
}
