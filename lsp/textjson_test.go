package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"reflect"
	"testing"

	"go.lsp.dev/protocol"
)

// textJSONSamples are params of didOpen and didChange that the fast reader
// must decode exactly as encoding/json does, and some it must hand over.
var textJSONSamples = []string{
	`{"textDocument":{"uri":"file:///a.lobster","version":3},"contentChanges":[{"text":"steps:\n  - id: a\n    run: echo \"hi\" \\ \t\u00e9\ud83d\ude00 \u2028"}]}`,
	`{"contentChanges":[{"range":{"start":{"line":1,"character":2},"end":{"line":1,"character":4}},"rangeLength":2,"text":"x"},{"range":null,"text":"whole"}],"textDocument":{"version":7,"uri":"file:///b%20c.lobster"}}`,
	`{"textDocument":{"uri":"file:///a","version":1,"extra":[1,{"x":"}"}]},"contentChanges":[]}`,
	`{"textDocument":{"uri":"file:///a","version":1},"contentChanges":[{"text":"a"}],"textDocument":{"uri":"file:///last","version":2}}`,
	`{"textDocument":{"uri":"file:///a","languageId":"lobster","version":2,"text":"name: x\r\nsteps: []\n"}}`,
	`{"textDocument":{"uri":"file:///a","version":2.5},"contentChanges":[]}`,
	`{"textDocument":{"uri":"file:///a","version":99999999999},"contentChanges":[]}`,
	`{"textDocument":{"uri":"file:///a","version":1},"contentChanges":[{"text":"lone \ud800 surrogate"}]}`,
	"{\"textDocument\":{\"uri\":\"file:///a\",\"version\":1},\"contentChanges\":[{\"text\":\"bad \xff byte\"}]}",
	`{"textDocument":{"uri":"file:///a","version":1},"contentChanges":[{"text":5}]}`,
	`{"textDocument":{"uri":"file:///a","version":1},"contentChanges":{"text":"x"}}`,
	`{"textDocument":{"uri":"file:///a","version":1},"contentChanges":[{"text":"unterminated}]}`,
	`{"textDocument":{"uri":"file:///a","version":-0},"contentChanges":[{"text":"\u0000\/\b\f\r\t\ud83d\ude00\u00e9"}]}`,
	`{"textDocument":{"uri":"file:///a","version":1,"x":{"a":[1,"]}",{"b":null}],"c":true}},"contentChanges":[{"text":"a","rangeLength":3,"range":null}]}`,
	`{"textDocument":{"uri":"file:///a","version":1.0},"contentChanges":[]}`,
	`{"textDocument":{"uri":null,"version":1},"contentChanges":null}`,
	`{"textDocument":{"URI":"file:///a","version":1},"contentChanges":[{"Text":"x"}]}`,
	`{"textDocument":{"uri":"file:///a","version":1},"contentChanges":[{"text":"\udc00 low first"}]}`,
	`{"textDocument":{"uri":"file:///a","version":1},"contentChanges":[{"text":"\ud800\u0041 high then not low"}]}`,
	` {"textDocument" : {"uri" : "file:///a" , "version" : 7 } , "contentChanges" : [ { "text" : "spaced" } ] } `,
	`{"textDocument":{"uri":"file:///a","version":1},"contentChanges":[{"text":"a"}]} trailing`,
	`[1,2]`,
	`null`,
	``,
}

func TestFastTextJSONMatchesEncodingJSON(t *testing.T) {
	samples := append([]string(nil), textJSONSamples...)
	if src, err := os.ReadFile("../examples/deploy.lobster"); err == nil {
		d, _ := json.Marshal(map[string]any{"textDocument": map[string]any{"uri": "file:///d", "version": 4, "text": string(src)}, "contentChanges": []any{map[string]any{"text": string(src)}}})
		samples = append(samples, string(d))
	}
	for _, s := range samples {
		compareTextJSON(t, []byte(s))
	}
}

