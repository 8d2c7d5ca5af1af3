package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
)

// maxMessage bounds the size of one message (a document of
// parser.MaxFileSize, JSON-escaped, with room to spare).
const maxMessage = 64 << 20

// maxHeaderLine bounds one header line and maxHeaderBlock the header lines
// of one message with the blank lines before it. Real headers are a line or
// two ("Content-Length: 123"); these limits keep a client that sends a line
// without end, or headers without end, from growing the server's memory.
const (
	maxHeaderLine  = 4 << 10
	maxHeaderBlock = 64 << 10
)

// stream is a jsonrpc2.Stream with LSP's Content-Length framing that
// survives a message that is not JSON-RPC: it logs it and reads the next
// one (jsonrpc2's own stream would end the connection). A framing error
// (a header that is not one, a bad length, input that ends inside a
// message) ends the connection, and is logged first.
type stream struct {
	rwc io.ReadWriteCloser
	in  *bufio.Reader
	log *log.Logger
	mu  sync.Mutex // serialises writes
	// shortcut, when set, may handle a frame itself before jsonrpc2
	// decodes it, and reports whether it did. It runs on the reading
	// goroutine, so it keeps the order of messages.
	shortcut func(ctx context.Context, frame []byte) bool
}

func newStream(rwc io.ReadWriteCloser, logger *log.Logger) *stream {
	return &stream{rwc: rwc, in: bufio.NewReaderSize(rwc, maxHeaderLine), log: logger}
}

// Read reads the next well-formed message.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		data, n, err := s.readFrame()
		total += n
		if err == io.EOF {
			s.log.Printf("the input ended")
			return nil, total, err
		}
		if err != nil {
			s.log.Printf("ending the connection: %v", err)
			return nil, total, err
		}
		if s.shortcut != nil && s.shortcut(ctx, data) {
			continue
		}
		msg, err := jsonrpc2.DecodeMessage(data)
		if err != nil {
			s.log.Printf("ignoring a malformed message (%d bytes): %v", len(data), err)
			continue
		}
		return msg, total, nil
	}
}

// readFrame reads one header block and its body. It returns io.EOF only
// when the input ends between messages.
func (s *stream) readFrame() ([]byte, int64, error) {
	var total int64
	length := -1
	headers := false
	for {
		line, err := s.in.ReadSlice('\n')
		total += int64(len(line))
		switch {
		case err == bufio.ErrBufferFull:
			return nil, total, fmt.Errorf("a header line is longer than %d bytes", maxHeaderLine)
		case err == io.EOF && !headers && len(bytes.TrimSpace(line)) == 0:
			return nil, total, io.EOF
		case err == io.EOF:
			return nil, total, errors.New("the input ended inside a message header")
		case err != nil:
			return nil, total, err
		case total > maxHeaderBlock:
			return nil, total, fmt.Errorf("the header of a message is longer than %d bytes", maxHeaderBlock)
		}
		text := strings.TrimSpace(string(line))
		if text == "" {
			if length >= 0 {
				break
			}
			if headers {
				return nil, total, errors.New("a message header has no Content-Length")
			}
			continue // blank lines between messages
		}
		headers = true
		name, value, ok := strings.Cut(text, ":")
		if !ok {
			if len(text) > 80 {
				text = text[:80] + "..."
			}
			return nil, total, fmt.Errorf("invalid header line %q", text)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 || n > maxMessage {
				return nil, total, fmt.Errorf("invalid Content-Length %q (a number of bytes up to %d)", strings.TrimSpace(value), maxMessage)
			}
			length = n
		}
	}
	data := make([]byte, length)
	n, err := io.ReadFull(s.in, data)
	total += int64(n)
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = fmt.Errorf("the input ended inside a message body (%d of %d bytes)", n, length)
	}
	return data, total, err
}

// Write writes one message with its header.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	data, err := encodeMessage(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := fmt.Fprintf(s.rwc, "Content-Length: %d\r\n\r\n", len(data))
	if err != nil {
		return int64(n), err
	}
	m, err := s.rwc.Write(data)
	return int64(n + m), err
}

// Close closes the underlying connection.
func (s *stream) Close() error { return s.rwc.Close() }

// encodeMessage is the JSON text of msg. A notification or a successful
// response is written around its params or result as they are: jsonrpc2
// has just encoded them, and json.Marshal(msg) would scan them twice more to
// compact and check them (the diagnostics of a large file are a megabyte).
func encodeMessage(msg jsonrpc2.Message) ([]byte, error) {
	var head, body []byte
	var tail string
	switch m := msg.(type) {
	case *jsonrpc2.Notification:
		method, err := json.Marshal(m.Method())
		if err != nil {
			return nil, err
		}
		head = append(append([]byte(`{"jsonrpc":"2.0","method":`), method...), `,"params":`...)
		body, tail = m.Params(), "}"
	case *jsonrpc2.Response:
		if m.Err() != nil {
			return m.MarshalJSON()
		}
		rid := m.ID()
		id, err := json.Marshal(&rid) // ID's MarshalJSON has a pointer receiver
		if err != nil {
			return nil, err
		}
		head = []byte(`{"jsonrpc":"2.0","result":`)
		body, tail = m.Result(), `,"id":`+string(id)+"}"
	default:
		return json.Marshal(msg)
	}
	if len(body) == 0 {
		body = []byte("null")
	}
	out := make([]byte, 0, len(head)+len(body)+len(tail))
	return append(append(append(out, head...), body...), tail...), nil
}
