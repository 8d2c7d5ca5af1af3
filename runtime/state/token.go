package state

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
)

// Kinds of resume tokens.
const (
	KindPipeline = "pipeline-resume" // a paused pipeline run
	KindWorkflow = "workflow-file"   // a paused workflow file run
)

// State key prefixes: the token's kind follows from its key.
const (
	PipelinePrefix = "pipeline_resume_"
	WorkflowPrefix = "workflow_resume_"
)

// A Token names a paused run: it carries only the key of its state in the
// local state directory, which is the real capability.
type Token struct {
	Kind     string
	StateKey string
}

// KindOf is the kind of token for a state key, as the reference decides it.
func KindOf(stateKey string) string {
	if strings.HasPrefix(stateKey, PipelinePrefix) {
		return KindPipeline
	}
	return KindWorkflow
}

// Encode is the token text: base64url without padding of the compact JSON
// {"protocolVersion":1,"v":1,"kind":…,"stateKey":…}, byte for byte the
// reference's.
func (t Token) Encode() string {
	payload, _ := json.Marshal(struct {
		ProtocolVersion int    `json:"protocolVersion"`
		V               int    `json:"v"`
		Kind            string `json:"kind"`
		StateKey        string `json:"stateKey"`
	}{1, 1, t.Kind, t.StateKey})
	return base64.RawURLEncoding.EncodeToString(payload)
}

// A TokenError says why a token was refused; its text is the reference's
// message where the reference has one.
type TokenError struct{ Msg string }

func (e *TokenError) Error() string { return e.Msg }

var (
	errInvalidToken = &TokenError{"Invalid token"}
	errInvalidWfTok = &TokenError{"Invalid workflow token"}
	errProtocol     = &TokenError{"Unsupported protocol version"}
	errTokenVersion = &TokenError{"Unsupported token version"}
	// ErrLegacyToken is a legacy workflow token: it embeds the run's steps
	// and args instead of naming a state, so whoever holds it could have
	// written them.
	ErrLegacyToken = &TokenError{"Legacy workflow tokens that embed the run's state are not accepted (anyone could forge one); run the workflow again for a new token"}
)

// DecodeToken reads a token. Like the reference it accepts the standard
// base64 alphabet, padding and whitespace as well as what Encode writes.
// Unlike the reference it refuses legacy workflow tokens that embed the
// run's steps and args instead of a state key: their content is whatever
// the holder wrote, approvals included.
func DecodeToken(text string) (Token, error) {
	data, ok := decodeBase64(text)
	var value any
	if !ok || json.Unmarshal(data, &value) != nil {
		return Token{}, errInvalidToken
	}
	switch value.(type) {
	case map[string]any:
	case []any: // an object to JavaScript, with no protocolVersion
		return Token{}, errProtocol
	default:
		return Token{}, errInvalidToken
	}
	var payload map[string]json.RawMessage
	json.Unmarshal(data, &payload)
	if !isOne(payload["protocolVersion"]) {
		return Token{}, errProtocol
	}
	if !isOne(payload["v"]) {
		return Token{}, errTokenVersion
	}
	var kind string
	json.Unmarshal(payload["kind"], &kind)
	key, hasKey := stringField(payload, "stateKey")
	switch kind {
	case KindWorkflow:
		if hasKey && key != "" {
			return Token{Kind: kind, StateKey: key}, nil
		}
		if isLegacyWorkflowToken(payload) {
			return Token{}, ErrLegacyToken
		}
		return Token{}, errInvalidWfTok
	case KindPipeline:
		if hasKey && key != "" {
			return Token{Kind: kind, StateKey: key}, nil
		}
	}
	return Token{}, errInvalidToken
}

// isLegacyWorkflowToken says whether the reference would run payload as a
// legacy token: a non-empty filePath, a numeric resumeAtIndex, and steps
// and args that are objects or arrays.
func isLegacyWorkflowToken(payload map[string]json.RawMessage) bool {
	path, _ := stringField(payload, "filePath")
	return path != "" && isNumber(payload["resumeAtIndex"]) &&
		isComposite(payload["steps"]) && isComposite(payload["args"])
}

func isNumber(raw json.RawMessage) bool {
	return len(raw) > 0 && (raw[0] == '-' || '0' <= raw[0] && raw[0] <= '9')
}

func isComposite(raw json.RawMessage) bool {
	return len(raw) > 0 && (raw[0] == '{' || raw[0] == '[')
}

// IsTokenError says whether err is a refused token.
func IsTokenError(err error) bool {
	var te *TokenError
	return errors.As(err, &te)
}

func decodeBase64(text string) ([]byte, bool) {
	clean := strings.Map(func(r rune) rune {
		switch {
		case r == '+':
			return '-'
		case r == '/':
			return '_'
		case r == '=', r == ' ', r == '\t', r == '\n', r == '\r':
			return -1
		}
		return r
	}, text)
	data, err := base64.RawURLEncoding.DecodeString(clean)
	return data, err == nil
}

// isOne says whether raw is the JSON number 1 (JavaScript's === 1).
func isOne(raw json.RawMessage) bool {
	var n float64
	return len(raw) > 0 && raw[0] != '"' && json.Unmarshal(raw, &n) == nil && n == 1
}

func stringField(payload map[string]json.RawMessage, name string) (string, bool) {
	raw, ok := payload[name]
	if !ok || len(raw) == 0 || raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}
