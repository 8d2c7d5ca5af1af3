package state

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"time"
)

// tombstoneType marks a resume state that a resume has claimed.
const tombstoneType = "lobster.consumed-resume-state.v1"

// ErrResumeNotFound is a resume state that is missing, not an object, or
// already claimed: the token is spent or was never issued.
var ErrResumeNotFound = errors.New("resume state not found")

// A GoneError is a resume whose token or id names no resume state it may
// use: none was issued under its key, a resume or a cancellation claimed it
// already, or the key is not a resume state's of the token's kind (see
// ResumeKind). Its text is the reference's message for a missing state.
type GoneError struct{ Msg string }

func (e *GoneError) Error() string { return e.Msg }

// tombstone replaces a claimed resume state. It stays after a failed run,
// so that a replayed token cannot repeat the run's side effects.
type tombstone struct {
	Type       string `json:"type"`
	ConsumedAt string `json:"consumedAt"`
	ClaimID    string `json:"claimId"`
	// Owner names the claiming process as "<pid>:<start>" (ours only:
	// the reference's tombstones have none), so that a prune can tell
	// a running resume's tombstone from a dead one's.
	Owner string `json:"owner,omitempty"`
}

// LoadResume reads the resume state under key as raw JSON. A key that
// names no resume state (ResumeKind), a missing file, a value that is not
// an object, and a claimed state are all ErrResumeNotFound; a file that is
// not JSON is its own error.
func (s *Store) LoadResume(ctx context.Context, key string) (json.RawMessage, error) {
	if ResumeKind(key) == "" {
		return nil, ErrResumeNotFound
	}
	var raw json.RawMessage
	found, err := s.Read(ctx, key, &raw)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, ErrResumeNotFound
	}
	var object map[string]any
	if json.Unmarshal(raw, &object) != nil || object == nil || object["type"] == tombstoneType {
		return nil, ErrResumeNotFound
	}
	return raw, nil
}

// A Claim is a resume state a resume owns: its file now holds a tombstone.
type Claim struct {
	store    *Store
	key      string
	original json.RawMessage
	id       string
}

// ClaimResume takes the resume state under key for one resume: under the
// lock, if the state is still loaded (the same JSON value as loaded, which
// LoadResume returned), it is replaced by a tombstone. Of any number of
// resumes of one token, in any number of processes, exactly one gets the
// claim; the others get ErrResumeNotFound. Call it right before the first
// step with side effects.
func (s *Store) ClaimResume(ctx context.Context, key string, loaded json.RawMessage) (*Claim, error) {
	if ResumeKind(key) == "" {
		return nil, ErrResumeNotFound
	}
	c := &Claim{store: s, key: key, original: loaded, id: RandomHex(16)}
	err := s.locked(ctx, key, func(path string) error {
		current, err := ReadFile(path)
		if err != nil || !sameJSON(current, loaded) {
			return ErrResumeNotFound
		}
		data, _ := Encode(tombstone{Type: tombstoneType, ConsumedAt: ISOTime(time.Now()), ClaimID: c.id, Owner: claimOwner()})
		return WriteFileAtomic(path, data)
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Restore puts the claimed state back, for a resume cancelled before
// anything ran: the token becomes usable again. A tombstone that is no
// longer this claim's is left alone.
func (c *Claim) Restore(ctx context.Context) error {
	return c.store.locked(ctx, c.key, func(path string) error {
		var stone tombstone
		data, err := ReadFile(path)
		if err != nil || json.Unmarshal(data, &stone) != nil || stone.Type != tombstoneType || stone.ClaimID != c.id {
			return nil
		}
		// The original text, key order and all, in the store's format.
		var out bytes.Buffer
		if err := json.Indent(&out, c.original, "", "  "); err != nil {
			return err
		}
		out.WriteByte('\n')
		return WriteFileAtomic(path, out.Bytes())
	})
}

// Release deletes the claimed state, for a run that finished.
func (c *Claim) Release(ctx context.Context) error {
	return c.store.Delete(ctx, c.key)
}

// sameJSON says whether a and b are the same JSON value (the reference
// compares canonical JSON: key order and spacing do not matter).
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
