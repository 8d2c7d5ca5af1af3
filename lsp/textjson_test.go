package lsp

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
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

func TestDocumentParamsMatchEncodingJSON(t *testing.T) {
	samples := append([]string(nil), textJSONSamples...)
	if src, err := os.ReadFile("../examples/deploy.lobster"); err == nil {
		d, _ := json.Marshal(map[string]any{"textDocument": map[string]any{"uri": "file:///d", "version": 4, "text": string(src)}, "contentChanges": []any{map[string]any{"text": string(src)}}})
		samples = append(samples, string(d))
	}
	for _, s := range samples {
		for _, method := range []string{"textDocument/didChange", "textDocument/didOpen"} {
			compareDocumentParams(t, []byte(`{"jsonrpc":"2.0","method":"`+method+`","params":`+s+`}`))
		}
	}
}

// TestDocumentParamsTaken fails when the frame reader leaves what it should
// read itself: the usual shapes, with every escape.
func TestDocumentParamsTaken(t *testing.T) {
	for _, i := range []int{0, 1, 2, 3, 12, 13, 19} {
		frame := `{"jsonrpc":"2.0","method":"textDocument/didChange","params":` + textJSONSamples[i] + `}`
		if _, ok := documentParams([]byte(frame)); !ok {
			t.Errorf("left %s", frame)
		}
	}
	p, ok := documentParams([]byte(`{"method":"textDocument/didOpen","params":` + textJSONSamples[4] + `}`))
	if o, isOpen := p.(protocol.DidOpenTextDocumentParams); !ok || !isOpen || o.TextDocument.Text != "name: x\r\nsteps: []\n" {
		t.Errorf("didOpen: %v, %+v", ok, p)
	}
}

// compareDocumentParams: when the frame reader takes a frame, encoding/json
// decodes its params to the same value (a version written 1.0 or 1e0, which
// encoding/json refuses for an int32, aside).
func compareDocumentParams(t *testing.T, frame []byte) {
	t.Helper()
	got, ok := documentParams(frame)
	if !ok {
		return // left to jsonrpc2 and encoding/json
	}
	var msg struct {
		Method string
		Params json.RawMessage
	}
	if err := json.Unmarshal(frame, &msg); err != nil {
		t.Errorf("took %q, which encoding/json cannot read: %v", frame, err)
		return
	}
	var want any
	var err error
	switch msg.Method {
	case "textDocument/didChange":
		var p didChangeParams
		err = json.Unmarshal(msg.Params, &p)
		want = p
	case "textDocument/didOpen":
		var p protocol.DidOpenTextDocumentParams
		err = json.Unmarshal(msg.Params, &p)
		want = p
	default:
		t.Errorf("took %q, method %q", frame, msg.Method)
		return
	}
	if err != nil && strings.Contains(err.Error(), "int32") {
		return // the version leniency
	}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("%q:\n got %+v\nwant %+v, %v", frame, got, want, err)
	}
}

func FuzzDocumentParams(f *testing.F) {
	for _, s := range textJSONSamples {
		f.Add([]byte(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":` + s + `}`))
		f.Add([]byte(`{"method":"textDocument/didOpen","params":` + s + `,"jsonrpc":"2.0"}`))
	}
	f.Fuzz(func(t *testing.T, frame []byte) {
		if !json.Valid(frame) {
			documentParams(frame) // must not panic
			return
		}
		compareDocumentParams(t, frame)
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
