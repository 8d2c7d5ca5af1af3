package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Standard I/O carries one JSON-RPC message a line. The SDK ends the
// connection at a line that is not JSON; a server must not stop for a
// client's bad line, so lines are checked before the SDK reads them: a
// line that is not JSON, or is longer than maxLine, is answered with a
// parse error and skipped.

// maxLine bounds a line: a text at the checker's limit, escaped, with
// room for the rest of the request.
const maxLine = maxRequestBody

// lockedWriter serialises the writes of the SDK and of the line filter.
type lockedWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) Close() error { return l.w.Close() }

// lineFilter passes on the lines of r that are JSON values.
type lineFilter struct {
	r       *bufio.Reader
	in      io.Closer
	w       *lockedWriter
	pending []byte // the rest of a good line
}

func newLineFilter(in io.ReadCloser, w *lockedWriter) *lineFilter {
	return &lineFilter{r: bufio.NewReaderSize(in, 64<<10), in: in, w: w}
}

func (f *lineFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		line, tooLong, err := f.line()
		switch {
		case tooLong:
			f.reject(-32600, "the message is longer than the limit")
		case len(bytes.TrimSpace(line)) == 0:
		case !json.Valid(line):
			f.reject(-32700, "the line is not JSON")
		case !isMessage(line):
			f.reject(-32600, "the line is not one JSON-RPC 2.0 message (batches are not supported)")
		default:
			f.pending = append(line, '\n')
		}
		if err != nil && len(f.pending) == 0 {
			return 0, err
		}
		if err != nil {
			break
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// line reads one line, without its newline; a line over maxLine is read
// to its end and dropped.
func (f *lineFilter) line() (line []byte, tooLong bool, err error) {
	for {
		chunk, err := f.r.ReadSlice('\n')
		if len(line)+len(chunk) > maxLine {
			tooLong, line = true, nil
		} else if !tooLong {
			line = append(line, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

func (f *lineFilter) reject(code int, why string) {
	msg, _ := json.Marshal(why)
	fmt.Fprintf(f.w, `{"jsonrpc":"2.0","id":null,"error":{"code":%d,"message":%s}}`+"\n", code, msg)
}

// isMessage says whether a JSON line is a JSON-RPC 2.0 message the SDK
// can take: an object with jsonrpc "2.0" that is a request or a
// notification (a string method) or a response (an id with a result or
// an error), its id a string, a number or null.
func isMessage(line []byte) bool {
	var m struct {
		JSONRPC string          `json:"jsonrpc"`
		Method  *string         `json:"method"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if json.Unmarshal(line, &m) != nil || m.JSONRPC != "2.0" {
		return false
	}
	if len(m.ID) > 0 {
		switch m.ID[0] {
		case '"', 'n', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		default:
			return false
		}
	}
	return m.Method != nil || (len(m.ID) > 0 && (len(m.Result) > 0 || len(m.Error) > 0))
}

func (f *lineFilter) Close() error { return f.in.Close() }
