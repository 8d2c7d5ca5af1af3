package lsp

import (
	"context"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// hostileInput is a client that sends head, then repeat forever (or
// nothing more when repeat is empty), and counts what the server read.
type hostileInput struct {
	head   *strings.Reader
	repeat []byte
	off    int
	read   atomic.Int64
}

func (h *hostileInput) Read(p []byte) (int, error) {
	n, _ := h.head.Read(p)
	if n == 0 && len(h.repeat) > 0 {
		for n < len(p) {
			c := copy(p[n:], h.repeat[h.off:])
			n += c
			h.off = (h.off + c) % len(h.repeat)
		}
	}
	h.read.Add(int64(n))
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

func (h *hostileInput) Write(p []byte) (int, error) { return len(p), nil }
func (h *hostileInput) Close() error                { return nil }

// TestFramingErrors feeds the server broken framing: each ends the
// connection (Serve reports no shutdown, so the process exits 1) after the
// server logged why, having read a bounded amount of the input.
func TestFramingErrors(t *testing.T) {
	body := `{"jsonrpc":"2.0","method":"initialized","params":{}}`
	frame := "Content-Length: " + itoa(len(body)) + "\r\n\r\n" + body
	for _, c := range []struct {
		name, head, repeat string
		log                string // in the log
		maxRead            int64  // bytes the server may read (0: no bound to check)
	}{
		{"a header line without end", "Content-Length: 5\r\nX-", "a", "a header line is longer than 4096 bytes", 2 * maxHeaderLine},
		{"a header line without end, first", "", "Content-Length", "a header line is longer than 4096 bytes", 2 * maxHeaderLine},
		{"headers without end", frame, "X-Header: y\r\n", "the header of a message is longer than 65536 bytes", maxHeaderBlock + 2*maxHeaderLine},
		{"blank lines without end", frame, "\r\n", "the header of a message is longer than 65536 bytes", maxHeaderBlock + 2*maxHeaderLine},
		{"not a header", frame + "hello\r\n\r\n", "", `invalid header line "hello"`, 0},
		{"a long line that is not a header", strings.Repeat("x", 200) + "\r\n", "", `invalid header line "` + strings.Repeat("x", 80) + `..."`, 0},
		{"a negative length", "Content-Length: -1\r\n\r\n", "", `invalid Content-Length "-1"`, 0},
		{"a length that is not a number", "Content-Length: 1e3\r\n\r\n", "", `invalid Content-Length "1e3"`, 0},
		{"a length over the limit", "Content-Length: 67108865\r\n\r\n", "", `invalid Content-Length "67108865"`, 0},
		{"a length past int64", "Content-Length: 99999999999999999999\r\n\r\n", "", `invalid Content-Length "99999999999999999999"`, 0},
		{"no length", "Content-Type: application/vscode-jsonrpc\r\n\r\n" + body, "", "a message header has no Content-Length", 0},
		{"input ending in a header", frame + "Content-Len", "", "the input ended inside a message header", 0},
		{"input ending in a body", "Content-Length: 100\r\n\r\n{", "", "the input ended inside a message body (1 of 100 bytes)", 0},
		{"input ending between messages", frame + "\r\n", "", "the input ended", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := &hostileInput{head: strings.NewReader(c.head), repeat: []byte(c.repeat)}
			logBuf := &syncBuffer{}
			done := make(chan bool, 1)
			go func() { done <- Serve(context.Background(), in, Options{Log: logBuf}) }()
			select {
			case shutdown := <-done:
				if shutdown {
					t.Errorf("Serve reported a shutdown")
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("the server did not stop; read %d bytes", in.read.Load())
			}
			if !strings.Contains(logBuf.String(), c.log) {
				t.Errorf("log %q does not say %q", logBuf.String(), c.log)
			}
			if c.maxRead > 0 && in.read.Load() > c.maxRead {
				t.Errorf("read %d bytes, want at most %d", in.read.Load(), c.maxRead)
			}
		})
	}
}

// A framing error is logged, so that the editor's output panel says why
// the server stopped: the log goes to standard error by default.
func TestFramingErrorLoggedOnce(t *testing.T) {
	in := &hostileInput{head: strings.NewReader("garbage\r\n\r\n")}
	logBuf := &syncBuffer{}
	if Serve(context.Background(), in, Options{Log: logBuf}) {
		t.Fatal("shutdown reported")
	}
	if n := strings.Count(logBuf.String(), "ending the connection"); n != 1 {
		t.Errorf("logged %d times: %s", n, logBuf.String())
	}
}

// FuzzReadFrame: any input gives frames or an error, never a panic, and a
// frame is never longer than its Content-Length allows.
func FuzzReadFrame(f *testing.F) {
	for _, s := range []string{
		"Content-Length: 2\r\n\r\n{}",
		"\r\n\r\nContent-Length: 0\r\n\r\n",
		"content-length:1\nX: y\n\nz",
		"Content-Length: 5\r\n",
		"Content-Type: x\r\n\r\n{}",
		"garbage",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st := newStream(&hostileInput{head: strings.NewReader(string(data))}, nil)
		var total int64
		for range 100 {
			frame, n, err := st.readFrame()
			total += n
			if err != nil {
				break
			}
			if len(frame) > maxMessage {
				t.Fatalf("frame of %d bytes", len(frame))
			}
		}
		if total > int64(len(data)) {
			t.Fatalf("counted %d bytes of %d", total, len(data))
		}
	})
}
