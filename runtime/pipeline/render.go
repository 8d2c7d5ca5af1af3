package pipeline

import (
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/lobsterdev/lobster/lang/jsvalue"
)

// WriteItems writes items as human mode prints them: one JSON array
// indented by two spaces, then a newline.
func WriteItems(w io.Writer, items []any) error {
	if err := writePretty(w, nonNil(items)); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// writePretty writes JSON.stringify(v, null, 2) to w without building the
// text in memory first (the json renderer's output can be large): it is
// appended to a buffer that goes out whenever it fills. It writes exactly
// what jsvalue.Stringify(v, "  ") gives (tested).
func writePretty(w io.Writer, v any) error {
	if items, ok := v.([]any); ok && len(items) >= 2*prettyRun && runtime.GOMAXPROCS(0) > 1 {
		return writePrettyRuns(w, items)
	}
	pw := &prettyWriter{w: w, buf: make([]byte, 0, prettyBuffer+4<<10)}
	pw.value(v, 0) // a top-level undefined prints nothing
	pw.flush()
	return pw.err
}

// prettyRun is the number of items of a large array that writePrettyRuns
// renders at a time.
const prettyRun = 512

// writePrettyRuns is writePretty of a large array: runs of prettyRun items
// are rendered on other goroutines, a few runs ahead, and written in
// order, so that rendering (which mostly waits for memory) uses every CPU.
func writePrettyRuns(w io.Writer, items []any) error {
	const ahead = 6 // runs rendered or waiting to be written
	n := (len(items) + prettyRun - 1) / prettyRun
	type rendered struct {
		buf []byte
		err error // a panic while rendering
	}
	done := make([]chan rendered, n)
	for k := range done {
		done[k] = make(chan rendered, 1)
	}
	free := make(chan []byte, ahead) // buffers, reused
	for range ahead {
		free <- make([]byte, 0, prettyBuffer)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(stop)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for k := range n {
			var buf []byte
			select {
			case buf = <-free:
			case <-stop:
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() {
					if r := recover(); r != nil {
						done[k] <- rendered{err: fmt.Errorf("internal error in a pipeline stage: %v", r)}
					}
				}()
				pw := &prettyWriter{buf: buf[:0]}
				for i := k * prettyRun; i < min(len(items), (k+1)*prettyRun); i++ {
					if i > 0 {
						pw.buf = append(pw.buf, ',')
					}
					pw.newline(1)
					if !pw.value(items[i], 1) {
						pw.buf = append(pw.buf, "null"...)
					}
				}
				done[k] <- rendered{buf: pw.buf}
			}()
		}
	}()
	if _, err := io.WriteString(w, "["); err != nil {
		return err
	}
	for k := range n {
		r := <-done[k]
		if r.err != nil {
			return r.err
		}
		if _, err := w.Write(r.buf); err != nil {
			return err
		}
		free <- r.buf
	}
	_, err := io.WriteString(w, "\n]")
	return err
}

// prettyBuffer is how much output writePretty collects before writing.
const prettyBuffer = 64 << 10

type prettyWriter struct {
	w   io.Writer // nil: everything stays in buf
	buf []byte
	err error // the first write error; later output is dropped
}

// flush writes the buffer out.
func (p *prettyWriter) flush() {
	if len(p.buf) > 0 && p.err == nil {
		_, p.err = p.w.Write(p.buf)
	}
	p.buf = p.buf[:0]
}

// indents is a newline and enough indentation for most depths.
const indents = "\n                                                              "

func (p *prettyWriter) newline(depth int) {
	if n := 1 + 2*depth; n <= len(indents) {
		p.buf = append(p.buf, indents[:n]...)
		return
	}
	p.buf = append(p.buf, '\n')
	for range depth {
		p.buf = append(p.buf, "  "...)
	}
}

// value writes v and reports whether it has a JSON form (false for
// undefined).
func (p *prettyWriter) value(v any, depth int) bool {
	if len(p.buf) >= prettyBuffer && p.w != nil {
		p.flush()
	}
	switch v := v.(type) {
	case nil:
		p.buf = append(p.buf, "null"...)
	case bool:
		if v {
			p.buf = append(p.buf, "true"...)
		} else {
			p.buf = append(p.buf, "false"...)
		}
	case float64:
		p.buf = jsvalue.AppendNumber(p.buf, v)
	case string:
		p.buf = jsvalue.AppendQuote(p.buf, v)
	case []any:
		if len(v) == 0 {
			p.buf = append(p.buf, "[]"...)
			return true
		}
		p.buf = append(p.buf, '[')
		for i, e := range v {
			if i > 0 {
				p.buf = append(p.buf, ',')
			}
			p.newline(depth + 1)
			if !p.value(e, depth+1) {
				p.buf = append(p.buf, "null"...)
			}
		}
		p.newline(depth)
		p.buf = append(p.buf, ']')
	case *jsvalue.Object:
		p.buf = append(p.buf, '{')
		n := 0
		for i := range v.Len() {
			k, e := v.At(i)
			if e == jsvalue.Undefined {
				continue
			}
			if n > 0 {
				p.buf = append(p.buf, ',')
			}
			n++
			p.newline(depth + 1)
			p.buf = jsvalue.AppendQuote(p.buf, k)
			p.buf = append(p.buf, ": "...)
			p.value(e, depth+1)
		}
		if n > 0 {
			p.newline(depth)
		}
		p.buf = append(p.buf, '}')
	default:
		if i, ok := v.(int); ok {
			p.buf = jsvalue.AppendNumber(p.buf, float64(i))
			return true
		}
		return false
	}
	return true
}
