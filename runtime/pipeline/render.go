package pipeline

import (
	"io"

	"github.com/lobsterdev/lobster/runtime/jsvalue"
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
	pw := &prettyWriter{w: w, buf: make([]byte, 0, prettyBuffer+4<<10)}
	pw.value(v, 0) // a top-level undefined prints nothing
	pw.flush()
	return pw.err
}

// prettyBuffer is how much output writePretty collects before writing.
const prettyBuffer = 64 << 10

type prettyWriter struct {
	w   io.Writer
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
	if len(p.buf) >= prettyBuffer {
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
