package parser

import (
	"slices"
	"sync"

	"github.com/lobsterdev/lobster/lang/ast"
	"github.com/lobsterdev/lobster/lang/source"
)

// A Cache carries the shell parses of one Parse of a document over to the
// next. An editor re-parses the whole file on every keystroke while nearly
// all of its shell texts stay as they were, and parsing them is half of
// Parse. A shell text's variables and syntax error depend on its decoded
// text alone (offsets are kept relative to it), so the text is the key.
//
// A Cache keeps what the last Parse used: entries not used by one Parse are
// gone after it. It is safe for concurrent use; concurrent parses of one
// document only lower each other's hits.
type Cache struct {
	mu   sync.Mutex
	prev map[string]shellResult // what the last Parse used
	cur  map[string]shellResult // what this Parse has used so far
}

// shellResult is what parsing one shell text found, in offsets of the text.
type shellResult struct {
	toks []shellTok // sorted by start; never modified
	err  error      // the shell parser's error, or nil
}

// NewCache returns an empty cache.
func NewCache() *Cache {
	return &Cache{prev: map[string]shellResult{}, cur: map[string]shellResult{}}
}

// ParseCached is Parse, reusing and refilling c (nil: no cache).
func ParseCached(filename string, src []byte, c *Cache) (*ast.File, []source.Diagnostic) {
	return parse(filename, src, c)
}

// reuse fills the shells whose text c has seen and returns the others, in
// order.
func (c *Cache) reuse(f *source.File, shells []*ast.Shell) (misses []*ast.Shell) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var spans []refSpan
	for _, sh := range shells {
		text := sh.Scalar.Text
		r, ok := c.cur[text]
		if !ok {
			r, ok = c.prev[text]
			if ok {
				c.cur[text] = r
			}
		}
		if !ok {
			misses = append(misses, sh)
			continue
		}
		s := sh.Scalar
		spans = spans[:0]
		*sh = ast.Shell{Loc: s.Loc, Scalar: s, Refs: shellRefSpans(f, s, &spans)}
		sh.Vars = shellVars(f, s, r.toks, spans)
		if r.err != nil {
			sh.Err = shellSyntaxError(f, s, r.err)
		}
	}
	return misses
}

// keep records the results of freshly parsed shells and starts the next
// generation: what this Parse did not use is dropped.
func (c *Cache) keep(shells []*ast.Shell, results []shellResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, sh := range shells {
		c.cur[sh.Scalar.Text] = results[i]
	}
	c.prev, c.cur = c.cur, make(map[string]shellResult, len(c.cur))
}

// record fills rec (when not nil) with the result to cache for toks
// (scratch memory, sorted by start) and err.
func record(rec *shellResult, toks []shellTok, err error) {
	if rec != nil {
		*rec = shellResult{toks: slices.Clone(toks), err: err}
	}
}
