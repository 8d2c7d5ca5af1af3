package pipeline

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"sync"
	"syscall"

	"github.com/lobsterdev/lobster/lang/bounded"
	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/state"
)

// store opens the state directory of env.
func (e *Env) store() (*state.Store, error) {
	dir := e.StateDir
	if dir == "" {
		var err error
		if dir, err = state.DefaultDir(e.Getenv); err != nil {
			return nil, err
		}
	}
	return state.Open(dir)
}

// stateGetCommand is state.get: the stored value, or null. It
// does not read its input.
func stateGetCommand(ctx context.Context, c *Call) (Output, error) {
	if len(c.Args.Positional) == 0 {
		return Output{}, errors.New("state.get requires a key")
	}
	key := c.Args.Positional[0]
	c.Input.Close()
	if _, err := state.FileName(key); err != nil {
		return Output{}, err
	}
	s, err := c.Env.store()
	if err != nil {
		return Output{}, err
	}
	path, err := s.Path(key)
	if err != nil {
		return Output{}, err
	}
	lock, err := s.Lock(ctx, key)
	switch {
	case err == nil:
		defer lock.Unlock()
	case !errors.Is(err, syscall.EACCES) && !errors.Is(err, syscall.EPERM) && !errors.Is(err, syscall.EROFS):
		return Output{}, err
	} // else: the lock cannot be created at all; writes are atomic, so read without it
	data, err := bounded.ReadFile(path, maxDataFile)
	if errors.Is(err, fs.ErrNotExist) {
		return Output{Items: []any{nil}}, nil
	}
	if err != nil {
		return Output{}, err
	}
	v, err := jsvalue.Parse(data)
	if err != nil {
		// State is authoritative: a corrupt file is an error, worded as
		// JSON.parse words it.
		return Output{}, errors.New(jsonErrorMessage(string(data), err))
	}
	if w, ok := lastWritten.get(path); ok && w.text == string(data) && c.Env.LLM != nil {
		// The value this process wrote, byte for byte: what it stood for
		// (an LLM answer already paid for) it still stands for.
		c.Env.LLM.Carry(w.value, v)
	}
	return Output{Items: []any{v}}, nil
}

// written is what state.set last wrote to a state file.
type written struct {
	text  string
	value any
}

// writtenFiles remembers the last values this process wrote to state
// files (at most 64, oldest dropped).
type writtenFiles struct {
	mu    sync.Mutex
	m     map[string]written
	order []string
}

var lastWritten = &writtenFiles{m: map[string]written{}}

func (w *writtenFiles) put(path string, v written) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.m[path]; !ok {
		w.order = append(w.order, path)
	}
	w.m[path] = v
	for len(w.order) > 64 {
		delete(w.m, w.order[0])
		w.order = w.order[1:]
	}
}

func (w *writtenFiles) get(path string) (written, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	v, ok := w.m[path]
	return v, ok
}

// collectValue drains the input into one value: the single item, or the
// array of all items.
func collectValue(ctx context.Context, in *Stream) (any, error) {
	items, err := in.Drain(ctx)
	if err != nil {
		return nil, err
	}
	if len(items) == 1 {
		return items[0], nil
	}
	return nonNil(items), nil
}

// stateText is v as a state file holds it: JSON indented by two spaces
// and a newline.
func stateText(v any) []byte {
	if v == jsvalue.Undefined {
		v = nil
	}
	return []byte(pretty(v) + "\n")
}

// stateSetCommand is state.set: store the input and output it.
func stateSetCommand(ctx context.Context, c *Call) (Output, error) {
	if len(c.Args.Positional) == 0 {
		return Output{}, errors.New("state.set requires a key")
	}
	key := c.Args.Positional[0]
	v, s, err := inputToStore(ctx, c, key)
	if err != nil {
		return Output{}, err
	}
	text := stateText(v)
	if err := writeLocked(ctx, s, key, func([]byte) []byte { return text }); err != nil {
		return Output{}, err
	}
	if path, err := s.Path(key); err == nil {
		lastWritten.put(path, written{string(text), v})
	}
	return Output{Items: []any{v}}, nil
}

// inputToStore collects the input of a command that stores it under key,
// then checks the key and opens the store, in the reference's order (an
// input error is reported before a bad key).
func inputToStore(ctx context.Context, c *Call, key string) (any, *state.Store, error) {
	v, err := collectValue(ctx, c.Input)
	if err != nil {
		return nil, nil, err
	}
	if _, err := state.FileName(key); err != nil {
		return nil, nil, err
	}
	s, err := c.Env.store()
	return v, s, err
}

// writeLocked replaces key's file under its lock with what next returns
// for the current content (nil when there is none).
func writeLocked(ctx context.Context, s *state.Store, key string, next func(old []byte) []byte) error {
	path, err := s.Path(key)
	if err != nil {
		return err
	}
	lock, err := s.Lock(ctx, key)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	old, err := bounded.ReadFile(path, maxDataFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if err := context.Cause(ctx); err != nil {
		return err
	}
	return state.WriteFileAtomic(path, next(old))
}

// diffLastCommand is diff.last: compare the input with the stored
// snapshot, store it, and output {kind, key, changed, before, after}.
func diffLastCommand(ctx context.Context, c *Call) (Output, error) {
	key, ok := c.Args.JSString("key")
	if !ok && len(c.Args.Positional) > 0 {
		key, ok = c.Args.Positional[0], true
	}
	if !ok || key == "" {
		return Output{}, errors.New("diff.last requires --key")
	}
	after, s, err := inputToStore(ctx, c, key)
	if err != nil {
		return Output{}, err
	}
	var before any
	err = writeLocked(ctx, s, key, func(old []byte) []byte {
		if old != nil {
			if v, err := jsvalue.Parse(old); err == nil {
				before = v // a corrupt snapshot is a miss
			}
		}
		return stateText(after)
	})
	if err != nil {
		return Output{}, err
	}
	changed := Canonical(before) != Canonical(after)
	var keyOut any = key
	if v, ok := c.Args.Get("key"); ok && v.Bare {
		keyOut = true // a bare --key is the boolean true, stored under "true"
	}
	return Output{Items: []any{jsvalue.Obj("kind", "diff.last", "key", keyOut, "changed", changed, "before", before, "after", after)}}, nil
}

// Canonical is the reference's stable stringify: compact JSON with every
// object's keys sorted (by UTF-16 code units; integer-like keys still come
// first, as in any JavaScript object).
func Canonical(v any) string { return compact(canonicalize(v)) }

func canonicalize(v any) any {
	switch v := v.(type) {
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = canonicalize(e)
		}
		return out
	case *jsvalue.Object:
		keys := slices.Clone(v.Keys())
		slices.SortFunc(keys, compareUTF16)
		out := jsvalue.NewObject()
		for _, k := range keys {
			e, _ := v.Get(k)
			out.Set(k, canonicalize(e))
		}
		return out
	}
	return v
}
