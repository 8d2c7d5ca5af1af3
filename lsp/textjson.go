package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/buger/jsonparser"
	"go.lsp.dev/protocol"
)

// didOpen and full-document didChange notifications carry the whole
// document: for a large workflow, a megabyte of JSON-escaped YAML with an
// escape every few dozen bytes. encoding/json takes longer to decode that
// than the checker takes to check it, so these two are read with
// jsonparser, which unescapes the text in one pass over the bytes. Anything
// the fast reader does not take as is (an error, text that is not valid
// UTF-8, which encoding/json would repair) is decoded by encoding/json
// instead, so for valid JSON the result is always what encoding/json gives.
// (jsonparser does not validate the whole text, so of a frame that is not
// valid JSON it may take what jsonrpc2 would have dropped with a log line;
// clients send valid JSON.)

// documentFrame handles a didOpen or didChange notification straight from
// its frame (see stream.shortcut) and reports whether it did: jsonrpc2
// would scan the whole text to hand its params over as raw JSON, only for
// them to be scanned again here. Anything else, or a frame the fast reader
// does not take, goes the usual way.
func (s *Server) documentFrame(ctx context.Context, frame []byte) (taken bool) {
	defer func() {
		if r := recover(); r != nil { // a jsonparser bug must not end the read loop
			s.log.Printf("reading a frame: panic: %v", r)
			taken = false
		}
	}()
	var method, params []byte
	ok, isCall := true, false
	jsonparser.EachKey(frame, func(i int, value []byte, t jsonparser.ValueType, err error) {
		switch {
		case err != nil:
			ok = false
		case i == 0 && t == jsonparser.String:
			method = value
		case i == 1:
			isCall = true
		case i == 2 && t == jsonparser.Object:
			params = value
		}
	}, []string{"method"}, []string{"id"}, []string{"params"})
	m := string(method)
	if !ok || isCall || params == nil || m != "textDocument/didChange" && m != "textDocument/didOpen" {
		return false
	}
	s.notification(ctx, m, params)
	return true
}

// decodeDidChange decodes textDocument/didChange params.
func decodeDidChange(raw []byte) (didChangeParams, error) {
	var p didChangeParams
	if err := fastDidChange(raw, &p); err != nil {
		p = didChangeParams{}
		return p, json.Unmarshal(raw, &p)
	}
	return p, nil
}

// decodeDidOpen decodes textDocument/didOpen params.
func decodeDidOpen(raw []byte) (protocol.DidOpenTextDocumentParams, error) {
	var p protocol.DidOpenTextDocumentParams
	if err := fastDidOpen(raw, &p); err != nil {
		p = protocol.DidOpenTextDocumentParams{}
		return p, json.Unmarshal(raw, &p)
	}
	return p, nil
}

var errNotFast = errors.New("not for the fast reader")

func fastDidChange(raw []byte, p *didChangeParams) error {
	return eachField(raw, []string{"textDocument", "contentChanges"}, func(key string, value []byte, t jsonparser.ValueType) error {
		switch key {
		case "textDocument":
			return eachField(value, []string{"uri", "version"}, func(key string, value []byte, t jsonparser.ValueType) error {
				switch key {
				case "uri":
					s, err := fastString(value, t)
					p.TextDocument.URI = protocol.DocumentURI(s)
					return err
				case "version":
					v, err := fastInt32(value, t)
					p.TextDocument.Version = v
					return err
				}
				return nil
			})
		case "contentChanges":
			if t != jsonparser.Array {
				return errNotFast
			}
			p.ContentChanges = make([]textChange, 0, 1) // [] is an empty list, as in encoding/json
			var failed error
			_, err := jsonparser.ArrayEach(value, func(value []byte, t jsonparser.ValueType, _ int, err error) {
				if err != nil || t != jsonparser.Object {
					failed = errNotFast
					return
				}
				var c textChange
				if err := eachField(value, []string{"text", "range"}, func(key string, value []byte, t jsonparser.ValueType) error {
					switch key {
					case "text":
						s, err := fastString(value, t)
						c.Text = s
						return err
					case "range":
						if t == jsonparser.Null {
							c.Range = nil
							return nil
						}
						if t != jsonparser.Object {
							return errNotFast
						}
						c.Range = new(protocol.Range)
						return json.Unmarshal(value, c.Range)
					}
					return nil
				}); err != nil {
					failed = err
				}
				p.ContentChanges = append(p.ContentChanges, c)
			})
			if err != nil {
				return err
			}
			return failed
		}
		return nil
	})
}

func fastDidOpen(raw []byte, p *protocol.DidOpenTextDocumentParams) error {
	return eachField(raw, []string{"textDocument"}, func(key string, value []byte, t jsonparser.ValueType) error {
		if key != "textDocument" {
			return nil
		}
		return eachField(value, []string{"uri", "languageId", "text", "version"}, func(key string, value []byte, t jsonparser.ValueType) error {
			var err error
			var s string
			switch key {
			case "uri":
				s, err = fastString(value, t)
				p.TextDocument.URI = protocol.DocumentURI(s)
			case "languageId":
				s, err = fastString(value, t)
				p.TextDocument.LanguageID = protocol.LanguageIdentifier(s)
			case "text":
				p.TextDocument.Text, err = fastString(value, t)
			case "version":
				p.TextDocument.Version, err = fastInt32(value, t)
			}
			return err
		})
	})
}

// eachField calls f with every member of the JSON object raw whose key is
// one of known, in order (so that a repeated key ends with its last value,
// as in encoding/json). encoding/json also takes a key that matches a field
// name but for case, which is left to it.
func eachField(raw []byte, known []string, f func(key string, value []byte, t jsonparser.ValueType) error) error {
	return jsonparser.ObjectEach(raw, func(key, value []byte, t jsonparser.ValueType, _ int) error {
		k, err := jsonparser.ParseString(key)
		if err != nil {
			return err
		}
		if slices.Contains(known, k) {
			return f(k, value, t)
		}
		if slices.ContainsFunc(known, func(name string) bool { return strings.EqualFold(name, k) }) {
			return errNotFast
		}
		return nil
	})
}

// fastString is the string a JSON string value holds; it refuses other
// types and text that is not valid UTF-8.
func fastString(value []byte, t jsonparser.ValueType) (string, error) {
	if t != jsonparser.String {
		return "", errNotFast
	}
	s, err := jsonparser.ParseString(value)
	if err != nil || !utf8.ValidString(s) {
		return "", errNotFast
	}
	return s, nil
}

// fastInt32 is the int32 a JSON number holds.
func fastInt32(value []byte, t jsonparser.ValueType) (int32, error) {
	if t != jsonparser.Number {
		return 0, errNotFast
	}
	var v int32
	if err := json.Unmarshal(value, &v); err != nil {
		return 0, errNotFast
	}
	return v, nil
}
