package state

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// referenceToken is one line of testdata/reference/tokens.jsonl: how the
// reference decoded a probe token (scripts/reference-tokens.mjs).
type referenceToken struct {
	Input    string `json:"input"`
	OK       bool   `json:"ok"`
	Kind     string `json:"kind"`
	StateKey string `json:"stateKey"`
	Legacy   bool   `json:"legacy"`
	Error    string `json:"error"`
}

func TestDecodeTokenMatchesReference(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "..", "testdata", "reference", "tokens.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines := bufio.NewScanner(f)
	lines.Buffer(nil, 1<<20)
	n := 0
	for lines.Scan() {
		var want referenceToken
		if err := json.Unmarshal(lines.Bytes(), &want); err != nil {
			t.Fatal(err)
		}
		n++
		got, err := DecodeToken(want.Input)
		switch {
		case want.Legacy:
			// Deliberate difference: a legacy token that embeds the
			// run is refused instead of trusted.
			if err != ErrLegacyToken {
				t.Errorf("legacy token %s: got %+v, %v; want it refused as legacy", want.Input, got, err)
			}
		case want.OK:
			if err != nil || got.Kind != want.Kind || got.StateKey != want.StateKey {
				t.Errorf("token %s: got %+v, %v; want kind %s, key %s", want.Input, got, err, want.Kind, want.StateKey)
			}
		default:
			if err == nil || err.Error() != want.Error || !IsTokenError(err) {
				t.Errorf("token %s: got %+v, %v; want error %q", want.Input, got, err, want.Error)
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d recorded tokens", n)
	}
}

func TestEncodeTokenIsTheReferences(t *testing.T) {
	// The first recorded probe is a token the reference issued.
	f, err := os.ReadFile(filepath.Join("..", "..", "testdata", "reference", "tokens.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var issued referenceToken
	json.Unmarshal(f[:indexByte(f, '\n')], &issued)
	tok := Token{Kind: issued.Kind, StateKey: issued.StateKey}
	if got := tok.Encode(); got != issued.Input {
		t.Errorf("Encode = %s\nreference issued %s", got, issued.Input)
	}
	if back, err := DecodeToken(tok.Encode()); err != nil || back != tok {
		t.Errorf("round trip = %+v, %v", back, err)
	}
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return len(b)
}

func TestKindOf(t *testing.T) {
	for key, want := range map[string]string{
		"pipeline_resume_x": KindPipeline,
		"workflow_resume_x": KindWorkflow,
		"workflow-resume_x": KindWorkflow,
		"anything":          KindWorkflow,
	} {
		if got := KindOf(key); got != want {
			t.Errorf("KindOf(%q) = %q, want %q", key, got, want)
		}
	}
}
