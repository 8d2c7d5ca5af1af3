package lsp

import (
	"encoding/json"
	"errors"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// TestEncodeMessageMatchesMarshal: the framing written around params and
// results as they are is byte for byte what json.Marshal gives.
func TestEncodeMessageMatchesMarshal(t *testing.T) {
	notify, _ := jsonrpc2.NewNotification("textDocument/publishDiagnostics", map[string]any{"uri": "file:///a <b>", "diagnostics": []int{1, 2}})
	empty, _ := jsonrpc2.NewNotification("exit", nil)
	call, _ := jsonrpc2.NewCall(jsonrpc2.NewNumberID(4), "workspace/configuration", map[string]any{"items": []any{}})
	msgs := []jsonrpc2.Message{notify, empty, call}
	for _, r := range []struct {
		id     jsonrpc2.ID
		result any
		err    error
	}{
		{jsonrpc2.NewNumberID(7), map[string]any{"contents": "x"}, nil},
		{jsonrpc2.NewStringID("s\"1"), nil, nil},
		{jsonrpc2.NewNumberID(8), nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, "no")},
		{jsonrpc2.NewNumberID(9), nil, errors.New("plain")},
	} {
		resp, err := jsonrpc2.NewResponse(r.id, r.result, r.err)
		if err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, resp)
	}
	for _, m := range msgs {
		got, err := encodeMessage(m)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("encodeMessage(%T) = %s, want %s", m, got, want)
		}
	}
}