// TestFastTextJSONIsUsed fails when the fast reader hands over what it
// should read itself: the usual shapes, with every escape.
func TestFastTextJSONIsUsed(t *testing.T) {
	for _, i := range []int{0, 1, 2, 3, 12, 13, 19} {
		var p didChangeParams
		r := textReader{data: []byte(textJSONSamples[i])}
		if err := r.didChange(&p); err != nil || !r.end() {
			t.Errorf("didChange %s: %v", textJSONSamples[i], err)
		}
	}
	var o protocol.DidOpenTextDocumentParams
	r := textReader{data: []byte(textJSONSamples[4])}
	if err := r.didOpen(&o); err != nil || !r.end() || o.TextDocument.Text != "name: x\r\nsteps: []\n" {
		t.Errorf("didOpen: %v, %+v", err, o)
	}
}

func compareTextJSON(t *testing.T, raw []byte) {
	t.Helper()
	var wantChange didChangeParams
	errChange := json.Unmarshal(raw, &wantChange)
	gotChange, err := decodeDidChange(raw)
	if (err == nil) != (errChange == nil) || err == nil && !reflect.DeepEqual(gotChange, wantChange) {
		t.Errorf("didChange %q:\n got %+v, %v\nwant %+v, %v", raw, gotChange, err, wantChange, errChange)
	}
	var wantOpen protocol.DidOpenTextDocumentParams
	errOpen := json.Unmarshal(raw, &wantOpen)
	gotOpen, err := decodeDidOpen(raw)
	if (err == nil) != (errOpen == nil) || err == nil && !reflect.DeepEqual(gotOpen, wantOpen) {
		t.Errorf("didOpen %q:\n got %+v, %v\nwant %+v, %v", raw, gotOpen, err, wantOpen, errOpen)
	}
}

func FuzzFastTextJSON(f *testing.F) {
	for _, s := range textJSONSamples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !json.Valid(raw) {
			return // clients send valid JSON; invalid frames are only required not to crash (TestMalformedMessages)
		}
		compareTextJSON(t, raw)
	})
}

// TestDocumentFrame: the shortcut takes didOpen and didChange notifications
// and nothing else.
func TestDocumentFrame(t *testing.T) {
	s := NewServer(Options{})
	s.initialized = true
	taken := []string{
		`{"jsonrpc":"2.0","method":"textDocument\/didChange","params":{"textDocument":{"uri":"file:///other.lobster","version":1},"contentChanges":[]}}`, // the same method
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w.lobster","version":1,"text":"steps: []\n"}}}`,
		`{"params":{"textDocument":{"uri":"file:///w.lobster","version":2},"contentChanges":[{"text":"name: x\nsteps: []\n"}]},"method":"textDocument/didChange","jsonrpc":"2.0"}`,
	}
	left := []string{
		`{"jsonrpc":"2.0","id":1,"method":"textDocument/didChange","params":{}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didSave","params":{"textDocument":{"uri":"file:///w.lobster"}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":[]}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange"}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"x":"unterminated`,
		`not json`,
	}
	for _, f := range taken {
		if !s.documentFrame(context.Background(), []byte(f)) {
			t.Errorf("documentFrame left %s", f)
		}
	}
	if doc := s.snapshot("file:///w.lobster"); doc == nil || doc.version != 2 || string(doc.text) != "name: x\nsteps: []\n" {
		t.Errorf("after the frames the document is %+v", doc)
	}
	for _, f := range left {
		if s.documentFrame(context.Background(), []byte(f)) {
			t.Errorf("documentFrame took %s", f)
		}
	}
	s.stop()
}

// FuzzDocumentFrame: any frame is taken or left without a panic, and a
// frame that is taken was a didOpen or didChange notification.
func FuzzDocumentFrame(f *testing.F) {
	for _, p := range textJSONSamples {
		f.Add([]byte(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":` + p + `}`))
		f.Add([]byte(`{"method":"textDocument/didOpen","params":` + p + `,"jsonrpc":"2.0"}`))
	}
	s := NewServer(Options{Log: io.Discard})
	s.initialized = true
	f.Fuzz(func(t *testing.T, frame []byte) {
		if s.documentFrame(context.Background(), frame) && !bytes.Contains(frame, []byte("textDocument/did")) {
			t.Errorf("took %q", frame)
		}
	})
}
