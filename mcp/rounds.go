//lint:file-ignore SA1019 Roots stay: clients of the older protocol generations confine the server with them.

package mcp

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A tool call may need input from the client before it can finish: the
// client's roots, or a person's answer at an approval gate. Clients of
// protocol 2026-07-28 and later are asked by returning the requests with
// the call's state (multi round-trip requests): the client answers them
// and calls again with the answers and the state. Older clients are asked
// with server-to-client requests while the call waits. Either way a tool's
// body sees the same thing: it returns a *needInput, and it is called again
// with the answers in its call.

// newProtocol is the first protocol version that carries input requests
// in results instead of server-to-client requests.
const newProtocol = "2026-07-28"

// maxRounds bounds the rounds of one call.
const maxRounds = 10

// roundState is what a call carries from one round to the next, signed by
// the server (the client echoes it unread).
type roundState struct {
	Tool      string   `json:"tool"`
	HaveRoots bool     `json:"haveRoots,omitempty"`
	Roots     []string `json:"roots,omitempty"`
	// The pause a person was asked about: its state key, its resume token
	// and approval id.
	Key        string `json:"key,omitempty"`
	Token      string `json:"token,omitempty"`
	ApprovalID string `json:"approvalId,omitempty"`
	// Engine is the engine of the call's run (the pause's).
	Engine string `json:"engine,omitempty"`
}

// needInput is a tool body's request for input from the client.
type needInput struct {
	requests sdk.InputRequestMap
	state    roundState
}

func (n *needInput) Error() string { return "the call needs input from the client" }

// A call is one tools/call, across its rounds.
type call struct {
	s         *Server
	req       *sdk.CallToolRequest
	state     roundState
	responses sdk.InputResponseMap
}

// legacy says whether the client is asked with server-to-client requests.
func (c *call) legacy() bool { return c.req.ProtocolVersion() < newProtocol }

// canElicit says whether the client can ask its user with a form.
func (c *call) canElicit() bool {
	caps := c.req.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return false
	}
	e := caps.Elicitation
	return e.Form != nil || e.URL == nil
}

// ask returns the request for input with the call's state.
func (c *call) ask(id string, r sdk.InputRequest, st roundState) *needInput {
	return &needInput{requests: sdk.InputRequestMap{id: r}, state: st}
}

// response is the client's answer to the request id of the last round.
func (c *call) response(id string) sdk.InputResponse {
	if c.responses == nil {
		return nil
	}
	return c.responses[id]
}

// body is what a tool does, on its decoded input.
type body[In, Out any] func(ctx context.Context, c *call, in In) (*sdk.CallToolResult, Out, error)

// addTool adds a tool whose body may ask for input. A panic in the body
// is an internal error of the call, never a crash of the server.
func addTool[In, Out any](s *Server, t *sdk.Tool, fn body[In, Out]) {
	sdk.AddTool(s.sdk, t, func(ctx context.Context, req *sdk.CallToolRequest, in In) (res *sdk.CallToolResult, out Out, err error) {
		defer func() {
			if s.afterCall != nil {
				defer s.afterCall(t.Name)
			}
			if r := recover(); r != nil {
				var zero Out
				res, out, err = nil, zero, fmt.Errorf("internal error in %s: %v", t.Name, r)
			}
		}()
		c := &call{s: s, req: req, state: roundState{Tool: t.Name}}
		if req.Params.RequestState != "" {
			if err := s.verify(req.Params.RequestState, &c.state); err != nil || c.state.Tool != t.Name {
				return nil, out, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "requestState was not issued by this server for this tool"}
			}
			c.responses = req.Params.InputResponses
		}
		for round := 1; ; round++ {
			res, out, err = fn(ctx, c, in)
			var need *needInput
			if !errors.As(err, &need) {
				return res, out, err
			}
			var zero Out
			need.state.Tool = t.Name
			if !c.legacy() {
				return &sdk.CallToolResult{InputRequests: need.requests, RequestState: s.sign(need.state)}, zero, nil
			}
			if round >= maxRounds {
				return nil, zero, fmt.Errorf("%s: gave up after %d rounds of questions to the client", t.Name, round)
			}
			responses, err := fulfil(ctx, req.Session, need.requests)
			if err != nil {
				return nil, zero, err
			}
			c.state, c.responses = need.state, responses
		}
	})
}

// fulfil asks an older client for the inputs with server-to-client
// requests.
func fulfil(ctx context.Context, ss *sdk.ServerSession, requests sdk.InputRequestMap) (sdk.InputResponseMap, error) {
	out := sdk.InputResponseMap{}
	for id, r := range requests {
		var resp sdk.InputResponse
		var err error
		switch p := r.(type) {
		case *sdk.ElicitParams:
			resp, err = ss.Elicit(ctx, p)
		case *sdk.ListRootsParams:
			resp, err = ss.ListRoots(ctx, p)
		default:
			err = fmt.Errorf("cannot ask for %T", r)
		}
		if err != nil {
			return nil, fmt.Errorf("asking the client: %w", err)
		}
		out[id] = resp
	}
	return out, nil
}

// sign encodes st with the server's signature.
func (s *Server) sign(st roundState) string {
	data, _ := json.Marshal(st)
	mac := hmac.New(sha256.New, s.key)
	mac.Write(data)
	enc := base64.RawURLEncoding
	return enc.EncodeToString(data) + "." + enc.EncodeToString(mac.Sum(nil))
}

// verify decodes a signed state into st.
func (s *Server) verify(text string, st *roundState) error {
	enc := base64.RawURLEncoding
	payload, sig, ok := strings.Cut(text, ".")
	if !ok {
		return errors.New("malformed")
	}
	data, err1 := enc.DecodeString(payload)
	got, err2 := enc.DecodeString(sig)
	if err1 != nil || err2 != nil {
		return errors.New("malformed")
	}
	mac := hmac.New(sha256.New, s.key)
	mac.Write(data)
	if !hmac.Equal(got, mac.Sum(nil)) {
		return errors.New("bad signature")
	}
	return json.Unmarshal(data, st)
}
