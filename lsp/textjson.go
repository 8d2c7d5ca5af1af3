package lsp

import (
	"context"
	"math"
	"runtime/debug"
	"strings"
	"unsafe"

	"go.lsp.dev/protocol"

	"github.com/lobsterdev/lobster/lang/jsvalue"
)

// didOpen and full-document didChange notifications carry the whole
// document: for a large workflow, a megabyte of JSON-escaped YAML with an
// escape every few dozen bytes. jsonrpc2 decodes a message to find its
// params, and encoding/json then decodes them again: for the 5000-step
// workload's didOpen, 5.3 times the CPU of one pass of jsvalue.ParseText
// (BenchmarkDocumentFrameJSONRPC against BenchmarkDocumentFrame), and 1.12
// times the CPU from the frame to its diagnostics. So these two
// notifications are taken off the stream (see stream.shortcut) and read
// once with jsvalue.ParseText.
//
// Whatever the frame holds that the conversion to the params does not take
// as is (a missing or mistyped field, a key that matches a field but for
// case, which encoding/json would take) leaves the frame to jsonrpc2 and
// encoding/json, so the params are what encoding/json would decode, with
// one leniency: a version written as a whole number with a fraction or an
// exponent (1.0, 1e0), which encoding/json refuses for an int32, is taken.
// A fuzz test holds the two readers to that.

// documentFrame handles a didOpen or didChange notification straight from
// its frame and reports whether it did. Anything else goes the usual way.
func (s *Server) documentFrame(ctx context.Context, frame []byte) bool {
	p, ok := documentParams(frame)
	if ok {
		s.document(p)
	}
	return ok
}

// document applies didOpen or didChange params, after initialize and
// before shutdown. A panic is logged, never fatal.
func (s *Server) document(params any) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Printf("document change: panic: %v\n%s", r, debug.Stack())
		}
	}()
	if !s.ready() {
		return
	}
	switch p := params.(type) {
	case protocol.DidOpenTextDocumentParams:
		if isConfigURI(p.TextDocument.URI) {
			return // read from disk, reloaded when saved (configChanged)
		}
		s.open(p.TextDocument.URI, p.TextDocument.Version, []byte(p.TextDocument.Text))
	case didChangeParams:
		if isConfigURI(p.TextDocument.URI) {
			return
		}
		if err := s.change(p); err != nil {
			s.log.Printf("textDocument/didChange: %v", err)
		}
	}
}

// documentParams reads a frame that is a didOpen or didChange notification
// into its params (a protocol.DidOpenTextDocumentParams or a
// didChangeParams); false for anything else.
func documentParams(frame []byte) (params any, ok bool) {
	defer func() {
		if recover() != nil { // a reader bug must not end the read loop
			params, ok = nil, false
		}
	}()
	// The frame is not written again: the strings may share its memory.
	// With a copy, reading the didOpen frame of the 5000-step workload
	// took 1.33 times as long (BenchmarkDocumentFrame; median of 200
	// interleaved pairs), about 1% of its parse and check.
	v, err := jsvalue.ParseText(unsafe.String(unsafe.SliceData(frame), len(frame)))
	if err != nil {
		return nil, false
	}
	msg, ok := fields(v, "method", "id", "params")
	if _, isObject := msg[2].(*jsvalue.Object); !ok || msg[1] != nil || !isObject {
		return nil, false // a call, or no params
	}
	switch msg[0] {
	case "textDocument/didOpen":
		return didOpenOf(msg[2])
	case "textDocument/didChange":
		return didChangeOf(msg[2])
	}
	return nil, false
}

func didOpenOf(v any) (p protocol.DidOpenTextDocumentParams, ok bool) {
	f, ok := fields(v, "textDocument")
	if !ok {
		return p, false
	}
	doc, ok := fields(f[0], "uri", "languageId", "version", "text")
	if !ok {
		return p, false
	}
	uri, ok1 := stringOf(doc[0])
	lang, ok2 := stringOf(doc[1])
	version, ok3 := wholeOf(doc[2], math.MinInt32, math.MaxInt32)
	text, ok4 := stringOf(doc[3])
	p.TextDocument = protocol.TextDocumentItem{URI: protocol.DocumentURI(uri), LanguageID: protocol.LanguageIdentifier(lang), Version: int32(version), Text: text}
	return p, ok1 && ok2 && ok3 && ok4
}

func didChangeOf(v any) (p didChangeParams, ok bool) {
	f, ok := fields(v, "textDocument", "contentChanges")
	if !ok {
		return p, false
	}
	doc, ok := fields(f[0], "uri", "version")
	if !ok {
		return p, false
	}
	uri, ok1 := stringOf(doc[0])
	version, ok2 := wholeOf(doc[1], math.MinInt32, math.MaxInt32)
	if !ok1 || !ok2 {
		return p, false
	}
	p.TextDocument.URI, p.TextDocument.Version = protocol.DocumentURI(uri), int32(version)
	if f[1] == nil {
		return p, true // no changes
	}
	changes, ok := f[1].([]any)
	if !ok {
		return p, false
	}
	p.ContentChanges = make([]textChange, 0, len(changes))
	for _, c := range changes {
		cf, ok := fields(c, "text", "range")
		if !ok {
			return p, false
		}
		var change textChange
		if change.Text, ok = stringOf(cf[0]); !ok {
			return p, false
		}
		if cf[1] != nil { // absent and null are no range: the whole document
			if change.Range, ok = rangeOf(cf[1]); !ok {
				return p, false
			}
		}
		p.ContentChanges = append(p.ContentChanges, change)
	}
	return p, true
}

func rangeOf(v any) (*protocol.Range, bool) {
	f, ok := fields(v, "start", "end")
	if !ok {
		return nil, false
	}
	start, ok1 := positionOf(f[0])
	end, ok2 := positionOf(f[1])
	return &protocol.Range{Start: start, End: end}, ok1 && ok2
}

func positionOf(v any) (protocol.Position, bool) {
	f, ok := fields(v, "line", "character")
	if !ok {
		return protocol.Position{}, false
	}
	line, ok1 := wholeOf(f[0], 0, math.MaxUint32)
	char, ok2 := wholeOf(f[1], 0, math.MaxUint32)
	return protocol.Position{Line: uint32(line), Character: uint32(char)}, ok1 && ok2
}

// fields returns the values of the keys of the object v; a key that is
// absent or null gives nil, and so does a null v, as encoding/json leaves
// such fields alone. It fails when v is something else than an object or
// null, or has a key that matches one of keys but for case, which
// encoding/json would also read.
func fields(v any, keys ...string) ([]any, bool) {
	out := make([]any, len(keys))
	if v == nil {
		return out, true
	}
	o, ok := v.(*jsvalue.Object)
	if !ok {
		return nil, false
	}
	for i := range o.Len() {
		k, val := o.At(i)
		for j, want := range keys {
			if k == want {
				out[j] = val
			} else if strings.EqualFold(k, want) {
				return nil, false
			}
		}
	}
	return out, true
}

// stringOf is a JSON string, or "" for null.
func stringOf(v any) (string, bool) {
	if v == nil {
		return "", true
	}
	s, ok := v.(string)
	return s, ok
}

// wholeOf is a JSON number that is a whole number from lo to hi, or 0 for
// null.
func wholeOf(v any, lo, hi float64) (float64, bool) {
	if v == nil {
		return 0, true
	}
	f, ok := v.(float64)
	return f, ok && f == math.Trunc(f) && lo <= f && f <= hi
}
