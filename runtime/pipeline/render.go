package pipeline

import (
	"bufio"
	"io"
	"math"
	"strings"

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
// text in memory first (the json renderer's output can be large). It
// writes exactly what jsvalue.Stringify(v, "  ") gives (tested).
func writePretty(w io.Writer, v any) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	pw := &prettyWriter{w: bw}
	pw.value(v, 0) // a top-level undefined prints nothing
	return bw.Flush()
}

type prettyWriter struct {
	w   *bufio.Writer
	buf strings.Builder // scratch for quoting
}

func (p *prettyWriter) newline(depth int) {
	p.w.WriteByte('\n')
	for range depth {
		p.w.WriteString("  ")
	}
}

func (p *prettyWriter) quote(s string) {
	p.buf.Reset()
	jsvalue.Quote(&p.buf, s)
	p.w.WriteString(p.buf.String())
}

// value writes v and reports whether it has a JSON form (false for
// undefined).
func (p *prettyWriter) value(v any, depth int) bool {
	switch v := v.(type) {
	case nil:
		p.w.WriteString("null")
	case bool:
		if v {
			p.w.WriteString("true")
		} else {
			p.w.WriteString("false")
		}
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			p.w.WriteString("null")
		} else {
			p.w.WriteString(jsvalue.FormatNumber(v))
		}
	case string:
		p.quote(v)
	case []any:
		if len(v) == 0 {
			p.w.WriteString("[]")
			return true
		}
		p.w.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				p.w.WriteByte(',')
			}
			p.newline(depth + 1)
			if !p.value(e, depth+1) {
				p.w.WriteString("null")
			}
		}
		p.newline(depth)
		p.w.WriteByte(']')
	case *jsvalue.Object:
		p.w.WriteByte('{')
		n := 0
		for _, k := range v.Keys() {
			e, _ := v.Get(k)
			if e == jsvalue.Undefined {
				continue
			}
			if n > 0 {
				p.w.WriteByte(',')
			}
			n++
			p.newline(depth + 1)
			p.quote(k)
			p.w.WriteString(": ")
			p.value(e, depth+1)
		}
		if n > 0 {
			p.newline(depth)
		}
		p.w.WriteByte('}')
	default:
		if i, ok := v.(int); ok {
			p.w.WriteString(jsvalue.FormatNumber(float64(i)))
			return true
		}
		return false
	}
	return true
}
