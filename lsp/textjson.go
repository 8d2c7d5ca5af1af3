package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// didOpen and full-document didChange notifications carry the whole
// document: for a large workflow, a megabyte of JSON-escaped YAML with an
// escape every few dozen bytes. jsonrpc2 decodes a message to find its
// params, and encoding/json then takes longer to decode them than the
// checker takes to check the file (jsonparser, tried too, walks each
// string several times). So these two notifications are taken off the
// stream here (see documentFrame) and read by textReader: one pass to find
// the params in the frame, one to decode them, strings unescaped as they
// are read.
//
// Anything the fast reader does not take as is (a shape it does not
// expect, a key that matches a field but for case, a number that is not an
// int32, a lone surrogate, text that is not valid UTF-8, all of which
// encoding/json has rules for) is decoded by encoding/json instead, so for
// valid JSON the result is always what encoding/json gives; a fuzz test
// holds the two to that. The reader does not validate what it skips, so of
// a frame that is not valid JSON it may take what jsonrpc2 would have
// dropped with a log line; clients send valid JSON.

// errNotFast makes the caller decode with encoding/json instead.
var errNotFast = errors.New("not for the fast reader")

// documentFrame handles a didOpen or didChange notification straight from
// its frame (see stream.shortcut) and reports whether it did. Anything
// else goes the usual way.
func (s *Server) documentFrame(ctx context.Context, frame []byte) (taken bool) {
	defer func() {
		if r := recover(); r != nil { // a reader bug must not end the read loop
			s.log.Printf("reading a frame: panic: %v", r)
			taken = false
		}
	}()
	r := textReader{data: frame}
	var method string
	var params []byte
	isCall := false
	err := r.object(nil, func(key string) (err error) {
		switch key {
		case "method":
			method, err = r.str()
		case "id":
			isCall = true
			err = r.skip()
		case "params":
			params, err = r.raw()
		default:
			err = r.skip()
		}
		return err
	})
	if err != nil || isCall || len(params) == 0 || params[0] != '{' || method != "textDocument/didChange" && method != "textDocument/didOpen" {
		return false
	}
	s.notification(ctx, method, params)
	return true
}

// decodeDidChange decodes textDocument/didChange params.
func decodeDidChange(raw []byte) (didChangeParams, error) {
	var p didChangeParams
	r := textReader{data: raw}
	if err := r.didChange(&p); err != nil || !r.end() {
		p = didChangeParams{}
		return p, json.Unmarshal(raw, &p)
	}
	return p, nil
}

// decodeDidOpen decodes textDocument/didOpen params.
func decodeDidOpen(raw []byte) (protocol.DidOpenTextDocumentParams, error) {
	var p protocol.DidOpenTextDocumentParams
	r := textReader{data: raw}
	if err := r.didOpen(&p); err != nil || !r.end() {
		p = protocol.DidOpenTextDocumentParams{}
		return p, json.Unmarshal(raw, &p)
	}
	return p, nil
}

// textReader reads JSON text in place, from pos.
type textReader struct {
	data  []byte
	pos   int
	depth int // of the objects and arrays being read
}

// maxTextDepth bounds the nesting the reader follows (encoding/json's own
// limit is 10000).
const maxTextDepth = 1000

func (r *textReader) didChange(p *didChangeParams) error {
	return r.object([]string{"textDocument", "contentChanges"}, func(key string) (err error) {
		if key == "textDocument" {
			return r.object([]string{"uri", "version"}, func(key string) (err error) {
				if key == "uri" {
					var u string
					u, err = r.str()
					p.TextDocument.URI = protocol.DocumentURI(u)
				} else {
					p.TextDocument.Version, err = r.int32()
				}
				return err
			})
		}
		p.ContentChanges = make([]textChange, 0, 1) // [] is an empty list, as in encoding/json
		return r.array(func() error {
			var c textChange
			err := r.object([]string{"text", "range"}, func(key string) (err error) {
				if key == "text" {
					c.Text, err = r.str()
					return err
				}
				if r.literal("null") {
					c.Range = nil
					return nil
				}
				raw, err := r.raw()
				if err != nil || raw[0] != '{' {
					return errNotFast
				}
				c.Range = new(protocol.Range)
				return json.Unmarshal(raw, c.Range)
			})
			p.ContentChanges = append(p.ContentChanges, c)
			return err
		})
	})
}

func (r *textReader) didOpen(p *protocol.DidOpenTextDocumentParams) error {
	return r.object([]string{"textDocument"}, func(string) error {
		return r.object([]string{"uri", "languageId", "text", "version"}, func(key string) (err error) {
			var s string
			switch key {
			case "uri":
				s, err = r.str()
				p.TextDocument.URI = protocol.DocumentURI(s)
			case "languageId":
				s, err = r.str()
				p.TextDocument.LanguageID = protocol.LanguageIdentifier(s)
			case "text":
				p.TextDocument.Text, err = r.str()
			case "version":
				p.TextDocument.Version, err = r.int32()
			}
			return err
		})
	})
}

func (r *textReader) space() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

// next is the next byte after white space, or 0 at the end.
func (r *textReader) next() byte {
	r.space()
	if r.pos < len(r.data) {
		return r.data[r.pos]
	}
	return 0
}

// end reports whether only white space is left.
func (r *textReader) end() bool { return r.next() == 0 && r.pos == len(r.data) }

