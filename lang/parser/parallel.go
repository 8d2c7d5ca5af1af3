package parser

import (
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/lobsterdev/lobster/lang/ast"
)

// Large workflows are read on all CPUs: the entries of a long block sequence
// (in practice the top-level steps) are split into parts at the lines where
// an entry starts, and each part is read by its own reader. The split is
// speculative: a part that holds an anchor or an alias, reports any
// diagnostic, or does not end exactly where the next part starts is thrown
// away and the whole sequence is read again in one pass, so the result is
// always the one-pass result.

// Below these sizes one pass is faster. Tests lower them to exercise the
// parallel paths on small inputs.
var (
	parallelMinBytes = 32 << 10
	parallelMinSteps = 64
)

// parallelReads and parallelBuilds count the parallel passes that were kept
// (for tests).
var parallelReads, parallelBuilds atomic.Int64

// inParallel calls work(0) … work(n-1) on n goroutines and waits for them.
// A panic in one of them is raised again on the caller's goroutine, where
// Parse recovers it.
func inParallel(n int, work func(part int)) {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failure any
	for part := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() {
				if r := recover(); r != nil {
					mu.Lock()
					failure = r
					mu.Unlock()
				}
			}()
			work(part)
		}()
	}
	wg.Wait()
	if failure != nil {
		panic(failure)
	}
}

// readItemsInParallel reads the sequence's entries in parts and reports
// whether it could; on false, nothing was consumed or recorded.
func (r *yamlReader) readItemsInParallel(indent int, s *ast.Sequence) bool {
	workers := runtime.GOMAXPROCS(0)
	if r.part || workers < 2 || r.depth > 4 || len(r.src)-r.pos < parallelMinBytes {
		return false
	}
	starts, ok := entryStarts(r.src, r.pos, indent)
	if !ok || len(starts) < 2*workers {
		return false
	}
	type part struct {
		reader  *yamlReader
		items   ast.Sequence
		entries int
		end     int
	}
	parts := make([]part, workers)
	for w := range parts {
		first, last := w*len(starts)/workers, (w+1)*len(starts)/workers
		end := len(r.src)
		if last < len(starts) {
			end = starts[last]
		}
		sub := &yamlReader{
			src: r.src[:end], file: r.file, pos: starts[first], start: r.start, depth: r.depth,
			anchors: map[string]ast.Value{}, used: map[string]bool{}, part: true,
		}
		parts[w] = part{reader: sub, entries: last - first, end: end}
	}
	inParallel(workers, func(w int) {
		p := &parts[w]
		defer func() {
			if recover() != nil {
				p.reader.stop = true // fall back to one pass, which reports it
			}
		}()
		p.reader.readItems(indent, &p.items)
	})
	for i, p := range parts {
		sub := p.reader
		if sub.stop || len(sub.diags) > 0 || len(sub.anchored) > 0 || sub.aliases > 0 || len(p.items.Items) != p.entries {
			return false
		}
		// Every part but the last must end at the next part's first entry.
		probe := *sub
		probe.skipToContent()
		if i < len(parts)-1 && probe.pos != p.end {
			return false
		}
	}
	for _, p := range parts {
		s.Items = append(s.Items, p.items.Items...)
		r.comments = appendComments(r.comments, p.reader.comments)
	}
	r.pos = parts[len(parts)-1].reader.pos
	parallelReads.Add(1)
	return true
}

func appendComments(dst, src []*ast.Comment) []*ast.Comment {
	for _, c := range src {
		if n := len(dst); n == 0 || dst[n-1].Span.Start < c.Span.Start {
			dst = append(dst, c)
		}
	}
	return dst
}

// entryStarts finds the offsets of the "-" of each entry of the block
// sequence whose first entry is at pos, from the indentation of lines alone.
// It gives up (false) on a tab in indentation.
func entryStarts(src string, pos, indent int) ([]int, bool) {
	var starts []int
	for i := lineStartOf(src, pos); i < len(src); {
		j := i
		for j < len(src) && src[j] == ' ' {
			j++
		}
		lineEnd := j
		for lineEnd < len(src) && src[lineEnd] != '\n' {
			lineEnd++
		}
		next := lineEnd + 1
		switch {
		case j < len(src) && src[j] == '\t':
			return nil, false
		case j == lineEnd || src[j] == '\r' || src[j] == '#':
			// blank or comment line
		case j-i < indent:
			return starts, true
		case j-i == indent:
			if src[j] != '-' || !(j+1 >= len(src) || isBlank(src[j+1]) || src[j+1] == '\n' || src[j+1] == '\r') {
				return starts, true
			}
			starts = append(starts, j)
		}
		i = next
	}
	return starts, true
}

// buildStepsInParallel builds the typed steps of a long top-level list on all
// CPUs. Each part has its own builder; results merge in order, so the output
// does not depend on scheduling.
func (b *builder) buildStepsInParallel(items []ast.Value, ctx ast.StepContext, out []ast.Value) bool {
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || len(items) < parallelMinSteps {
		return false
	}
	share := b.budget / workers
	parts := make([]*builder, workers)
	for w := range parts {
		parts[w] = &builder{file: b.file, budget: share}
	}
	inParallel(workers, func(w int) {
		first, last := w*len(items)/workers, (w+1)*len(items)/workers
		for i := first; i < last; i++ {
			out[i] = parts[w].listItem(items[i], ctx)
		}
	})
	for _, sub := range parts {
		b.diags = append(b.diags, sub.diags...)
		b.shells = append(b.shells, sub.shells...)
		b.budget -= share - sub.budget
		b.warned = b.warned || sub.warned
	}
	parallelBuilds.Add(1)
	return true
}
