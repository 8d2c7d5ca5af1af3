package temporal

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"

	"github.com/lobsterdev/lobster/lang/jsvalue"
	"github.com/lobsterdev/lobster/runtime/state"
)

func TestTokenKey(t *testing.T) {
	key := TokenKey("0b5c-9f", 3)
	if !strings.HasPrefix(key, state.WorkflowPrefix) {
		t.Errorf("key %q does not look like a workflow state key", key)
	}
	run, gate, ok := ParseTokenKey(key)
	if !ok || run != "0b5c-9f" || gate != 3 {
		t.Errorf("ParseTokenKey(%q) = %q %d %v", key, run, gate, ok)
	}
	for _, bad := range []string{"workflow_resume_abc", "pipeline_resume_x.1", "workflow_resume_x.0", "workflow_resume_.2", "workflow_resume_x.y"} {
		if _, _, ok := ParseTokenKey(bad); ok {
			t.Errorf("ParseTokenKey(%q) accepted", bad)
		}
	}
}

// TestProjectRoutes: the project configuration's temporal section
// chooses the run's task queue and the queue of each step's commands.
func TestProjectRoutes(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "flows", "ml")
	os.MkdirAll(sub, 0o755)
	file := filepath.Join(sub, "w.lobster")
	if ps := project(file); ps.queue != "" || ps.routes != nil || ps.heartbeatMs != 0 {
		t.Fatalf("no configuration: %+v", ps)
	}
	os.WriteFile(filepath.Join(root, ".lobsterrc.yaml"), []byte(`
temporal:
  task_queue: team
  routes:
    - steps: ["train*", eval]
      task_queue: gpu
    - steps: ["*"]
      task_queue: cpu
  heartbeat_ms: 30000
`), 0o644)
	ps := project(file)
	q, routes := ps.queue, ps.routes
	if q != "team" || len(routes) != 2 || ps.heartbeatMs != 30000 {
		t.Fatalf("read %+v", ps)
	}
	run := &wfRun{in: &RunInput{Routes: routes, TaskQueue: q}}
	for id, want := range map[string]string{"train-a": "gpu", "eval": "gpu", "evaluate": "cpu", "fetch": "cpu"} {
		if got := run.route(id); got != want {
			t.Errorf("route(%s) = %s, want %s", id, got, want)
		}
	}
	run = &wfRun{in: &RunInput{}}
	if got := run.route("x"); got != DefaultTaskQueue {
		t.Errorf("no routes: %s", got)
	}
}

// TestCodec: small payloads stay readable JSON, large ones are compressed,
// and both decode to what was encoded.
func TestCodec(t *testing.T) {
	c := Codec()
	small := &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`{"id":"a","stdout":"` + strings.Repeat("ok ", 1000) + `"}`)}
	large := &commonpb.Payload{Metadata: map[string][]byte{"encoding": []byte("json/plain")}, Data: []byte(`"` + strings.Repeat("log line\n", 2000) + `"`)}
	enc, err := c.Encode([]*commonpb.Payload{small, large})
	if err != nil {
		t.Fatal(err)
	}
	if string(enc[0].Metadata["encoding"]) != "json/plain" {
		t.Errorf("a small payload was encoded: %s", enc[0].Metadata["encoding"])
	}
	if string(enc[1].Metadata["encoding"]) != "binary/zlib" || len(enc[1].Data) >= len(large.Data)/10 {
		t.Errorf("a large payload: %s, %d bytes of %d", enc[1].Metadata["encoding"], len(enc[1].Data), len(large.Data))
	}
	dec, err := c.Decode(enc)
	if err != nil || string(dec[0].Data) != string(small.Data) || string(dec[1].Data) != string(large.Data) {
		t.Errorf("decode: %v", err)
	}
}

// TestJSONKeepsKeyOrder: runtime values travel with their keys in order.
func TestJSONKeepsKeyOrder(t *testing.T) {
	v := jsvalue.Obj("z", 1.0, "a", []any{"x", jsvalue.Obj("m", true, "b", nil)})
	p, err := DataConverter().ToPayload(&JSON{v})
	if err != nil {
		t.Fatal(err)
	}
	var back JSON
	if err := DataConverter().FromPayload(p, &back); err != nil {
		t.Fatal(err)
	}
	if got := jsvalue.Stringify(back.V, ""); got != `{"z":1,"a":["x",{"m":true,"b":null}]}` {
		t.Errorf("round trip: %s", got)
	}
}