// object reads an object, calling member, which must read the value, for
// each key of known (every key when known is nil), in order: a repeated key
// ends with its last value, as in encoding/json. Other values are skipped;
// a key that matches one of known but for case (which encoding/json would
// take) is refused.
func (r *textReader) object(known []string, member func(key string) error) error {
	if r.next() != '{' || r.depth >= maxTextDepth {
		return errNotFast
	}
	r.pos++
	r.depth++
	defer func() { r.depth-- }()
	if r.next() == '}' {
		r.pos++
		return nil
	}
	for {
		key, err := r.str()
		if err != nil {
			return err
		}
		if r.next() != ':' {
			return errNotFast
		}
		r.pos++
		switch {
		case known == nil || slices.Contains(known, key):
			err = member(key)
		case slices.ContainsFunc(known, func(k string) bool { return strings.EqualFold(k, key) }):
			return errNotFast
		default:
			err = r.skip()
		}
		if err != nil {
			return err
		}
		switch r.next() {
		case ',':
			r.pos++
		case '}':
			r.pos++
			return nil
		default:
			return errNotFast
		}
	}
}

// array reads an array, calling elem to read each element.
func (r *textReader) array(elem func() error) error {
	if r.next() != '[' || r.depth >= maxTextDepth {
		return errNotFast
	}
	r.pos++
	r.depth++
	defer func() { r.depth-- }()
	if r.next() == ']' {
		r.pos++
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		switch r.next() {
		case ',':
			r.pos++
		case ']':
			r.pos++
			return nil
		default:
			return errNotFast
		}
	}
}

// str reads a string and returns it unescaped. It refuses lone surrogates
// and text that is not valid UTF-8 (encoding/json replaces them).
func (r *textReader) str() (string, error) {
	if r.next() != '"' {
		return "", errNotFast
	}
	data := r.data
	i := r.pos + 1
	run := i // the start of the bytes not yet copied
	var out []byte
	for i < len(data) {
		switch data[i] {
		case '"':
			var s string
			if out == nil {
				s = string(data[run:i])
			} else {
				s = string(append(out, data[run:i]...))
			}
			r.pos = i + 1
			if !utf8.ValidString(s) {
				return "", errNotFast
			}
			return s, nil
		case '\\':
			if out == nil {
				out = make([]byte, 0, len(data)-run)
			}
			out = append(out, data[run:i]...)
			n, ok := unescape(data[i:], &out)
			if !ok {
				return "", errNotFast
			}
			i += n
			run = i
		default:
			i++
		}
	}
	return "", errNotFast
}

// unescape appends the character of the escape sequence at the start of
// esc to out and returns the sequence's length.
func unescape(esc []byte, out *[]byte) (int, bool) {
	if len(esc) < 2 {
		return 0, false
	}
	switch c := esc[1]; c {
	case '"', '\\', '/':
		*out = append(*out, c)
	case 'b':
		*out = append(*out, '\b')
	case 'f':
		*out = append(*out, '\f')
	case 'n':
		*out = append(*out, '\n')
	case 'r':
		*out = append(*out, '\r')
	case 't':
		*out = append(*out, '\t')
	case 'u':
		r1, ok := hex4(esc[2:])
		if !ok {
			return 0, false
		}
		if !utf16.IsSurrogate(r1) {
			*out = utf8.AppendRune(*out, r1)
			return 6, true
		}
		if len(esc) < 12 || esc[6] != '\\' || esc[7] != 'u' {
			return 0, false
		}
		r2, ok := hex4(esc[8:])
		r := utf16.DecodeRune(r1, r2)
		if !ok || r == utf8.RuneError {
			return 0, false
		}
		*out = utf8.AppendRune(*out, r)
		return 12, true
	default:
		return 0, false
	}
	return 2, true
}

// hex4 reads four hex digits.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[:4]), 16, 32)
	return rune(v), err == nil
}

// int32 reads an integer that fits an int32.
func (r *textReader) int32() (int32, error) {
	raw, err := r.raw()
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(string(raw), 10, 32)
	if err != nil || raw[0] == '+' || len(raw) > 1 && raw[0] == '0' || len(raw) > 2 && raw[0] == '-' && raw[1] == '0' {
		return 0, errNotFast // not an int32 as JSON writes one
	}
	return int32(v), nil
}

// literal reads word (true, false, null) when it comes next.
func (r *textReader) literal(word string) bool {
	r.space()
	if !strings.HasPrefix(string(r.data[r.pos:min(r.pos+len(word), len(r.data))]), word) {
		return false
	}
	r.pos += len(word)
	return true
}

// raw skips a value and returns its text.
func (r *textReader) raw() ([]byte, error) {
	r.space()
	start := r.pos
	if err := r.skip(); err != nil {
		return nil, err
	}
	return r.data[start:r.pos], nil
}

// skip moves past a value, without checking more of it than it needs to
// find its end.
func (r *textReader) skip() error {
	switch r.next() {
	case '"':
		data := r.data
		for i := r.pos + 1; i < len(data); i++ {
			switch data[i] {
			case '\\':
				i++
			case '"':
				r.pos = i + 1
				return nil
			}
		}
		return errNotFast
	case '{':
		return r.object(nil, func(string) error { return r.skip() })
	case '[':
		return r.array(r.skip)
	case 0:
		return errNotFast
	}
	start := r.pos // a number or a literal
	for r.pos < len(r.data) && !strings.ContainsRune(",}] \t\n\r", rune(r.data[r.pos])) {
		r.pos++
	}
	if r.pos == start {
		return errNotFast
	}
	return nil
}
